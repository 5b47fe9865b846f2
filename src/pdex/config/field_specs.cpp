#include "pdex/config/field_specs.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>
#include <string_view>

#include "pdex/core/error.hpp"
#include "pdex/core/hash.hpp"
#include "pdex/io/npy.hpp"

namespace pdex {

std::vector<double> uniform_noise(std::size_t count, double amplitude, uint64_t seed) {
  uint64_t state = seed;
  std::vector<double> out(count);
  for (auto& x : out) x = amplitude * (2 * unit_draw(state) - 1);
  return out;
}

namespace {

void paint_shapes(SpecContext& ctx, const std::string& path, std::vector<double>& cells) {
  const toml::node* n = ctx.cfg.find(path);
  const toml::array* shapes = n ? n->as_array() : nullptr;
  if (!shapes) ctx.cfg.fail(path, "expected an array of tables like { shape = \"disc\", center = [x, y], radius = r, value = 1.0 }");
  const Grid2& g = ctx.grid;
  const std::size_t dims = g.is_3d() ? 3 : 2;
  for (std::size_t k = 0; k < shapes->size(); ++k) {
    const std::string p = path + "." + std::to_string(k);
    const toml::table* t = shapes->get(k)->as_table();
    if (!t) ctx.cfg.fail(p, "expected a table like { shape = \"disc\", radius = r, value = 1.0 }");
    static const std::set<std::string_view> known{"shape", "center", "value", "size", "width", "height", "depth", "radius"};
    for (const auto& [key, v] : *t)
      if (!known.count(key.str()))
        ctx.cfg.fail(p + "." + std::string(key.str()),
                     "unknown key in a shape; expected shape, center, value and size | width, height (, depth) | radius");
    const std::string kind = ctx.cfg.get_choice(p + ".shape", {"square", "rectangle", "disc"});
    std::vector<double> c{g.x0 + g.width() / 2, g.y0 + g.height() / 2, g.z0 + g.depth() / 2};
    if (ctx.cfg.has(p + ".center")) {
      const std::vector<double> given = ctx.cfg.get_doubles(p + ".center", dims);
      std::copy(given.begin(), given.end(), c.begin());
    }
    if (!g.is_3d() && ctx.cfg.has(p + ".depth")) ctx.cfg.fail(p + ".depth", "a 2D grid's shapes have no depth; set grid.nz > 1");
    const double value = ctx.cfg.get_double(p + ".value");
    double hx = 0, hy = 0, hz = 0, r = 0;
    if (kind == "square") hx = hy = hz = ctx.cfg.get_double(p + ".size") / 2;
    if (kind == "rectangle")
      hx = ctx.cfg.get_double(p + ".width") / 2, hy = ctx.cfg.get_double(p + ".height") / 2, hz = ctx.cfg.get_double(p + ".depth", g.depth()) / 2;
    if (kind == "disc") r = ctx.cfg.get_double(p + ".radius");
    // In 3D a square is a cube, a disc a ball, and a rectangle a box (as deep as the grid unless `depth`).
    for_each_cell(g.extents(), [&](int i, int j, int l) {
      const double x = g.x(i) - c[0], y = g.y(j) - c[1], z = g.is_3d() ? g.z(l) - c[2] : 0.0;
      const bool inside = kind == "disc" ? x * x + y * y + z * z <= r * r : std::abs(x) <= hx && std::abs(y) <= hy && std::abs(z) <= hz;
      if (inside) cells[std::size_t(g.extents().index(i, j, l))] = value;
    });
  }
  ctx.cfg.mark_used(path);
}

}  // namespace

std::vector<double> read_npy_field(SpecContext& ctx, const std::string& path, std::size_t planes) {
  const std::string name = ctx.cfg.get_string(path);
  std::filesystem::path file(name);
  if (file.is_relative()) file = std::filesystem::path(ctx.base_dir) / file;
  io::NpyArray a;
  try {
    a = io::read_npy(file);
  } catch (const InputError& e) {
    ctx.cfg.fail(path, e.what());
  }
  std::vector<std::size_t> want = ctx.grid.extents().shape();
  if (planes > 1) want.insert(want.begin(), planes);
  if (a.shape != want) {
    auto show = [](const std::vector<std::size_t>& s) {
      std::string r = "(";
      for (std::size_t i = 0; i < s.size(); ++i) r += (i ? ", " : "") + std::to_string(s[i]);
      return r + (s.size() == 1 ? ",)" : ")");
    };
    ctx.cfg.fail(path, file.string() + " has shape " + show(a.shape) + "; expected " + show(want) +
                           (ctx.grid.is_3d() ? " (arrays are indexed [z, y, x], i.e. (nz, ny, nx))" : " (arrays are indexed [y, x], i.e. (ny, nx))"));
  }
  for (std::size_t k = 0; k < a.data.size(); ++k)
    if (!std::isfinite(a.data[k]))
      ctx.cfg.fail(path, file.string() + " contains NaN or infinite values (the first at cell " +
                             ctx.grid.extents().where(int64_t(k % std::size_t(ctx.grid.cells()))) + ")");
  return a.data;
}

ScalarSpec read_scalar(SpecContext& ctx, const std::string& path, std::optional<double> fallback) {
  const toml::node* n = ctx.cfg.find(path);
  if (!n) {
    if (!fallback) ctx.cfg.fail(path, "missing; expected a number or a table { value = ..., noise = ... }");
    return ScalarSpec{*fallback, {}};
  }
  if (n->is_number()) return ScalarSpec{ctx.cfg.get_double(path), {}};
  if (!n->is_table())
    ctx.cfg.fail(path, "expected a number, { value = x, noise = a, seed = s }, or { file = \"name.npy\" }");

  ScalarSpec s;
  const bool from_file = ctx.cfg.has(path + ".file");
  if (from_file && ctx.cfg.has(path + ".value")) ctx.cfg.fail(path, "give either 'value' or 'file', not both");
  s.value = from_file ? 0.0 : ctx.cfg.get_double(path + ".value", fallback);
  const double noise = ctx.cfg.get_double(path + ".noise", 0.0);
  const int64_t seed = ctx.cfg.get_int(path + ".seed", 1);
  if (noise < 0) ctx.cfg.fail(path + ".noise", "expected a non-negative amplitude");
  const double scale = ctx.cfg.get_double(path + ".scale", 1.0);  // the explorer's slider for a varying field
  if (!std::isfinite(scale)) ctx.cfg.fail(path + ".scale", "expected a finite factor");
  const bool shapes = ctx.cfg.has(path + ".shapes");
  if (!from_file && noise == 0 && !shapes) {
    s.value *= scale;
    return s;
  }

  const std::size_t count = std::size_t(ctx.grid.cells());
  s.cells = from_file ? read_npy_field(ctx, path + ".file") : std::vector<double>(count, s.value);
  if (shapes) paint_shapes(ctx, path + ".shapes", s.cells);
  if (noise > 0) {
    auto eta = uniform_noise(count, noise, uint64_t(seed));
    for (std::size_t k = 0; k < count; ++k) s.cells[k] += eta[k];
  }
  for (double& c : s.cells) c *= scale;
  return s;
}

nlohmann::json spec_json(const ScalarSpec& s) {
  if (!s.varies()) return s.value;
  double sum = 0;
  for (double c : s.cells) sum += c;
  return {{"varies", true}, {"min", s.min_value()}, {"max", s.max_value()}, {"mean", sum / double(s.cells.size())}};
}

std::vector<double> read_cells(SpecContext& ctx, const std::string& path, std::optional<double> fallback) {
  return read_scalar(ctx, path, fallback).per_cell(std::size_t(ctx.grid.cells()));
}

}  // namespace pdex
