#include "pdex/app/curvature_config.hpp"

#include "pdex/app/field_specs.hpp"
#include "pdex/core/error.hpp"
#include "pdex/models/curvature/seed_figures.hpp"

namespace pdex {

bool is_curvature_model(ConfigReader& cfg) {
  const toml::node* n = cfg.find("model.name");
  const auto name = n ? n->value<std::string>() : std::nullopt;
  return name && (*name == "mean_curvature" || *name == "willmore");
}

namespace {

// initial.phi: a number or table as for every field, or { preset = "radial_sine", k = 3 }:
// sin(k pi sqrt(x^2 + y^2)), seed 003 eq. 35 with k = 3.
std::vector<double> read_phi0(ConfigReader& cfg, const Grid2& g, const std::string& base_dir) {
  if (cfg.has("initial.phi.preset")) {
    cfg.get_choice("initial.phi.preset", {"radial_sine"});
    return radial_sine(g, cfg.get_double("initial.phi.k", 3.0));
  }
  SpecContext ctx{cfg, g, base_dir};
  const ScalarSpec s = read_scalar(ctx, "initial.phi");
  return s.varies() ? s.cells : std::vector<double>(std::size_t(g.cells()), s.value);
}

}  // namespace

CurvatureSpec read_curvature(ConfigReader& cfg, const Grid2& grid, const FieldBoundary& bc, const std::string& base_dir,
                             const MolTime& time) {
  CurvatureSpec s;
  s.flow = cfg.get_string("model.name") == "willmore" ? Flow::willmore : Flow::mean_curvature;
  s.grid = grid;
  s.bc = bc;
  s.scheme = time.scheme;
  s.tol = time.tol;
  s.dt = time.dt;
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
    s.phi0 = read_phi0(cfg, grid, base_dir);
  }
  return s;
}

nlohmann::json curvature_json(const CurvatureSpec& s) {
  nlohmann::json model = {{"name", s.flow == Flow::willmore ? "willmore" : "mean_curvature"},
                          {"forcing", s.manufactured ? "manufactured" : "none"}};
  if (s.manufactured) model["amplitude"] = s.amplitude;
  const char* kinds[3] = {"periodic", "neumann", "dirichlet"};
  const char* sides[4] = {"left", "right", "bottom", "top"};
  nlohmann::json bc;
  for (int k = 0; k < 4; ++k) {
    bc[sides[k]] = {{"kind", kinds[int(s.bc.side[k][0].kind)]}};
    if (s.bc.side[k][0].kind == BcKind::dirichlet) bc[sides[k]]["value"] = s.bc.side[k][0].value;
  }
  return {{"model", model}, {"boundary", bc}};
}

}  // namespace pdex
