#include "pdex/app/wave_config.hpp"

#include <algorithm>

#include "pdex/app/field_specs.hpp"
#include "pdex/app/solver_config.hpp"

namespace pdex {

namespace {

std::vector<double> cells(SpecContext& ctx, const std::string& path) {
  const ScalarSpec s = read_scalar(ctx, path, 0.0);
  return s.varies() ? s.cells : std::vector<double>(std::size_t(ctx.grid.cells()), s.value);
}

void read_drops(ConfigReader& cfg, WaveDrops& d) {
  d.every = cfg.get_int("model.drops.every", 0);
  if (d.every < 0) cfg.fail("model.drops.every", "expected a non-negative number of steps (0: no drops)");
  d.radius = cfg.get_double("model.drops.radius", 3.0);
  if (!(d.radius > 0)) cfg.fail("model.drops.radius", "expected a positive radius in cells");
  d.amplitude = cfg.get_double("model.drops.amplitude", 1.0);
  d.seed = unsigned(cfg.get_int("model.drops.seed", 1));
}

nlohmann::json range_json(const std::vector<double>& v) {
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  return {{"min", *lo}, {"max", *hi}};
}

}  // namespace

void read_wave_model(ConfigReader& cfg, RunConfig& rc, const std::string& base_dir) {
  WaveModelSpec m;
  rc.field_names = {"u"};
  m.grid = rc.spec.grid;
  m.bc = rc.spec.bc;
  m.c = cfg.get_double("model.params.c", 1.0);
  if (!(m.c > 0)) cfg.fail("model.params.c", "expected a positive wave speed");
  read_drops(cfg, m.drops);
  rc.scheme = cfg.get_choice("time.scheme", {"explicit", "crank_nicolson"}, "explicit");
  m.scheme = rc.scheme == "explicit" ? WaveScheme::explicit_central : WaveScheme::crank_nicolson;
  if (m.scheme == WaveScheme::crank_nicolson) {
    SolverSettings defaults;  // the seed's solver: conjugate gradients
    defaults.method = SolverMethod::cg;
    m.solver = read_solver(cfg, defaults);
  }
  read_time_steps(cfg, rc);
  m.dt = rc.spec.dt;
  SpecContext ctx{cfg, m.grid, base_dir};
  m.u0 = cells(ctx, "initial.u");
  m.v0 = cells(ctx, "initial.v");
  rc.wave = m;
}

nlohmann::json wave_json(const RunConfig& rc) {
  const WaveModelSpec& m = *rc.wave;
  nlohmann::json j;
  j["model"] = {{"name", "wave"},
                {"params", {{"c", m.c}}},
                {"drops", {{"every", m.drops.every}, {"radius", m.drops.radius}, {"amplitude", m.drops.amplitude},
                           {"seed", m.drops.seed}}}};
  j["solver"] = m.scheme == WaveScheme::crank_nicolson ? solver_json(m.solver) : nlohmann::json();
  j["initial"] = {{"u", range_json(m.u0)}, {"v", range_json(m.v0)}};
  return j;
}

}  // namespace pdex
