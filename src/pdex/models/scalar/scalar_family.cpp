// One field u with diffusion: heat (u_t = D lap u + f, forward Euler or theta), and the steady problems
// Poisson (-D lap u = f) and Laplace (lap u = 0), one linear solve a step (seed 004).
#include <algorithm>
#include <limits>

#include "pdex/config/field_specs.hpp"
#include "pdex/config/grid_config.hpp"
#include "pdex/config/solver_config.hpp"
#include "pdex/config/time_config.hpp"
#include "pdex/core/format.hpp"
#include "pdex/grid/blocks.hpp"
#include "pdex/models/builtin_families.hpp"
#include "pdex/models/scalar/scalar_stepper.hpp"

namespace pdex {

namespace {

const std::vector<std::string> fields{"u"};

// The heat equation's explicit share of diffusion: (1 - 2 theta) D lap, stable for dt <= 1 / (2 D (1/dx^2 +
// 1/dy^2 (+ 1/dz^2 in 3D))).
StableStep scalar_stable_step(const ScalarModelSpec& m) {
  const double share = std::max(0.0, 1 - 2 * m.theta);
  const Grid2& g = m.grid;
  const double rate = 2 * m.D * share * (1 / (g.dx * g.dx) + 1 / (g.dy * g.dy) + (g.is_3d() ? 1 / (g.dz * g.dz) : 0.0));
  if (m.steady || rate == 0) return {std::numeric_limits<double>::infinity(), "none (implicit or steady)"};
  return {1 / rate, "diffusion number (D = " + format_number(m.D) + ")"};
}

class ScalarSetup : public SpecSetup<ScalarModelSpec> {
 public:
  std::string name;
  std::optional<StabilityRule> stability() const override {
    return StabilityRule{scalar_stable_step(spec), "forward-Euler", {}, {}};
  }
  std::unique_ptr<Stepper> make_stepper(Backend backend, Precision precision) const override {
    return make_scalar_stepper(spec, backend, precision);
  }
  nlohmann::json resolved() const override {
    const ScalarModelSpec& m = spec;
    nlohmann::json model = {{"name", name}};
    if (name != "laplace") model["params"] = {{"D", m.D}, {"f", spec_json(ScalarSpec{0.0, m.source})}};
    nlohmann::json j = clock_json(clock);
    j["time"]["theta"] = m.theta;
    j.update({{"model", model},
              {"grid", {{"boundary", boundary_json(m.bc, fields, {}, m.grid.is_3d())}}},
              {"solver", m.steady || m.theta > 0 ? solver_json(m.solver) : nlohmann::json()},
              {"initial", {{"u", source_json(m.u0, m.grid.cells())}}}});
    return j;
  }
  // The block's cells of u0 and f; the theta scheme's and the steady problems' solves by any method
  // (LinearSolver's halo).
  std::unique_ptr<ModelSetup> block(const ProcessGrid& pg, const Block& b, HaloExchange& halo) const override {
    auto out = std::make_unique<ScalarSetup>(*this);
    ScalarModelSpec& s = out->spec;
    const Extents2 whole = spec.grid.extents();
    s.grid = out->grid = block_grid(spec.grid, b);
    s.bc = block_boundary(spec.bc, pg, b, 1);
    s.u0 = spec.u0.block(whole, b);
    if (!s.source.empty()) s.source = block_values(spec.source, whole, b);
    s.halo = &halo;
    return out;
  }
};

// model.params: D and f (none for laplace).
void read_params(ConfigReader& cfg, const ModelDesc& model, SpecContext& ctx, ScalarModelSpec& m) {
  if (const toml::node* p = cfg.find("model.params"); p && p->is_table())
    for (const auto& [k, v] : *p->as_table())  // key = k: clang before 16 cannot capture a structured binding
      if (std::none_of(model.params.begin(), model.params.end(), [key = k.str()](const ParamDesc& d) { return d.name == key; }))
        cfg.fail("model.params." + std::string(k.str()), "model '" + model.name + "' has no such parameter" +
                                                             (model.params.empty() ? std::string("; it has none") : "; it has D and f"));
  if (model.params.empty()) return;
  m.D = cfg.get_double("model.params.D", 1.0);
  if (!(m.D > 0)) cfg.fail("model.params.D", "expected a positive diffusivity");
  const ScalarSpec f = read_scalar(ctx, "model.params.f", 0.0);
  if (f.varies() || f.value != 0) m.source = f.per_cell(std::size_t(m.grid.cells()));
}

// Steady problems: time.steps solves (default 1); heat: time.scheme = "euler" | "theta" with [solver].
RunClock read_clock(ConfigReader& cfg, const std::string& name, ScalarModelSpec& m) {
  if (m.steady) {
    RunClock c;
    c.scheme = "solve";
    c.dt = 1.0;
    c.steps = cfg.get_int("time.steps", 1);
    if (c.steps < 1) cfg.fail("time.steps", "expected a positive number of solves");
    c.check_every = 1;
    m.solver = read_solver(cfg, SolverSettings{});
    return c;
  }
  const std::string scheme = cfg.get_choice("time.scheme", {"euler", "theta", "rk4", "merson"}, "euler");
  if (scheme != "euler" && scheme != "theta")
    cfg.fail("time.scheme", "'" + scheme + "' is not available for model '" + name + "'; use \"euler\" or \"theta\"");
  ThetaScheme t;
  RunClock c = read_euler_or_theta(cfg, scheme, t);
  m.theta = t.theta;
  if (t.theta > 0) m.solver = t.solver;
  m.dt = c.dt;
  return c;
}

std::unique_ptr<ModelSetup> read_scalar_model(ModelContext& ctx_in) {
  ConfigReader& cfg = ctx_in.cfg;
  auto setup = std::make_unique<ScalarSetup>();
  setup->name = ctx_in.model.name;
  ScalarModelSpec& m = setup->spec;
  m.steady = setup->name != "heat";
  m.grid = ctx_in.grid;
  m.bc = read_boundary(cfg, fields);
  SpecContext ctx{cfg, m.grid, ctx_in.base_dir};
  read_params(cfg, ctx_in.model, ctx, m);
  m.u0 = read_source(ctx, "initial.u", 0.0);
  setup->clock = read_clock(cfg, setup->name, m);
  setup->fields = fields;
  setup->grid = m.grid;
  return setup;
}

const std::vector<ParamDesc> heat_params{
    {"D", 1.0, "diffusivity", "length^2/time", 0, 4, false},
    {"f", 0.0, "source (may vary per cell)", "1/time", -1, 1, true}};

}  // namespace

ModelFamily scalar_family() {
  const std::string boundary = "grid.boundary sets u's conditions; initial.u is the initial state (heat) or the first guess";
  ModelFamily f{
      "scalar",
      "one field u with diffusion: heat, and the steady Poisson and Laplace problems (seed 004)",
      {{"heat", "heat equation", "u_t = D lap u + f", fields, heat_params, {"euler", "theta"}, {boundary}, {"heat_disc.toml"}},
       {"poisson", "Poisson problem, steady", "-D lap u = f", fields, heat_params, {"solve"},
        {boundary, "one linear solve a step ([solver] applies); time.steps solves (default 1)"}, {"poisson_torsion.toml", "poisson_cube.toml"}},
       {"laplace", "Laplace problem, steady heat (seed 004)", "lap u = 0", fields, {}, {"solve"},
        {boundary, "one linear solve a step ([solver] applies); time.steps solves (default 1)"},
        {"heat_seed004_exp1.toml", "heat_seed004_exp2.toml"}}},
      read_scalar_model};
  f.three_d = true;
  return f;
}

}  // namespace pdex
