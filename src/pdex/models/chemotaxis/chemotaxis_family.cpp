// Chemotaxis (seed 002): chemotaxis-Stokes with its pressure solve, and Keller-Segel, by forward Euler
// (eq. 15), a step admitted by Theorem 2.
#include "pdex/config/time_config.hpp"
#include "pdex/core/format.hpp"
#include "pdex/grid/blocks.hpp"
#include "pdex/models/builtin_families.hpp"
#include "pdex/models/chemotaxis/chemotaxis_config.hpp"
#include "pdex/models/chemotaxis/chemotaxis_stability.hpp"
#include "pdex/models/chemotaxis/chemotaxis_stepper.hpp"

namespace pdex {

namespace {

class ChemotaxisSetup : public SpecSetup<ChemotaxisSpec> {
 public:
  // Seed 002's Theorem 2, printed before the run (docs/seeds.md says how a step is admitted).
  std::optional<StabilityRule> stability() const override {
    const Theorem2Bound t = chemotaxis_theorem2(spec);
    const std::string note = "Theorem 2: ||I + h_t G||_inf + h_t F_max = " + format_number(t.norm_linear) + " + " +
                             format_number(spec.dt) + " * " + format_number(t.f_max) + " = " + format_number(t.rho) +
                             "; largest admissible h_t = " + format_number(t.dt_max) + " (" + t.limit + ")";
    const nlohmann::json terms = {{"norm_I_plus_dt_G", t.norm_linear}, {"F_max", t.f_max}, {"rho", t.rho},
                                  {"dt_linear", t.dt_linear}, {"dt_nonlinear", t.dt_nonlinear}};
    return StabilityRule{{t.dt_max, "seed 002's Theorem 2: " + t.limit}, "forward-Euler", {{"theorem2", terms}}, note};
  }
  std::unique_ptr<Stepper> make_stepper(Backend backend, Precision precision) const override {
    return make_chemotaxis_stepper(spec, backend, precision);
  }
  nlohmann::json resolved() const override {
    nlohmann::json j = clock_json(clock);
    j.update(chemotaxis_json(spec), true);
    return j;
  }
  // The block's cells of every per-cell input, those given with a ghost ring (phi, a varying S) with the
  // block's ring; the pressure's and the elliptic c's solves by any method.
  std::unique_ptr<ModelSetup> block(const ProcessGrid& pg, const Block& b, HaloExchange& halo) const override {
    auto out = std::make_unique<ChemotaxisSetup>(*this);
    ChemotaxisSpec& s = out->spec;
    const Extents2 whole = spec.grid.extents();
    s.grid = out->grid = block_grid(spec.grid, b);
    s.bc = block_boundary(spec.bc, pg, b, spec.kind == ChemotaxisKind::stokes ? 4 : 2);
    const auto cut = [&](std::vector<double>& v) {
      if (!v.empty()) v = block_values(v, whole, b);
    };
    for (std::vector<double>* v : {&s.n0, &s.c0, &s.u10, &s.u20, &s.sources[0], &s.sources[1], &s.sources[2], &s.sources[3],
                                   &s.pressure_source})
      cut(*v);
    if (!s.phi.empty()) s.phi = block_ring_values(spec.phi, whole, b);
    for (ScalarSpec& e : s.s)
      if (e.varies()) e.cells = block_ring_values(with_ghost_ring(e.cells, whole), whole, b);
    s.halo = &halo;
    return out;
  }
};

std::unique_ptr<ModelSetup> read_chemotaxis_model(ModelContext& m) {
  ConfigReader& cfg = m.cfg;
  auto setup = std::make_unique<ChemotaxisSetup>();
  const std::string scheme = cfg.get_choice("time.scheme", {"euler", "theta", "rk4", "merson"}, "euler");
  if (scheme != "euler") cfg.fail("time.scheme", "chemotaxis models step by forward Euler (seed 002 eq. (15)): use \"euler\"");
  setup->clock = read_steps_clock(cfg, scheme);
  setup->spec = read_chemotaxis(cfg, m.grid, m.base_dir, m.precision);
  setup->spec.dt = setup->clock.dt;
  setup->grid = setup->spec.grid;
  setup->fields = m.model.fields;
  return setup;
}

}  // namespace

ModelFamily chemotaxis_family() {
  ModelFamily f{
      "chemotaxis",
      "chemotaxis on [0,1]^2 (Keller-Segel also on [0,1]^3) by forward Euler, steps admitted by Theorem 2 (seed 002; docs/models.md)",
      {{"chemotaxis_stokes", "chemotaxis-Stokes (seed 002, eq. 1)",
        "n_t = lap n - div(n S grad c) - u.grad n, c_t = lap c - n c - u.grad c, u_t = lap u + grad P + n grad phi, "
        "lap P = -div(n grad phi)",
        {"n", "c", "u1", "u2", "P"}, {}, {"euler"},
        {"Dirichlet sides: model.boundary.n, model.boundary.c (u = P = 0); model.S (xx, xy, yx, yy), model.phi",
         "the pressure by multigrid each step ([solver] applies); model.growth_warning = 10"},
        {"chemotaxis_seed002_fig1_32.toml", "chemotaxis_seed002_fig1_512.toml"}},
       {"keller_segel", "Keller-Segel",
        "n_t = lap n - chi div(n grad c), c_t = lap c + n - c (variant = parabolic) or 0 = lap c + n - c (elliptic)",
        {"n", "c"}, {{"chi", 1.0, "chemotactic sensitivity", "length^2/time", 0, 20, false}}, {"euler"},
        {"zero flux on every side; model.variant = parabolic | elliptic; model.growth_warning = 10; 3D grids (grid.nz > 1) too"},
        {"keller_segel_aggregation.toml"}}},
      read_chemotaxis_model};
  f.three_d = true;
  return f;
}

}  // namespace pdex
