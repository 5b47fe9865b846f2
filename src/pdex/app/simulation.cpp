#include "pdex/app/simulation.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <memory>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "pdex/app/mol_simulation.hpp"
#include "pdex/app/output_writer.hpp"
#include "pdex/app/progress.hpp"
#include "pdex/core/error.hpp"
#include "pdex/models/ard/ard_stability.hpp"
#include "pdex/models/ard/ard_stepper.hpp"
#include "pdex/models/chemotaxis/chemotaxis_stability.hpp"
#include "pdex/models/chemotaxis/chemotaxis_stepper.hpp"
#include "pdex/models/scalar/scalar_stepper.hpp"
#include "pdex/models/wave/wave_stepper.hpp"

namespace pdex {

namespace {
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::string fmt(double x) {
  std::ostringstream s;
  s.precision(6);
  s << x;
  return s.str();
}

// After a chunk that ended with a NaN/Inf: go back to its start and step one at a time to name the step.
[[noreturn]] void locate_blow_up(Stepper& s, const RunConfig& rc, int64_t chunk_start, int64_t chunk_len) {
  s.restore();
  const auto& names = s.field_names();
  for (int64_t k = 1; k <= chunk_len; ++k) {
    s.advance(1);
    for (std::size_t f = 0; f < names.size(); ++f) {
      const int64_t at = s.first_nonfinite(int(f));
      if (at < 0) continue;
      const int64_t step = chunk_start + k;
      throw NumericalError("the solution blew up at step " + std::to_string(step) + " (t = " +
                           fmt(double(step) * rc.spec.dt) + "): field '" + names[f] + "' is NaN or infinite at cell x=" +
                           std::to_string(at % rc.spec.grid.nx) + ", y=" + std::to_string(at / rc.spec.grid.nx) +
                           ". Reduce time.dt (now " + fmt(rc.spec.dt) +
                           "), or check the parameters and initial state; outputs written so far are kept in " +
                           rc.output.dir, step - 1);
    }
  }
  throw NumericalError("the solution became non-finite between steps " + std::to_string(chunk_start) + " and " +
                       std::to_string(chunk_start + chunk_len) + " but did not again when repeated step by step; "
                       "this points to a backend fault: please report it");
}

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
         "precision (largest relative residual so far " + fmt(t->max_residual) + "): their solutions are as accurate "
         "as this precision allows; use precision f64 to reach solver.tol, or raise solver.tol to silence this";
}

bool any_nonfinite(Stepper& s) {
  for (std::size_t f = 0; f < s.field_names().size(); ++f)
    if (s.first_nonfinite(int(f)) >= 0) return true;
  return false;
}

// The heat equation's explicit share of diffusion: (1 - 2 theta) D lap, stable for dt <= 1 / (2 D (1/dx^2 + 1/dy^2)).
StableStep scalar_stable_step(const ScalarModelSpec& m) {
  const double share = std::max(0.0, 1 - 2 * m.theta);
  const double rate = 2 * m.D * share * (1 / (m.grid.dx * m.grid.dx) + 1 / (m.grid.dy * m.grid.dy));
  if (m.steady || rate == 0) return {std::numeric_limits<double>::infinity(), "none (implicit or steady)"};
  return {1 / rate, "diffusion number (D = " + fmt(m.D) + ")"};
}

// The explicit wave scheme's CFL limit (seed 001 eq. 44-5); Crank-Nicolson has none.
StableStep wave_stable_step(const WaveModelSpec& m) {
  if (m.scheme == WaveScheme::crank_nicolson) return {std::numeric_limits<double>::infinity(), "none (implicit)"};
  return {wave_max_dt(m), "CFL limit c dt sqrt(1/dx^2 + 1/dy^2) <= 1 (c = " + fmt(m.c) + ")"};
}

std::unique_ptr<Stepper> make_stepper(const RunConfig& rc) {
  if (rc.wave) return make_wave_stepper(*rc.wave, rc.backend, rc.precision);
  if (rc.scalar) return make_scalar_stepper(rc.scalar_spec, rc.backend, rc.precision);
  if (rc.chemotaxis) return make_chemotaxis_stepper(*rc.chemotaxis, rc.backend, rc.precision);
  return make_ard_stepper(rc.spec, rc.backend, rc.precision);
}

// Classic RK4 is stable on the negative real axis to 2.785 / dt, forward Euler to 2 / dt; Merson's
// error control finds its own steps.
StableStep mol_stable_step(const RunConfig& rc) {
  if (rc.mol->scheme == "merson") return {std::numeric_limits<double>::infinity(), "none (Merson step control)"};
  const StableStep euler = ard_stable_step(rc.spec);
  return {euler.dt_max * (2.785 / 2), euler.reason + ", times 1.39 for rk4"};
}

// Seed 002's Theorem 2, printed before the run (docs/seeds.md says how a step is admitted).
nlohmann::json check_theorem2(const RunConfig& rc) {
  const Theorem2Bound t = chemotaxis_theorem2(*rc.chemotaxis);
  std::fprintf(stderr, "pdex: Theorem 2: ||I + h_t G||_inf + h_t F_max = %s + %s * %s = %s; largest admissible h_t = %s (%s)\n",
               fmt(t.norm_linear).c_str(), fmt(rc.spec.dt).c_str(), fmt(t.f_max).c_str(), fmt(t.rho).c_str(),
               fmt(t.dt_max).c_str(), t.limit.c_str());
  if (rc.spec.dt > t.dt_max && !rc.force)
    throw InputError(rc.file + ": key 'time.dt': h_t = " + fmt(rc.spec.dt) + " violates the stability bound of seed 002's Theorem 2 (" +
                     t.limit + "); use time.dt <= " + fmt(t.dt_max) + ", or set time.force = true to run anyway");
  return {{"dt", rc.spec.dt}, {"dt_max", t.dt_max}, {"limit", t.limit}, {"forced", rc.force},
          {"theorem2", {{"norm_I_plus_dt_G", t.norm_linear}, {"F_max", t.f_max}, {"rho", t.rho},
                        {"dt_linear", t.dt_linear}, {"dt_nonlinear", t.dt_nonlinear}}}};
}
}  // namespace

nlohmann::json stats_json(const std::vector<std::string>& names, const std::vector<FieldStats>& stats) {
  nlohmann::json j;
  for (std::size_t f = 0; f < names.size(); ++f)
    j[names[f]] = {{"min", stats[f].min}, {"max", stats[f].max}, {"mean", stats[f].mean}};
  return j;
}

void write_summary(const std::string& dir, const nlohmann::json& summary) {
  std::ofstream out(dir + "/summary.json");
  out << summary.dump(2) << "\n";
  if (!out) throw Error("cannot write " + dir + "/summary.json");
}

nlohmann::json check_stability(const RunConfig& rc) {
  if (rc.chemotaxis) return check_theorem2(rc);
  const StableStep st = rc.wave     ? wave_stable_step(*rc.wave)
                        : rc.scalar ? scalar_stable_step(rc.scalar_spec)
                        : rc.mol    ? mol_stable_step(rc)
                                    : ard_stable_step(rc.spec);
  nlohmann::json j = {{"dt", rc.spec.dt}, {"dt_max", st.dt_max}, {"limit", st.reason}, {"forced", rc.force}};
  if (rc.spec.dt > st.dt_max && !rc.force) {
    std::string advice = st.dt_max > 0 ? "use time.dt <= " + fmt(st.dt_max) : st.reason;
    throw InputError(rc.file + ": key 'time.dt': dt = " + fmt(rc.spec.dt) + " exceeds the largest stable " +
                     std::string(rc.wave ? "explicit" : rc.mol ? "rk4" : "forward-Euler") + " step " +
                     fmt(st.dt_max) + " (" + st.reason + "); " + advice +
                     ", or set time.force = true to run anyway");
  }
  return j;
}

RunResult run_simulation(const RunConfig& rc, const RunOptions& options) {
  if (rc.mol) return run_mol_simulation(rc, options);
  const auto t_start = Clock::now();
  nlohmann::json stability = check_stability(rc);
  auto stepper = make_stepper(rc);
  RunResult res;
  res.field_names = stepper->field_names();
  nlohmann::json& sum = res.summary;
  sum = {{"pdex_version", "0.1.0"}, {"config_file", rc.file}, {"config", rc.resolved}, {"config_input", rc.input}, {"model", rc.model},
         {"scheme", rc.scheme}, {"backend", backend_name(rc.backend)}, {"device", device_name(rc.backend)},
         {"precision", precision_name(rc.precision)}, {"grid", {{"nx", rc.spec.grid.nx}, {"ny", rc.spec.grid.ny},
         {"dx", rc.spec.grid.dx}, {"dy", rc.spec.grid.dy}}}, {"dt", rc.spec.dt}, {"stability", stability}};

  std::unique_ptr<OutputWriter> writer;
  if (options.write_outputs) writer = std::make_unique<OutputWriter>(rc);
  std::vector<std::string> files;
  auto output = [&](int64_t step) {
    if (!writer) return;
    auto w = writer->write(*stepper, step);
    files.insert(files.end(), w.begin(), w.end());
  };
  output(0);

  Progress progress(rc.steps, rc.progress && options.write_outputs);
  int64_t step = 0;
  std::vector<std::string> warnings;
  bool floor_said = false;
  try {
    while (step < rc.steps) {
      int64_t stop = std::min(rc.steps, step + rc.check_every);
      if (rc.output.every > 0) stop = std::min(stop, (step / rc.output.every + 1) * rc.output.every);
      stepper->save();
      const auto t0 = Clock::now();
      stepper->advance(stop - step);
      res.step_seconds += seconds_since(t0);
      if (any_nonfinite(*stepper)) locate_blow_up(*stepper, rc, step, stop - step);
      for (const std::string& w : {stepper->warning(), floor_warning(stepper->solver_totals(), floor_said)}) {
        if (w.empty()) continue;
        std::fprintf(stderr, "\npdex: warning at step %lld: %s\n", static_cast<long long>(stop), w.c_str());
        warnings.push_back(w);
      }
      step = stop;
      progress.update(step);
      if (rc.output.every > 0 && step % rc.output.every == 0 && step < rc.steps) output(step);
    }
    progress.finish(step);
    output(rc.steps);
  } catch (const NumericalError& e) {
    progress.finish(step);
    sum["status"] = "failed";
    sum["error"] = e.what();
    sum["steps_completed"] = e.last_good_step >= 0 ? e.last_good_step : step;
    sum["outputs"] = files;
    sum["warnings"] = warnings;
    if (writer) write_summary(writer->dir(), sum);
    throw;
  }

  for (std::size_t f = 0; f < res.field_names.size(); ++f) {
    res.stats.push_back(stepper->stats(int(f)));
    if (options.keep_final_values) res.final_values.push_back(stepper->values(int(f)));
  }
  res.steps = rc.steps;
  res.total_seconds = seconds_since(t_start);
  const double cells = double(rc.spec.grid.cells());
  sum["status"] = "ok";
  sum["steps"] = rc.steps;
  sum["simulated_time"] = double(rc.steps) * rc.spec.dt;
  sum["wall_seconds"] = {{"stepping", res.step_seconds}, {"total", res.total_seconds}};
  sum["cell_updates_per_second"] = res.step_seconds > 0 ? cells * double(rc.steps) / res.step_seconds : 0.0;
  sum["fields"] = stats_json(res.field_names, res.stats);
  if (const SolverTotals* t = stepper->solver_totals()) sum["solver"] = solver_totals_json(*t);
  sum["outputs"] = files;
  sum["warnings"] = warnings;
  if (writer) write_summary(writer->dir(), sum);
  return res;
}

}  // namespace pdex
