#include "pdex/config/time_config.hpp"

#include <algorithm>
#include <cmath>

#include "pdex/config/solver_config.hpp"

namespace pdex {

bool is_mol_scheme(ConfigReader& cfg) {
  const toml::node* n = cfg.find("time.scheme");
  const auto name = n ? n->value<std::string>() : std::nullopt;
  return name && (*name == "merson" || *name == "rk4");
}

RunClock read_steps_clock(ConfigReader& cfg, const std::string& scheme) {
  RunClock c;
  c.scheme = scheme;
  c.dt = cfg.get_double("time.dt");
  if (!(c.dt > 0) || !std::isfinite(c.dt)) cfg.fail("time.dt", "expected a positive time step");
  const bool has_steps = cfg.has("time.steps"), has_end = cfg.has("time.t_end");
  if (has_steps == has_end)
    cfg.fail("time", "give exactly one of 'steps' and 't_end'" + (has_steps ? "" : cfg.misspelling_note({"time.steps", "time.t_end"})));
  if (has_steps) {
    c.steps = cfg.get_int("time.steps");
    if (c.steps < 0) cfg.fail("time.steps", "expected a non-negative number of steps");
  } else {
    const double t_end = cfg.get_double("time.t_end");
    if (!(t_end >= 0)) cfg.fail("time.t_end", "expected a non-negative end time");
    c.steps = int64_t(std::llround(t_end / c.dt));
    if (std::abs(double(c.steps) * c.dt - t_end) > 1e-9 * std::max(1.0, t_end))
      cfg.fail("time.t_end", "is not a whole number of steps of dt = " + std::to_string(c.dt));
  }
  c.force = cfg.get_bool("time.force", false);
  c.check_every = cfg.get_int("time.check_every", 100);
  if (c.check_every <= 0) cfg.fail("time.check_every", "expected a positive number of steps");
  return c;
}

ThetaScheme read_theta_scheme(ConfigReader& cfg) {
  ThetaScheme t;
  t.theta = cfg.get_double("time.theta", 0.5);
  if (!(t.theta > 0 && t.theta <= 1))
    cfg.fail("time.theta", "expected 0 < theta <= 1 (0.5 Crank-Nicolson, 1 backward Euler; theta = 0 is scheme \"euler\")");
  SolverSettings defaults;
  defaults.tol = 1e-5;
  t.solver = read_solver(cfg, defaults);
  return t;
}

RunClock read_euler_or_theta(ConfigReader& cfg, const std::string& scheme, ThetaScheme& theta) {
  theta = scheme == "theta" ? read_theta_scheme(cfg) : ThetaScheme{0.0, SolverSettings{}};
  return read_steps_clock(cfg, scheme);
}

RunClock read_scheme_clock(ConfigReader& cfg, ThetaScheme& theta, const std::function<double()>& first_step) {
  if (!is_mol_scheme(cfg)) {
    const std::string scheme = cfg.get_choice("time.scheme", {"euler", "theta", "rk4", "merson"}, "euler");
    return read_euler_or_theta(cfg, scheme, theta);
  }
  theta = ThetaScheme{0.0, SolverSettings{}};
  RunClock c = read_mol_time(cfg, 0.0);
  if (c.dt == 0) {
    const double euler = first_step();
    c.dt = euler > 0 && std::isfinite(euler) ? euler : 1e-3;
  }
  c.force = cfg.get_bool("time.force", false);
  return c;
}

namespace {
void read_output_times(ConfigReader& cfg, RunClock& c) {
  const toml::node* n = cfg.find("output.times");
  if (!n) return;
  const toml::array* a = n->as_array();
  if (!a) cfg.fail("output.times", "expected an array of simulated times, e.g. [0.025, 0.1]");
  c.output_times = cfg.get_doubles("output.times", a->size());
  for (double t : c.output_times)
    if (!(t > 0 && t <= c.t_end)) cfg.fail("output.times", "every time must lie in (0, time.t_end]");
  std::sort(c.output_times.begin(), c.output_times.end());
}
}  // namespace

RunClock read_mol_time(ConfigReader& cfg, double default_dt) {
  RunClock c;
  c.simulated_time = true;
  c.scheme = cfg.get_choice("time.scheme", {"merson", "rk4"}, "merson");
  if (cfg.has("time.steps")) cfg.fail("time.steps", "scheme '" + c.scheme + "' runs to a time: give time.t_end");
  c.t_end = cfg.get_double("time.t_end");
  if (!(c.t_end > 0) || !std::isfinite(c.t_end)) cfg.fail("time.t_end", "expected a positive end time");
  c.tol = cfg.get_double("time.tol", 1e-6);
  if (!(c.tol > 0)) cfg.fail("time.tol", "expected a positive tolerance (Merson's epsilon)");
  if (c.scheme == "rk4" && !cfg.has("time.dt")) cfg.fail("time.dt", "rk4 takes fixed steps: give time.dt");
  if (cfg.has("time.dt") || default_dt > 0) {
    c.dt = cfg.get_double("time.dt", default_dt);
    if (!(c.dt > 0) || !std::isfinite(c.dt)) cfg.fail("time.dt", "expected a positive time step");
  }
  c.check_every = cfg.get_int("time.check_every", 100);
  if (c.check_every <= 0) cfg.fail("time.check_every", "expected a positive number of steps");
  read_output_times(cfg, c);
  return c;
}

nlohmann::json clock_json(const RunClock& c) {
  if (c.simulated_time)
    return {{"time", {{"scheme", c.scheme}, {"t_end", c.t_end}, {"tol", c.tol}, {"dt", c.dt}, {"check_every", c.check_every}}},
            {"output_times", c.output_times}};
  return {{"time", {{"scheme", c.scheme}, {"dt", c.dt}, {"steps", c.steps}, {"force", c.force}, {"check_every", c.check_every}}}};
}

int read_steps_per_pass(ConfigReader& cfg, bool temporal_blocking, const std::string& scheme) {
  constexpr int most = 16;
  if (!cfg.has("run.steps_per_pass")) return 0;
  const int64_t k = cfg.get_int("run.steps_per_pass");
  if (k < 1 || k > most)
    cfg.fail("run.steps_per_pass", "expected 1 to " + std::to_string(most) + " (forward Euler's steps a pass over memory), found " + std::to_string(k));
  if (k > 1 && !temporal_blocking)
    cfg.fail("run.steps_per_pass", "asks for several steps a pass, and run.temporal_blocking = false for one: set one of them");
  if (k > 1 && scheme != "euler")
    cfg.fail("run.steps_per_pass", "several steps a pass are forward Euler's (time.scheme = \"euler\"); this run's scheme is \"" + scheme + "\"");
  return int(k);
}

}  // namespace pdex
