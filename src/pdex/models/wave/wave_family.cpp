// The wave equation u_tt = c^2 lap u (seed 001): explicit central differences or Crank-Nicolson by CG,
// with drops falling into the pool.
#include <limits>

#include "pdex/config/field_specs.hpp"
#include "pdex/config/grid_config.hpp"
#include "pdex/config/solver_config.hpp"
#include "pdex/config/time_config.hpp"
#include "pdex/core/format.hpp"
#include "pdex/grid/blocks.hpp"
#include "pdex/models/builtin_families.hpp"
#include "pdex/models/wave/wave_stepper.hpp"

namespace pdex {

namespace {

const std::vector<std::string> fields{"u"};

class WaveSetup : public SpecSetup<WaveModelSpec> {
 public:
  // The explicit scheme's CFL limit (seed 001 eq. 44-5); Crank-Nicolson has none.
  std::optional<StabilityRule> stability() const override {
    if (spec.scheme == WaveScheme::crank_nicolson) return std::nullopt;
    const std::string sum = spec.grid.is_3d() ? "1/dx^2 + 1/dy^2 + 1/dz^2" : "1/dx^2 + 1/dy^2";
    return StabilityRule{{wave_max_dt(spec), "CFL limit c dt sqrt(" + sum + ") <= 1 (c = " + format_number(spec.c) + ")"},
                         "explicit", {}, {}};
  }
  std::unique_ptr<Stepper> make_stepper(Backend backend, Precision precision) const override {
    return make_wave_stepper(spec, backend, precision);
  }
  nlohmann::json resolved() const override {
    const WaveModelSpec& m = spec;
    nlohmann::json j = clock_json(clock);
    j.update({{"model", {{"name", "wave"},
                         {"params", {{"c", m.c}}},
                         {"drops", {{"every", m.drops.every}, {"radius", m.drops.radius}, {"amplitude", m.drops.amplitude},
                                    {"seed", m.drops.seed}}}}},
              {"grid", {{"boundary", boundary_json(m.bc, fields)}}},
              {"solver", m.scheme == WaveScheme::crank_nicolson ? solver_json(m.solver) : nlohmann::json()},
              {"initial", {{"u", source_json(m.u0, m.grid.cells())}, {"v", source_json(m.v0, m.grid.cells())}}}});
    return j;
  }
  // The block's cells of u0 and v0; drops fall on the whole grid. Crank-Nicolson solves by any
  // method (LinearSolver's halo).
  std::unique_ptr<ModelSetup> block(const ProcessGrid& pg, const Block& b, HaloExchange& halo) const override {
    auto out = std::make_unique<WaveSetup>(*this);
    WaveModelSpec& s = out->spec;
    const Extents2 whole = spec.grid.extents();
    s.grid = out->grid = block_grid(spec.grid, b);
    s.bc = block_boundary(spec.bc, pg, b, 1);
    s.u0 = spec.u0.block(whole, b);
    s.v0 = spec.v0.block(whole, b);
    s.halo = &halo;
    s.whole = whole;
    s.first = b.first;
    return out;
  }
};

void read_drops(ConfigReader& cfg, WaveDrops& d) {
  d.every = cfg.get_int("model.drops.every", 0);
  if (d.every < 0) cfg.fail("model.drops.every", "expected a non-negative number of steps (0: no drops)");
  d.radius = cfg.get_double("model.drops.radius", 3.0);
  if (!(d.radius > 0)) cfg.fail("model.drops.radius", "expected a positive radius in cells");
  d.amplitude = cfg.get_double("model.drops.amplitude", 1.0);
  d.seed = unsigned(cfg.get_int("model.drops.seed", 1));
}

std::unique_ptr<ModelSetup> read_wave(ModelContext& ctx_in) {
  ConfigReader& cfg = ctx_in.cfg;
  auto setup = std::make_unique<WaveSetup>();
  WaveModelSpec& m = setup->spec;
  m.grid = ctx_in.grid;
  m.bc = read_boundary(cfg, fields);
  m.c = cfg.get_double("model.params.c", 1.0);
  if (!(m.c > 0)) cfg.fail("model.params.c", "expected a positive wave speed");
  read_drops(cfg, m.drops);
  const std::string scheme = cfg.get_choice("time.scheme", {"explicit", "crank_nicolson"}, "explicit");
  m.scheme = scheme == "explicit" ? WaveScheme::explicit_central : WaveScheme::crank_nicolson;
  if (m.scheme == WaveScheme::crank_nicolson) {
    SolverSettings defaults;  // the seed's solver: conjugate gradients
    defaults.method = SolverMethod::cg;
    m.solver = read_solver(cfg, defaults);
  }
  setup->clock = read_steps_clock(cfg, scheme);
  m.dt = setup->clock.dt;
  SpecContext ctx{cfg, m.grid, ctx_in.base_dir};
  m.u0 = read_source(ctx, "initial.u", 0.0);
  m.v0 = read_source(ctx, "initial.v", 0.0);
  setup->fields = fields;
  setup->grid = m.grid;
  return setup;
}

}  // namespace

ModelFamily wave_family() {
  ModelFamily f{
      "wave",
      "the wave equation of a membrane or a pool's surface (seed 001)",
      {{"wave", "wave equation (seed 001, eq. 44-3)", "u_tt = c^2 lap u", fields,
        {{"c", 1.0, "wave speed", "length/time", 0, 4, false}}, {"explicit", "crank_nicolson"},
        {"time.scheme = explicit (central, CFL limit) | crank_nicolson (CG, [solver] applies)",
         "model.drops: every (steps), radius (cells), amplitude, seed: Gaussian drops at random cells",
         "initial.u is the displacement, initial.v the velocity (default 0)"},
        {"wave_drops.toml"}}},
      read_wave};
  f.three_d = true;
  return f;
}

}  // namespace pdex
