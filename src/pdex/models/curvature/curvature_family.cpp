// Curvature flows of graphs (seed 003): mean-curvature and Willmore flows of phi, by the method of lines
// (Merson or rk4), optionally forced by a manufactured solution.
#include "pdex/config/field_specs.hpp"
#include "pdex/config/grid_config.hpp"
#include "pdex/config/time_config.hpp"
#include "pdex/core/error.hpp"
#include "pdex/grid/blocks.hpp"
#include "pdex/models/builtin_families.hpp"
#include "pdex/models/curvature/curvature_stepper.hpp"
#include "pdex/models/curvature/seed_figures.hpp"

namespace pdex {

namespace {

const std::vector<std::string> fields{"phi"};

class CurvatureSetup : public SpecSetup<CurvatureSpec> {
 public:
  std::optional<StabilityRule> stability() const override { return std::nullopt; }  // Merson's step control
  std::unique_ptr<Stepper> make_stepper(Backend backend, Precision precision) const override {
    return make_curvature_stepper(spec, backend, precision);
  }
  nlohmann::json resolved() const override {
    nlohmann::json model = {{"name", spec.flow == Flow::willmore ? "willmore" : "mean_curvature"},
                            {"forcing", spec.manufactured ? "manufactured" : "none"}};
    if (spec.manufactured) model["amplitude"] = spec.amplitude;
    nlohmann::json j = clock_json(clock);
    j.update({{"model", model}, {"grid", {{"boundary", boundary_json(spec.bc, fields)}}}});
    return j;
  }
  // The block's cells of phi0; Merson's steps follow the largest error estimate over the ranks.
  std::unique_ptr<ModelSetup> block(const ProcessGrid& pg, const Block& b, HaloExchange& halo) const override {
    if (spec.manufactured)
      throw InputError("model.forcing = \"manufactured\" (the verification against the exact solution) runs with one process");
    auto out = std::make_unique<CurvatureSetup>(*this);
    CurvatureSpec& s = out->spec;
    s.grid = out->grid = block_grid(spec.grid, b);
    s.bc = block_boundary(spec.bc, pg, b, 1);
    s.phi0 = block_values(spec.phi0, spec.grid.extents(), b);
    s.halo = &halo;
    return out;
  }
};

// initial.phi: a number or table as for every field, or { preset = "radial_sine", k = 3 }:
// sin(k pi sqrt(x^2 + y^2)), seed 003 eq. 35 with k = 3.
std::vector<double> read_phi0(ConfigReader& cfg, const Grid2& g, const std::string& base_dir) {
  if (cfg.has("initial.phi.preset")) {
    cfg.get_choice("initial.phi.preset", {"radial_sine"});
    return radial_sine(g, cfg.get_double("initial.phi.k", 3.0));
  }
  SpecContext ctx{cfg, g, base_dir};
  return read_cells(ctx, "initial.phi");
}

std::unique_ptr<ModelSetup> read_curvature(ModelContext& m) {
  ConfigReader& cfg = m.cfg;
  auto setup = std::make_unique<CurvatureSetup>();
  CurvatureSpec& s = setup->spec;
  setup->clock = read_mol_time(cfg, 1e-6);
  s.flow = m.model.name == "willmore" ? Flow::willmore : Flow::mean_curvature;
  s.grid = m.grid;
  s.bc = read_boundary(cfg, fields);
  s.scheme = setup->clock.scheme;
  s.tol = setup->clock.tol;
  s.dt = setup->clock.dt;
  s.manufactured = cfg.get_choice("model.forcing", {"none", "manufactured"}, "none") == "manufactured";
  s.amplitude = cfg.get_double("model.amplitude", 1.0);
  if (s.manufactured) {
    if (cfg.has("initial.phi")) cfg.fail("initial.phi", "the manufactured solution sets the initial state: remove initial.phi");
    try {
      manufactured_solution(s);
    } catch (const InputError& e) {
      cfg.fail("grid.boundary", e.what());
    }
  } else {
    if (cfg.has("model.amplitude")) cfg.fail("model.amplitude", "only the manufactured forcing has an amplitude");
    s.phi0 = read_phi0(cfg, s.grid, m.base_dir);
  }
  setup->fields = fields;
  setup->grid = s.grid;
  return setup;
}

}  // namespace

ModelFamily curvature_family() {
  const std::vector<std::string> notes{
      "model.forcing = none | manufactured (model.amplitude = 1; docs/curvature.md)",
      "initial.phi: values, or { preset = \"radial_sine\", k = 3 } (seed 003 eq. 35)",
      "by simulated time only: time.t_end, time.tol (Merson), output.times"};
  return ModelFamily{
      "curvature",
      "curvature flows of graphs (seed 003; docs/curvature.md)",
      {{"mean_curvature", "mean-curvature flow of a graph (seed 003)", "phi_t = Q div(grad phi / Q) + F, Q = sqrt(1 + |grad phi|^2)",
        fields, {}, {"merson", "rk4"}, notes, {"curvature_mcf_figure1.toml"}},
       {"willmore", "Willmore flow of a graph (seed 003)",
        "phi_t = -Q div((1/Q)(I - grad phi grad phi^T / Q^2) grad w - w^2/(2Q^3) grad phi) + F, w = Q div(grad phi / Q)",
        fields, {}, {"merson", "rk4"}, notes, {"curvature_willmore_figure2.toml"}}},
      read_curvature};
}

}  // namespace pdex
