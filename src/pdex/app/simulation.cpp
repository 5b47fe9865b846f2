#include "pdex/app/simulation.hpp"

#include <chrono>
#include <cstdio>
#include <memory>

#include "pdex/app/output_writer.hpp"
#include "pdex/app/progress.hpp"
#include "pdex/app/schedule.hpp"
#include "pdex/core/error.hpp"
#include "pdex/core/format.hpp"
#include "pdex/io/atomic_file.hpp"

namespace pdex {

namespace {
using Clock = std::chrono::steady_clock;

nlohmann::json solver_totals_json(const SolverTotals& t) {
  return {{"solves", t.solves},
          {"iterations", t.iterations},
          {"mean_iterations", t.solves ? double(t.iterations) / double(t.solves) : 0.0},
          {"max_iterations", t.max_iterations},
          {"max_residual", t.max_residual},
          {"unconverged", t.unconverged},
          {"at_floor", t.at_floor},
          {"one_launch", t.one_launch},
          {"seconds", t.seconds},
          {"iterations_per_solve", t.iterations_per_solve},
          {"residual_per_solve", t.residual_per_solve},
          {"last_residual_history", t.last_history}};
}

// Said once a run, when solves first stop above solver.tol at their precision's rounding floor.
std::string floor_warning(const SolverTotals* t, bool& said) {
  if (said || !t || t->at_floor == 0) return {};
  said = true;
  return std::to_string(t->at_floor) + " linear solve(s) stopped above solver.tol, at the rounding floor of the "
         "precision (largest relative residual so far " + format_number(t->max_residual) + "): their solutions are as "
         "accurate as this precision allows; use precision f64 to reach solver.tol, or raise solver.tol to silence this";
}

// The run loop, one chunk of the schedule at a time.
class Simulation {
 public:
  Simulation(const RunConfig& rc, const RunOptions& options)
      : schedule_(make_schedule(rc)), progress_(schedule_->progress_total(), rc.progress && options.write_outputs) {
    if (options.write_outputs) writer_ = std::make_unique<OutputWriter>(rc);
  }

  void run(Stepper& s, nlohmann::json& sum, double& step_seconds) {
    try {
      output(s);
      while (!schedule_->done()) {
        step_seconds += schedule_->advance(s);
        schedule_->check_finite(s);
        warn(s);
        progress_.update(schedule_->progress());
        if (schedule_->output_due()) output(s);
      }
      progress_.finish(schedule_->progress());
    } catch (const NumericalError& e) {
      progress_.finish(schedule_->progress());
      sum["status"] = "failed";
      sum["error"] = e.what();
      sum["steps_completed"] = e.last_good_step >= 0 ? e.last_good_step : schedule_->step();
      finish(sum);
      throw;
    }
    sum["status"] = "ok";
    schedule_->summarize(sum);
  }

  // Outputs and warnings into the summary, written where outputs go.
  void finish(nlohmann::json& sum) const {
    sum["outputs"] = outputs_;
    sum["warnings"] = warnings_;
    if (writer_) write_summary(writer_->dir(), sum);
  }

 private:
  void output(Stepper& s) {
    if (writer_) schedule_->add_outputs(outputs_, writer_->write(s, schedule_->step()), s);
  }

  void warn(Stepper& s) {
    for (const std::string& w : {s.warning(), floor_warning(s.solver_totals(), floor_said_)}) {
      if (w.empty()) continue;
      std::fprintf(stderr, "\npdex: warning at step %lld: %s\n", static_cast<long long>(schedule_->step()), w.c_str());
      warnings_.push_back(w);
    }
  }

  std::unique_ptr<Schedule> schedule_;
  Progress progress_;
  std::unique_ptr<OutputWriter> writer_;
  nlohmann::json outputs_ = nlohmann::json::array();
  std::vector<std::string> warnings_;
  bool floor_said_ = false;
};
}  // namespace

nlohmann::json summary_head(const RunConfig& rc, const nlohmann::json& stability) {
  const Grid2& g = rc.grid();
  nlohmann::json sum = {{"pdex_version", "0.1.0"}, {"config_file", rc.file}, {"config", rc.resolved},
                        {"config_input", rc.input}, {"model", rc.model}, {"scheme", rc.clock().scheme},
                        {"backend", backend_name(rc.backend)}, {"device", device_name(rc.backend)},
                        {"precision", precision_name(rc.precision)},
                        {"grid", {{"nx", g.nx}, {"ny", g.ny}, {"dx", g.dx}, {"dy", g.dy}}}, {"dt", rc.clock().dt}};
  if (!stability.is_null()) sum["stability"] = stability;
  return sum;
}

nlohmann::json stats_json(const std::vector<std::string>& names, const std::vector<FieldStats>& stats) {
  nlohmann::json j;
  for (std::size_t f = 0; f < names.size(); ++f)
    j[names[f]] = {{"min", stats[f].min}, {"max", stats[f].max}, {"mean", stats[f].mean}};
  return j;
}

void write_summary(const std::string& dir, const nlohmann::json& summary) {
  io::write_text_file(dir + "/summary.json", summary.dump(2) + "\n");
}

nlohmann::json check_stability(const RunConfig& rc) {
  const std::optional<StabilityRule> rule = rc.setup->stability();
  if (!rule) return nullptr;
  const RunClock& c = rc.clock();
  const StableStep& st = rule->step;
  if (!rule->note.empty()) std::fprintf(stderr, "pdex: %s\n", rule->note.c_str());
  nlohmann::json j = {{"dt", c.dt}, {"dt_max", st.dt_max}, {"limit", st.reason}, {"forced", c.force}};
  if (rule->extra.is_object()) j.update(rule->extra);
  if (c.dt > st.dt_max && !c.force) {
    const std::string advice = st.dt_max > 0 ? "use time.dt <= " + format_number(st.dt_max) : st.reason;
    if (rule->estimate) {
      std::fprintf(stderr, "pdex: warning: %s: time.dt = %s exceeds the largest stable %s step %s (%s); the run may blow up: %s\n",
                   rc.file.c_str(), format_number(c.dt).c_str(), rule->scheme_label.c_str(), format_number(st.dt_max).c_str(),
                   st.reason.c_str(), advice.c_str());
      return j;
    }
    throw InputError(rc.file + ": key 'time.dt': dt = " + format_number(c.dt) + " exceeds the largest stable " +
                     rule->scheme_label + " step " + format_number(st.dt_max) + " (" + st.reason + "); " + advice +
                     ", or set time.force = true to run anyway");
  }
  return j;
}

RunResult run_simulation(const RunConfig& rc, const RunOptions& options) {
  require_one_run(rc);
  const auto t_start = Clock::now();
  RunResult res;
  res.summary = summary_head(rc, check_stability(rc));
  auto stepper = rc.setup->make_stepper(rc.backend, rc.precision);
  res.field_names = stepper->field_names();
  Simulation sim(rc, options);
  nlohmann::json& sum = res.summary;
  sim.run(*stepper, sum, res.step_seconds);
  for (std::size_t f = 0; f < res.field_names.size(); ++f) {
    res.stats.push_back(stepper->stats(int(f)));
    if (options.keep_final_values) res.final_values.push_back(stepper->values(int(f)));
  }
  res.steps = sum["steps"].get<int64_t>();
  res.total_seconds = std::chrono::duration<double>(Clock::now() - t_start).count();
  sum["wall_seconds"] = {{"stepping", res.step_seconds}, {"total", res.total_seconds}};
  sum["cell_updates_per_second"] = res.step_seconds > 0 ? double(rc.grid().cells()) * double(res.steps) / res.step_seconds : 0.0;
  sum["fields"] = stats_json(res.field_names, res.stats);
  if (const SolverTotals* t = stepper->solver_totals()) sum["solver"] = solver_totals_json(*t);
  sim.finish(sum);
  return res;
}

}  // namespace pdex
