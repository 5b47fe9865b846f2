// Advection velocity and diffusion tensor inputs ([model.advection], [model.diffusion]).
#include <cmath>
#include <numbers>

#include "pdex/models/ard/ard_config.hpp"
#include "pdex/core/error.hpp"

namespace pdex {

namespace {

// f(x, y) at every cell (every plane alike on a 3D grid).
ScalarSpec from_function(const Grid2& g, auto f) {
  ScalarSpec s;
  s.cells.resize(std::size_t(g.cells()));
  for_each_cell(g.extents(), [&](int i, int j, int k) { s.cells[std::size_t(g.extents().index(i, j, k))] = f(g.x(i), g.y(j)); });
  return s;
}

// Velocity presets, centred at c: solid-body rotation, plane shear, and a Lamb-Oseen vortex (on a 3D grid
// about the axis through c along z, az = 0).
void velocity_preset(SpecContext& ctx, ArdSpec& spec, const std::string& base) {
  const Grid2& g = ctx.grid;
  const std::string preset = ctx.cfg.get_choice(base + ".preset", {"rotation", "shear", "vortex"});
  std::vector<double> c{g.x0 + g.width() / 2, g.y0 + g.height() / 2};
  if (ctx.cfg.has(base + ".center")) c = ctx.cfg.get_doubles(base + ".center", 2);
  const double k = ctx.cfg.get_double(base + ".strength");
  if (preset == "rotation") {  // angular velocity k
    spec.ax = from_function(g, [&](double, double y) { return -k * (y - c[1]); });
    spec.ay = from_function(g, [&](double x, double) { return k * (x - c[0]); });
  } else if (preset == "shear") {  // shear rate k
    spec.ax = from_function(g, [&](double, double y) { return k * (y - c[1]); });
    spec.ay = ScalarSpec{0.0, {}};
  } else {  // circulation k, core radius rc
    const double rc = ctx.cfg.get_double(base + ".radius", std::min(g.width(), g.height()) / 8);
    if (rc <= 0) ctx.cfg.fail(base + ".radius", "expected a positive core radius");
    auto swirl = [&](double x, double y) {
      const double r2 = (x - c[0]) * (x - c[0]) + (y - c[1]) * (y - c[1]);
      return r2 == 0 ? 0.0 : k / (2 * std::numbers::pi * r2) * (1 - std::exp(-r2 / (rc * rc)));
    };
    spec.ax = from_function(g, [&](double x, double y) { return -swirl(x, y) * (y - c[1]); });
    spec.ay = from_function(g, [&](double x, double y) { return swirl(x, y) * (x - c[0]); });
  }
}

ScalarSpec plane(const std::vector<double>& data, std::size_t p, std::size_t n) {
  return ScalarSpec{0.0, std::vector<double>(data.begin() + std::ptrdiff_t(p * n), data.begin() + std::ptrdiff_t((p + 1) * n))};
}

// The tensor's entries in their field order: xx, xy, yy, then (3D grids) xz, yz, zz.
std::vector<ScalarSpec*> tensor_entries(ArdSpec& spec, bool volume) {
  if (!volume) return {&spec.mxx, &spec.mxy, &spec.myy};
  return {&spec.mxx, &spec.mxy, &spec.myy, &spec.mxz, &spec.myz, &spec.mzz};
}

// One .npy of shape (3, ny, nx): the xx, xy, yy components; on a 3D grid (6, nz, ny, nx), xz, yz, zz after them.
void tensor_from_file(SpecContext& ctx, ArdSpec& spec, const std::string& path) {
  const std::vector<ScalarSpec*> entries = tensor_entries(spec, ctx.grid.is_3d());
  const std::vector<double> m = read_npy_field(ctx, path, entries.size());
  const std::size_t n = std::size_t(ctx.grid.cells());
  for (std::size_t c = 0; c < entries.size(); ++c) *entries[c] = plane(m, c, n);
}

// M = e e^T + (I - e e^T) / ratio with e the unit flow direction: diffusion `ratio` times faster along
// streamlines than across them (the seed's vector-field visualization, Sec. 1 and Fig. 1).
void tensor_along_flow(SpecContext& ctx, ArdSpec& spec, const std::string& base) {
  if (spec.advection == Advection::none && !ctx.cfg.has("model.advection"))
    ctx.cfg.fail(base + ".preset", "\"along_flow\" needs a velocity in [model.advection]");
  const double ratio = ctx.cfg.get_double(base + ".ratio", 10.0);
  if (ratio < 1) ctx.cfg.fail(base + ".ratio", "expected a ratio >= 1 (along-flow over cross-flow diffusivity)");
  const std::size_t n = std::size_t(ctx.grid.cells());
  const bool volume = ctx.grid.is_3d();
  const std::vector<ScalarSpec*> m = tensor_entries(spec, volume);  // xx, xy, yy, xz, yz, zz
  for (std::size_t c = 0; c < m.size(); ++c) m[c]->cells.assign(n, c == 0 || c == 2 || c == 5 ? 1.0 : 0.0);
  auto at = [](const ScalarSpec& s, std::size_t k) { return s.varies() ? s.cells[k] : s.value; };
  for (std::size_t k = 0; k < n; ++k) {
    const double ax = at(spec.ax, k), ay = at(spec.ay, k), az = volume ? at(spec.az, k) : 0.0;
    const double a = std::hypot(ax, ay, az);
    if (a == 0) continue;
    const double e[3] = {ax / a, ay / a, az / a}, q = 1 / ratio;
    const int rows[6] = {0, 0, 1, 0, 1, 2}, cols[6] = {0, 1, 1, 2, 2, 2};
    for (std::size_t c = 0; c < m.size(); ++c) {
      const double ee = e[rows[c]] * e[cols[c]];
      m[c]->cells[k] = rows[c] == cols[c] ? ee + q * (1 - ee) : ee * (1 - q);
    }
  }
}

// Sylvester's criterion: the leading minors positive (in 3D the determinant too).
void check_positive_definite(SpecContext& ctx, const ArdSpec& spec, const std::string& base) {
  const std::size_t n = std::size_t(ctx.grid.cells());
  const bool volume = ctx.grid.is_3d();
  auto at = [](const ScalarSpec& s, std::size_t k) { return s.varies() ? s.cells[k] : s.value; };
  for (std::size_t k = 0; k < n; ++k) {
    const double xx = at(spec.mxx, k), xy = at(spec.mxy, k), yy = at(spec.myy, k);
    const double xz = at(spec.mxz, k), yz = at(spec.myz, k), zz = at(spec.mzz, k);
    const double minor = xx * yy - xy * xy;
    const double det = xx * (yy * zz - yz * yz) - xy * (xy * zz - yz * xz) + xz * (xy * yz - yy * xz);
    if (xx > 0 && yy > 0 && minor > 0 && (!volume || det > 0)) continue;
    std::string entries = "xx=" + std::to_string(xx) + ", xy=" + std::to_string(xy) + ", yy=" + std::to_string(yy);
    if (volume) entries += ", xz=" + std::to_string(xz) + ", yz=" + std::to_string(yz) + ", zz=" + std::to_string(zz);
    ctx.cfg.fail(base, "the diffusion tensor is not symmetric positive definite at cell (" +
                           ctx.grid.extents().where(int64_t(k)) + "): " + entries + "; need xx > 0, yy > 0, xx*yy > xy^2" +
                           (volume ? " and det(M) > 0" : ""));
  }
}

}  // namespace

void read_advection(SpecContext& ctx, ArdSpec& spec) {
  const std::string base = "model.advection";
  if (!ctx.cfg.find(base)) return;
  const std::string scheme = ctx.cfg.get_choice(base + ".scheme", {"none", "centered", "upwind"}, "centered");
  spec.advection = scheme == "none" ? Advection::none : scheme == "upwind" ? Advection::upwind : Advection::centered;
  const bool preset = ctx.cfg.has(base + ".preset"), constant = ctx.cfg.has(base + ".velocity");
  const bool volume = ctx.grid.is_3d();
  if (int(preset) + int(constant) + int(ctx.cfg.has(base + ".x")) > 1)
    ctx.cfg.fail(base, volume ? "give one of 'velocity = [ax, ay, az]', 'preset = ...', or per-component 'x', 'y' and 'z'"
                              : "give one of 'velocity = [ax, ay]', 'preset = ...', or per-component 'x' and 'y'");
  if (!volume && ctx.cfg.has(base + ".z")) ctx.cfg.fail(base + ".z", "a 2D grid's velocity has no z component; set grid.nz > 1");
  if (preset) {
    velocity_preset(ctx, spec, base);
  } else if (constant) {
    auto a = ctx.cfg.get_doubles(base + ".velocity", volume ? 3 : 2);
    spec.ax = ScalarSpec{a[0], {}}, spec.ay = ScalarSpec{a[1], {}};
    if (volume) spec.az = ScalarSpec{a[2], {}};
  } else {
    spec.ax = read_scalar(ctx, base + ".x", 0.0);
    spec.ay = read_scalar(ctx, base + ".y", 0.0);
    if (volume) spec.az = read_scalar(ctx, base + ".z", 0.0);
  }
}

void read_diffusion(SpecContext& ctx, ArdSpec& spec) {
  const std::string base = "model.diffusion";
  if (!ctx.cfg.find(base)) return;
  const std::string kind = ctx.cfg.get_choice(base + ".kind", {"isotropic", "tensor"}, "isotropic");
  if (kind == "isotropic") return;
  spec.anisotropic = true;
  if (ctx.cfg.has(base + ".preset")) {
    ctx.cfg.get_choice(base + ".preset", {"along_flow"});
    tensor_along_flow(ctx, spec, base);
  } else if (ctx.cfg.has(base + ".file")) {
    tensor_from_file(ctx, spec, base + ".file");
  } else {
    spec.mxx = read_scalar(ctx, base + ".xx", 1.0);
    spec.mxy = read_scalar(ctx, base + ".xy", 0.0);
    spec.myy = read_scalar(ctx, base + ".yy", 1.0);
    if (ctx.grid.is_3d()) {
      spec.mxz = read_scalar(ctx, base + ".xz", 0.0);
      spec.myz = read_scalar(ctx, base + ".yz", 0.0);
      spec.mzz = read_scalar(ctx, base + ".zz", 1.0);
    }
  }
  for (const char* key : {".xz", ".yz", ".zz"})
    if (!ctx.grid.is_3d() && ctx.cfg.has(base + key)) ctx.cfg.fail(base + key, "a 2D grid's tensor has no z entries; set grid.nz > 1");
  check_positive_definite(ctx, spec, base);
}

}  // namespace pdex
