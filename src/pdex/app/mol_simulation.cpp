#include "pdex/app/mol_simulation.hpp"

#include <algorithm>
#include <chrono>
#include <string>

#include "pdex/app/output_writer.hpp"
#include "pdex/app/progress.hpp"
#include "pdex/core/error.hpp"
#include "pdex/models/ard/ard_stepper.hpp"
#include "pdex/models/curvature/curvature_stepper.hpp"

namespace pdex {

namespace {
using Clock = std::chrono::steady_clock;

// At most ~max_points of the accepted steps' (t, tau), evenly picked, the last one included.
nlohmann::json step_history(const StepStats& s, std::size_t max_points = 500) {
  nlohmann::json h = nlohmann::json::array();
  const std::size_t n = s.history.size(), stride = std::max<std::size_t>(1, (n + max_points - 1) / max_points);
  for (std::size_t k = 0; k < n; k += stride) h.push_back({s.history[k].t, s.history[k].tau});
  if (n > 0 && (n - 1) % stride != 0) h.push_back({s.history.back().t, s.history.back().tau});
  return h;
}

void check_finite(MolStepper& s, const RunConfig& rc) {
  for (std::size_t f = 0; f < s.field_names().size(); ++f) {
    const int64_t at = s.first_nonfinite(int(f));
    if (at < 0) continue;
    throw NumericalError("the solution blew up by t = " + std::to_string(s.time()) + ": field '" + s.field_names()[f] +
                             "' is NaN or infinite at cell x=" + std::to_string(at % rc.spec.grid.nx) +
                             ", y=" + std::to_string(at / rc.spec.grid.nx) +
                             "; lower time.tol (Merson) or time.dt (rk4), or check the parameters",
                         s.step_stats().accepted);
  }
}

std::unique_ptr<MolStepper> make_mol_stepper(const RunConfig& rc) {
  if (rc.curvature) return make_curvature_stepper(*rc.curvature, rc.backend, rc.precision);
  std::unique_ptr<Stepper> s = make_ard_stepper(rc.spec, rc.backend, rc.precision);
  if (!dynamic_cast<MolStepper*>(s.get())) throw Error("internal: scheme '" + rc.scheme + "' built no method-of-lines stepper");
  return std::unique_ptr<MolStepper>(static_cast<MolStepper*>(s.release()));
}
}  // namespace

RunResult run_mol_simulation(const RunConfig& rc, const RunOptions& options) {
  const auto t_start = Clock::now();
  const MolTime& mt = *rc.mol;
  if (rc.output.every > 0)
    throw InputError(rc.file + ": key 'output.every': scheme '" + mt.scheme + "' runs write at simulated times: use output.times");
  const nlohmann::json stability = rc.curvature ? nlohmann::json() : check_stability(rc);
  auto stepper = make_mol_stepper(rc);
  RunResult res;
  res.field_names = stepper->field_names();
  nlohmann::json& sum = res.summary;
  const Grid2& g = rc.spec.grid;
  sum = {{"pdex_version", "0.1.0"}, {"config_file", rc.file}, {"config", rc.resolved}, {"config_input", rc.input},
         {"model", rc.model}, {"scheme", mt.scheme}, {"backend", backend_name(rc.backend)},
         {"device", device_name(rc.backend)}, {"precision", precision_name(rc.precision)},
         {"grid", {{"nx", g.nx}, {"ny", g.ny}, {"dx", g.dx}, {"dy", g.dy}}}};
  if (!stability.is_null()) sum["stability"] = stability;

  std::unique_ptr<OutputWriter> writer;
  if (options.write_outputs) writer = std::make_unique<OutputWriter>(rc);
  nlohmann::json outputs = nlohmann::json::array();
  auto output = [&] {
    if (writer) outputs.push_back({{"t", stepper->time()}, {"files", writer->write(*stepper, stepper->step_stats().accepted)}});
  };
  output();
  std::vector<double> stops = mt.output_times;
  if (stops.empty() || stops.back() < mt.t_end) stops.push_back(mt.t_end);
  Progress progress(1000, rc.progress && options.write_outputs);  // per mille of simulated time
  try {
    for (double stop : stops) {
      while (stepper->time() < stop) {  // in chunks of steps, to check and report as it goes
        const auto t0 = Clock::now();
        stepper->advance_to(stop, mt.check_every);
        res.step_seconds += std::chrono::duration<double>(Clock::now() - t0).count();
        check_finite(*stepper, rc);
        progress.update(int64_t(1000 * stepper->time() / mt.t_end));
      }
      output();
    }
    progress.finish(1000);
  } catch (const NumericalError& e) {
    sum["status"] = "failed";
    sum["error"] = e.what();
    sum["outputs"] = outputs;
    if (writer) write_summary(writer->dir(), sum);
    throw;
  }
  const StepStats& st = stepper->step_stats();
  for (std::size_t f = 0; f < res.field_names.size(); ++f) {
    res.stats.push_back(stepper->stats(int(f)));
    if (options.keep_final_values) res.final_values.push_back(stepper->values(int(f)));
  }
  res.steps = st.accepted;
  res.total_seconds = std::chrono::duration<double>(Clock::now() - t_start).count();
  sum["status"] = "ok";
  sum["steps"] = st.accepted;
  sum["rejected_steps"] = st.rejected;
  sum["simulated_time"] = stepper->time();
  sum["step_size"] = {{"min", st.tau_min}, {"max", st.tau_max}, {"history_t_tau", step_history(st)}};
  sum["wall_seconds"] = {{"stepping", res.step_seconds}, {"total", res.total_seconds}};
  sum["cell_updates_per_second"] = res.step_seconds > 0 ? double(g.cells()) * double(st.accepted) / res.step_seconds : 0.0;
  sum["fields"] = stats_json(res.field_names, res.stats);
  sum["outputs"] = outputs;
  if (writer) write_summary(writer->dir(), sum);
  return res;
}

}  // namespace pdex
