#include "pdex/models/chemotaxis/chemotaxis_config.hpp"

#include <cmath>
#include <numbers>
#include <optional>

#include "pdex/config/field_specs.hpp"
#include "pdex/config/grid_config.hpp"
#include "pdex/config/solver_config.hpp"

namespace pdex {

namespace {

// A Gaussian as seed 002 writes its data (sec. 5):
//   background + amplitude / sqrt(2 pi sigma2) exp(-((x - mu_x)^2 + (y - mu_y)^2 / y_divisor) / (2 sigma2)),
// on a 3D grid with (z - mu_z)^2 in the sum (mu_z: mu_y unless given).
struct Gaussian {
  double amplitude, sigma2, mu_x, mu_y, y_divisor = 1, background = 0;
  std::optional<double> mu_z = {};
  double operator()(double x, double y, std::optional<double> z = {}) const {
    double r2 = (x - mu_x) * (x - mu_x) + (y - mu_y) * (y - mu_y) / y_divisor;
    if (z) r2 += (*z - mu_z.value_or(mu_y)) * (*z - mu_z.value_or(mu_y));
    return background + amplitude / std::sqrt(2 * std::numbers::pi * sigma2) * std::exp(-r2 / (2 * sigma2));
  }
};

Gaussian read_gaussian(ConfigReader& cfg, const std::string& path, Gaussian g, bool volume) {
  cfg.get_choice(path + ".preset", {"gaussian"}, "gaussian");
  g.amplitude = cfg.get_double(path + ".amplitude", g.amplitude);
  g.sigma2 = cfg.get_double(path + ".sigma2", g.sigma2);
  if (!(g.sigma2 > 0)) cfg.fail(path + ".sigma2", "expected a positive variance");
  if (cfg.has(path + ".mu")) {
    const auto mu = cfg.get_doubles(path + ".mu", volume ? 3 : 2);
    g.mu_x = mu[0], g.mu_y = mu[1];
    if (volume) g.mu_z = mu[2];
  }
  g.y_divisor = cfg.get_double(path + ".y_divisor", g.y_divisor);
  if (!(g.y_divisor > 0)) cfg.fail(path + ".y_divisor", "expected a positive number");
  g.background = cfg.get_double(path + ".background", g.background);
  return g;
}

// A field at `path`: a Gaussian (the default, or { preset = "gaussian", ... }), or a number / table as for
// every field. With `ring`, the values of one ring of ghost cells too (the Gaussian evaluated there,
// other fields extrapolated).
std::vector<double> read_field(SpecContext& ctx, const std::string& path, const Gaussian& fallback, bool ring) {
  const Grid2& g = ctx.grid;
  const toml::node* n = ctx.cfg.find(path);
  if (!n || (n->is_table() && ctx.cfg.has(path + ".preset"))) {
    const Gaussian f = read_gaussian(ctx.cfg, path, fallback, g.is_3d());
    std::vector<double> v;
    if (g.is_3d()) {  // no ring: Keller-Segel's fields
      for_each_cell(g.extents(), [&](int i, int j, int k) { v.push_back(f(g.x(i), g.y(j), g.z(k))); });
      return v;
    }
    const int r = ring ? 1 : 0;
    for_each_cell(g.extents().grown(r), [&](int i, int j) { v.push_back(f(g.x(i - r), g.y(j - r))); });
    return v;
  }
  const ScalarSpec s = read_scalar(ctx, path);
  std::vector<double> v = s.varies() ? s.cells : std::vector<double>(std::size_t(g.cells()), s.value);
  return ring ? with_ghost_ring(v, g.extents()) : v;
}

// Seed 002 sec. 5: sigma_n^2 = 0.01, sigma_c^2 = 0.025, mu_n = 0.5, mu_c = 0.8, and phi with
// sigma_phi^2 = 1, mu_phi = (1, 0.5), its y term halved.
const Gaussian seed_n{100, 0.01, 0.5, 0.5}, seed_c{65, 0.025, 0.8, 0.8}, seed_phi{-70, 1.0, 1.0, 0.5, 2.0};

void read_stokes(ConfigReader& cfg, SpecContext& ctx, ChemotaxisSpec& s) {
  const char* names[4] = {"xx", "xy", "yx", "yy"};
  for (int k = 0; k < 4; ++k) s.s[k] = read_scalar(ctx, std::string("model.S.") + names[k], k == 0 || k == 3 ? 1.0 : 0.0);
  s.phi = read_field(ctx, "model.phi", seed_phi, true);
  const double nb = cfg.get_double("model.boundary.n", 0.0), cb = cfg.get_double("model.boundary.c", 0.0);
  for (int side = 0; side < 4; ++side) {
    s.bc.side[side][comp_n] = SideBc{BcKind::dirichlet, nb};
    s.bc.side[side][comp_c] = SideBc{BcKind::dirichlet, cb};
    s.bc.side[side][comp_u1] = s.bc.side[side][comp_u2] = SideBc{BcKind::dirichlet, 0.0};  // no slip, eq. (1)_5
  }
  const ScalarSpec u1 = read_scalar(ctx, "initial.u1", 0.0), u2 = read_scalar(ctx, "initial.u2", 0.0);
  s.u10 = u1.varies() ? u1.cells : std::vector<double>(std::size_t(ctx.grid.cells()), u1.value);
  s.u20 = u2.varies() ? u2.cells : std::vector<double>(std::size_t(ctx.grid.cells()), u2.value);
}

void read_keller_segel(ConfigReader& cfg, ChemotaxisSpec& s) {
  const bool elliptic = cfg.get_choice("model.variant", {"parabolic", "elliptic"}, "parabolic") == "elliptic";
  s.kind = elliptic ? ChemotaxisKind::keller_segel_elliptic : ChemotaxisKind::keller_segel;
  s.chi = cfg.get_double("model.params.chi", 1.0);
  if (!(s.chi >= 0)) cfg.fail("model.params.chi", "expected a non-negative chemotactic sensitivity");
  s.bc = FieldBoundary::all(BcKind::neumann);  // zero flux
}

}  // namespace

ChemotaxisSpec read_chemotaxis(ConfigReader& cfg, Grid2 grid, const std::string& base_dir, Precision precision) {
  if (cfg.has("grid.boundary"))
    cfg.fail("grid.boundary", "chemotaxis models set their own boundaries: Dirichlet for chemotaxis_stokes "
                              "(values in model.boundary.n, model.boundary.c), zero flux for keller_segel");
  if (!cfg.has("grid.dx")) grid.dx = 1.0 / grid.nx;  // the unit square (cube)
  if (!cfg.has("grid.dy")) grid.dy = cfg.has("grid.dx") ? grid.dx : 1.0 / grid.ny;
  if (!cfg.has("grid.dz")) grid.dz = cfg.has("grid.dx") ? grid.dx : 1.0 / grid.nz;
  if (grid.nx < 3 || grid.ny < 3) cfg.fail("grid.nx", "chemotaxis models need at least 3 x 3 cells");
  if (grid.is_3d() && cfg.get_string("model.name") == "chemotaxis_stokes")
    cfg.fail("grid.nz", "chemotaxis_stokes (seed 002) is 2D; keller_segel takes 3D grids");
  if (grid.is_3d() && grid.nz < 3) cfg.fail("grid.nz", "a 3D Keller-Segel grid needs at least 3 planes");
  ChemotaxisSpec s;
  s.grid = grid;
  SpecContext ctx{cfg, grid, base_dir};
  if (cfg.get_string("model.name") == "chemotaxis_stokes") {
    s.kind = ChemotaxisKind::stokes;
    read_stokes(cfg, ctx, s);
  } else {
    read_keller_segel(cfg, s);
  }
  s.growth_warning = cfg.get_double("model.growth_warning", 10.0);
  if (!(s.growth_warning > 1)) cfg.fail("model.growth_warning", "expected a factor above 1");
  s.n0 = read_field(ctx, "initial.n", seed_n, false);
  s.c0 = read_field(ctx, "initial.c", seed_c, false);
  SolverSettings defaults = s.solver;
  if (precision == Precision::f32) defaults.tol = 1e-5;  // single precision stalls near 1e-7
  s.solver = read_solver(cfg, defaults);
  return s;
}

ChemotaxisSpec seed002_spec(int n, Precision precision) {
  ConfigReader cfg(toml::parse("[model]\nname = \"chemotaxis_stokes\"\n"), "<seed 002 defaults>");
  return read_chemotaxis(cfg, Grid2{n, n}, ".", precision);
}

nlohmann::json chemotaxis_json(const ChemotaxisSpec& s) {
  nlohmann::json model = {{"growth_warning", s.growth_warning}};
  if (s.kind == ChemotaxisKind::stokes) {
    nlohmann::json S;
    const char* names[4] = {"xx", "xy", "yx", "yy"};
    for (int k = 0; k < 4; ++k) S[names[k]] = spec_json(s.s[k]);
    model.update({{"name", "chemotaxis_stokes"}, {"S", S}, {"phi", cells_json(s.phi)},
                  {"boundary", {{"n", s.bc.side[left][comp_n].value}, {"c", s.bc.side[left][comp_c].value}, {"u", 0.0}, {"P", 0.0}}}});
  } else {
    model.update({{"name", "keller_segel"}, {"variant", s.kind == ChemotaxisKind::keller_segel ? "parabolic" : "elliptic"},
                  {"params", {{"chi", s.chi}}}, {"boundary", "zero flux"}});
  }
  return {{"model", model},
          {"grid", grid_json(s.grid, false)},
          {"initial", {{"n", cells_json(s.n0)}, {"c", cells_json(s.c0)}}},
          {"solver", solver_json(s.solver)}};
}

}  // namespace pdex
