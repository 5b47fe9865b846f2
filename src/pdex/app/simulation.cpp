#include "pdex/app/simulation.hpp"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "pdex/app/interrupt.hpp"
#include "pdex/app/output_writer.hpp"
#include "pdex/app/progress.hpp"
#include "pdex/app/ranks.hpp"
#include "pdex/app/schedule.hpp"
#include "pdex/config/grid_config.hpp"
#include "pdex/core/error.hpp"
#include "pdex/core/format.hpp"
#include "pdex/core/memory_stats.hpp"
#include "pdex/core/version.hpp"
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

// x as TOML reads it back exactly.
std::string exact_number(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

// The bytes of the files in a folder (a checkpoint's).
int64_t folder_bytes(const std::string& dir) {
  int64_t bytes = 0;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec))
    if (e.is_regular_file(ec)) bytes += int64_t(e.file_size(ec));
  return bytes;
}

// summary.json's "checkpoints": how many, how long they took the run, at what rate.
struct CheckpointTotals {
  int64_t count = 0, bytes = 0;
  double seconds = 0;
  nlohmann::json json() const {
    return {{"written", count}, {"seconds", seconds}, {"bytes", bytes}, {"gb_per_s", seconds > 0 ? double(bytes) / seconds / 1e9 : 0.0}};
  }
};

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
      : rc_(rc), schedule_(make_schedule(rc)), progress_(schedule_->progress_total(), rc.progress && options.write_outputs) {
    if (options.write_outputs) writer_ = std::make_unique<OutputWriter>(rc);
  }

  // `stepper` may be replaced: by a retry after a blow-up (time.on_blowup = "retry").
  void run(std::unique_ptr<Stepper>& stepper, nlohmann::json& sum, double& step_seconds, const RestartFrom& from) {
    try {
      start(*stepper, sum, from);
      while (!schedule_->done()) {
        Stepper& s = *stepper;
        try {
          step_seconds += schedule_->advance(s);
          schedule_->check_finite(s);
        } catch (const NumericalError& e) {
          if (int(retries_.size()) >= rc_.max_retries || !rc_.retry_on_blowup) throw;
          retry(stepper, e);
          continue;
        }
        warn(s);
        progress_.update(schedule_->progress());
        if (schedule_->output_due()) output(s);
        if (schedule_->checkpoint_due()) checkpoint(s);
        if (const int sig = interrupt_signal()) stop(s, sum, sig);
      }
      progress_.finish(schedule_->progress());
    } catch (const Interrupted&) {
      throw;
    } catch (const Error& e) {  // a blow-up, or an output that could not be written (a full disk)
      progress_.finish(schedule_->progress());
      sum["status"] = "failed";
      sum["error"] = e.what();
      const auto* numerical = dynamic_cast<const NumericalError*>(&e);
      sum["steps_completed"] = numerical && numerical->last_good_step >= 0 ? numerical->last_good_step : schedule_->step();
      finish_quietly(sum);
      throw;
    }
    sum["status"] = "ok";
    schedule_->summarize(sum);
  }

  const RunConfig& current() const { return retried_ ? *retried_ : rc_; }

  // Outputs and warnings into the summary, written where outputs go.
  void finish(nlohmann::json& sum) {
    sum["outputs"] = outputs_;
    sum["warnings"] = warnings_;
    if (!last_checkpoint_.empty()) sum["last_checkpoint"] = last_checkpoint_;
    if (!retries_.empty()) sum["retries"] = retries_;
    if (!writer_) return;
    if (!writer_->run_files().empty()) sum["run_files"] = writer_->run_files();
    const double closing = timed([&] { writer_->close(sum); });
    sum["output_wall_seconds"] = {{"run_waited", output_seconds_}, {"closing", closing}};
    sum["outputs_waited"] = writer_->waited();
    if (checkpoints_.count > 0) sum["checkpoints"] = checkpoints_.json();
    write_summary(writer_->dir(), sum);
  }

 private:
  // From the configuration's state (its first output), or from a checkpoint.
  void start(Stepper& s, nlohmann::json& sum, const RestartFrom& from) {
    if (from.dir.empty()) return output(s);
    CheckpointClock c;
    const double seconds = timed([&] { c = read_checkpoint(rc_, s, from); });
    schedule_->resume(c, s);
    if (writer_) writer_->continue_from(c.step);
    const double bytes = double(folder_bytes(from.dir));
    sum["restarted_from"] = {{"checkpoint", from.dir}, {"step", c.step}, {"time", c.time}, {"forced", from.force},
                             {"read_seconds", seconds}, {"bytes", bytes}, {"gb_per_s", seconds > 0 ? bytes / seconds / 1e9 : 0.0}};
  }

  // Back to the last chunk's start with half the step (Merson: a tenth of the tolerance): the same
  // configuration reloaded with that change, the stepped fields and the time carried over.
  void retry(std::unique_ptr<Stepper>& old, const NumericalError& e) {
    old->restore();
    const RunConfig& was = current();
    const bool merson = was.clock().scheme == "merson";
    const double value = merson ? was.clock().tol / 10 : was.clock().dt / 2;
    CliOverrides cli = was.cli;
    cli.sets.push_back((merson ? "time.tol=" : "time.dt=") + exact_number(value));
    auto next = std::make_unique<RunConfig>(load_run_config(was.file, cli));
    std::unique_ptr<Stepper> fresh = next->setup->make_stepper(next->backend, next->precision);
    for (int f = 0; f < int(fresh->field_names().size()); ++f)
      if (fresh->settable(f)) fresh->set_values(f, old->values(f));
    fresh->set_time(schedule_->chunk_start_time());
    schedule_->retry(*fresh, merson ? 1 : 2);
    retries_.push_back({{"step", schedule_->step()}, {"t", schedule_->chunk_start_time()}, {"error", e.what()},
                        {merson ? "tol" : "dt", value}});
    std::fprintf(stderr, "\npdex: the solution blew up; going back to step %lld with time.%s = %s (retry %zu of %d)\n",
                 static_cast<long long>(schedule_->step()), merson ? "tol" : "dt", exact_number(value).c_str(), retries_.size(),
                 rc_.max_retries);
    old = std::move(fresh);
    retried_ = std::move(next);
  }

  // The run waits here only for the fields' copy (and for a write queue that is full).
  void output(Stepper& s) {
    if (!writer_) return;
    output_seconds_ += timed([&] { schedule_->add_outputs(outputs_, writer_->write(s, schedule_->step(), schedule_->position().time), s); });
  }

  void checkpoint(Stepper& s) {
    if (!writer_) return;
    checkpoints_.seconds += timed([&] { last_checkpoint_ = write_checkpoint(current(), s, schedule_->position(), writer_->copy_buffers()); });
    checkpoints_.bytes += folder_bytes(last_checkpoint_);
    ++checkpoints_.count;
  }

  // A signal asked the run to stop: its state into a checkpoint, the summary, and out.
  [[noreturn]] void stop(Stepper& s, nlohmann::json& sum, int sig) {
    progress_.finish(schedule_->progress());
    if (!schedule_->checkpoint_due()) checkpoint(s);  // else the loop wrote this step's already
    const std::string name = sig == SIGTERM ? "SIGTERM" : "SIGINT";
    sum["status"] = "interrupted";
    sum["error"] = "stopped by " + name;
    schedule_->summarize(sum);
    finish(sum);
    const std::string resume = last_checkpoint_.empty() ? "" : "; continue it with: pdex run " + rc_.file + " --restart " + last_checkpoint_;
    throw Interrupted(name + " at step " + std::to_string(schedule_->step()) + resume, sig);
  }

  // After a failure: the summary if it can be written (the disk may be full), never a second error.
  void finish_quietly(nlohmann::json& sum) {
    try {
      finish(sum);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "pdex: could not write summary.json either: %s\n", e.what());
    }
  }

  void warn(Stepper& s) {
    for (const std::string& w : {s.warning(), floor_warning(s.solver_totals(), floor_said_)}) {
      if (w.empty()) continue;
      std::fprintf(stderr, "\npdex: warning at step %lld: %s\n", static_cast<long long>(schedule_->step()), w.c_str());
      warnings_.push_back(w);
    }
  }

  const RunConfig& rc_;
  std::unique_ptr<RunConfig> retried_;  // the configuration of the last retry, dt changed
  nlohmann::json retries_ = nlohmann::json::array();
  std::unique_ptr<Schedule> schedule_;
  Progress progress_;
  std::unique_ptr<OutputWriter> writer_;
  nlohmann::json outputs_ = nlohmann::json::array();
  std::vector<std::string> warnings_;
  std::string last_checkpoint_;
  CheckpointTotals checkpoints_;
  double output_seconds_ = 0;
  bool floor_said_ = false;
};
}  // namespace

nlohmann::json summary_head(const RunConfig& rc, const nlohmann::json& stability) {
  const Grid2& g = rc.grid();
  nlohmann::json sum = {{"pdex_version", version}, {"config_file", rc.file}, {"config", rc.resolved},
                        {"config_input", rc.input}, {"model", rc.model}, {"scheme", rc.clock().scheme},
                        {"backend", backend_name(rc.backend)}, {"device", device_name(rc.backend)},
                        {"precision", precision_name(rc.precision)},
                        {"grid", grid_json(g, false)}, {"dt", rc.clock().dt}};
  if (!stability.is_null()) sum["stability"] = stability;
  if (const nlohmann::json schedule = rc.setup->schedule(rc.backend, rc.precision); !schedule.is_null()) sum["schedule"] = schedule;
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

namespace {

// The run's memory against one copy of its output fields (state_bytes): the process's peak resident host
// memory, and the device's where it ran on one.
nlohmann::json memory_json(const RunConfig& rc, std::size_t fields) {
  const double state = state_bytes(rc, fields);
  const double host = double(host_peak_bytes());
  nlohmann::json j = {{"state_bytes", state}, {"host_peak_bytes", host}, {"host_peak_per_state", host / state}};
  if (rc.backend == Backend::cuda) j.update({{"device_bytes", double(device_bytes_peak())}, {"device_per_state", double(device_bytes_peak()) / state}});
  return j;
}

}  // namespace

RunResult run_simulation(const RunConfig& rc, const RunOptions& options) {
  require_one_run(rc);
  const auto t_start = Clock::now();
  RunResult res;
  res.summary = summary_head(rc, check_stability(rc));
  auto stepper = make_run_stepper(rc);
  res.field_names = stepper->field_names();
  Simulation sim(rc, options);
  nlohmann::json& sum = res.summary;
  sim.run(stepper, sum, res.step_seconds, options.restart);
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
  sum["memory"] = memory_json(rc, res.field_names.size());
  if (nlohmann::json ranks = ranks_json(*stepper); !ranks.is_null()) {
    // A block's schedule, not the whole grid's in one process (blocks step one pass a step).
    sum.erase("schedule");
    if (!ranks["schedule"].is_null()) sum["schedule"] = ranks["schedule"];
    ranks.erase("schedule");
    sum["ranks"] = ranks;
  }
  sim.finish(sum);
  return res;
}

}  // namespace pdex
