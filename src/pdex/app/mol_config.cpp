#include "pdex/app/mol_config.hpp"

#include <algorithm>
#include <cmath>

namespace pdex {

bool is_mol_scheme(ConfigReader& cfg) {
  const toml::node* n = cfg.find("time.scheme");
  const auto name = n ? n->value<std::string>() : std::nullopt;
  return name && (*name == "merson" || *name == "rk4");
}

namespace {
void read_output_times(ConfigReader& cfg, MolTime& m) {
  const toml::node* n = cfg.find("output.times");
  if (!n) return;
  const toml::array* a = n->as_array();
  if (!a) cfg.fail("output.times", "expected an array of simulated times, e.g. [0.025, 0.1]");
  m.output_times = cfg.get_doubles("output.times", a->size());
  for (double t : m.output_times)
    if (!(t > 0 && t <= m.t_end)) cfg.fail("output.times", "every time must lie in (0, time.t_end]");
  std::sort(m.output_times.begin(), m.output_times.end());
}
}  // namespace

MolTime read_mol_time(ConfigReader& cfg, double default_dt) {
  MolTime m;
  m.scheme = cfg.get_choice("time.scheme", {"merson", "rk4"}, "merson");
  if (cfg.has("time.steps")) cfg.fail("time.steps", "scheme '" + m.scheme + "' runs to a time: give time.t_end");
  m.t_end = cfg.get_double("time.t_end");
  if (!(m.t_end > 0) || !std::isfinite(m.t_end)) cfg.fail("time.t_end", "expected a positive end time");
  m.tol = cfg.get_double("time.tol", 1e-6);
  if (!(m.tol > 0)) cfg.fail("time.tol", "expected a positive tolerance (Merson's epsilon)");
  if (m.scheme == "rk4" && !cfg.has("time.dt")) cfg.fail("time.dt", "rk4 takes fixed steps: give time.dt");
  if (cfg.has("time.dt") || default_dt > 0) {
    m.dt = cfg.get_double("time.dt", default_dt);
    if (!(m.dt > 0) || !std::isfinite(m.dt)) cfg.fail("time.dt", "expected a positive time step");
  }
  m.check_every = cfg.get_int("time.check_every", 100);
  if (m.check_every <= 0) cfg.fail("time.check_every", "expected a positive number of steps");
  read_output_times(cfg, m);
  return m;
}

nlohmann::json mol_time_json(const MolTime& m) {
  return {{"time", {{"scheme", m.scheme}, {"t_end", m.t_end}, {"tol", m.tol}, {"dt", m.dt}, {"check_every", m.check_every}}},
          {"output_times", m.output_times}};
}

}  // namespace pdex
