#include "pdex/config/field_specs.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <span>
#include <set>
#include <string_view>

#include "pdex/core/error.hpp"
#include "pdex/io/npy.hpp"

namespace pdex {

namespace {

// summary.json's min, max and mean of cells added a part at a time.
struct CellSummary {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo, sum = 0;
  std::size_t count = 0;
  void add(std::span<const double> cells) {
    for (const double c : cells) lo = std::min(lo, c), hi = std::max(hi, c), sum += c;
    count += cells.size();
  }
  nlohmann::json json() const { return {{"varies", true}, {"min", lo}, {"max", hi}, {"mean", sum / double(count)}}; }
};

std::vector<CellShape> read_shapes(SpecContext& ctx, const std::string& path) {
  const toml::node* n = ctx.cfg.find(path);
  const toml::array* shapes = n ? n->as_array() : nullptr;
  if (!shapes) ctx.cfg.fail(path, "expected an array of tables like { shape = \"disc\", center = [x, y], radius = r, value = 1.0 }");
  const Grid2& g = ctx.grid;
  const std::size_t dims = g.is_3d() ? 3 : 2;
  std::vector<CellShape> out;
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
    CellShape s;
    s.c = {g.x0 + g.width() / 2, g.y0 + g.height() / 2, g.z0 + g.depth() / 2};
    if (ctx.cfg.has(p + ".center")) {
      const std::vector<double> given = ctx.cfg.get_doubles(p + ".center", dims);
      std::copy(given.begin(), given.end(), s.c.begin());
    }
    if (!g.is_3d() && ctx.cfg.has(p + ".depth")) ctx.cfg.fail(p + ".depth", "a 2D grid's shapes have no depth; set grid.nz > 1");
    s.value = ctx.cfg.get_double(p + ".value");
    // In 3D a square is a cube, a disc a ball, and a rectangle a box (as deep as the grid unless `depth`).
    if (kind == "square") s.h[0] = s.h[1] = s.h[2] = ctx.cfg.get_double(p + ".size") / 2;
    if (kind == "rectangle")
      s.h = {ctx.cfg.get_double(p + ".width") / 2, ctx.cfg.get_double(p + ".height") / 2, ctx.cfg.get_double(p + ".depth", g.depth()) / 2};
    if (kind == "disc") s.ball = true, s.r = ctx.cfg.get_double(p + ".radius");
    out.push_back(s);
  }
  ctx.cfg.mark_used(path);
  return out;
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

CellSource read_source(SpecContext& ctx, const std::string& path, std::optional<double> fallback) {
  const toml::node* n = ctx.cfg.find(path);
  if (!n) {
    if (!fallback) ctx.cfg.fail(path, "missing; expected a number or a table { value = ..., noise = ... }");
    return *fallback;
  }
  if (n->is_number()) return ctx.cfg.get_double(path);
  if (!n->is_table())
    ctx.cfg.fail(path, "expected a number, { value = x, noise = a, seed = s }, or { file = \"name.npy\" }");

  CellRecipe r;
  r.grid = ctx.grid;
  const bool from_file = ctx.cfg.has(path + ".file");
  if (from_file && ctx.cfg.has(path + ".value")) ctx.cfg.fail(path, "give either 'value' or 'file', not both");
  r.value = from_file ? 0.0 : ctx.cfg.get_double(path + ".value", fallback);
  r.noise = ctx.cfg.get_double(path + ".noise", 0.0);
  r.seed = uint64_t(ctx.cfg.get_int(path + ".seed", 1));
  if (r.noise < 0) ctx.cfg.fail(path + ".noise", "expected a non-negative amplitude");
  r.scale = ctx.cfg.get_double(path + ".scale", 1.0);  // the explorer's slider for a varying field
  if (!std::isfinite(r.scale)) ctx.cfg.fail(path + ".scale", "expected a finite factor");
  const bool shapes = ctx.cfg.has(path + ".shapes");
  if (!from_file && r.noise == 0 && !shapes) return r.value * r.scale;
  if (from_file) r.cells = std::make_shared<const std::vector<double>>(read_npy_field(ctx, path + ".file"));
  if (shapes) r.shapes = read_shapes(ctx, path + ".shapes");
  return CellSource(std::move(r));
}

ScalarSpec read_scalar(SpecContext& ctx, const std::string& path, std::optional<double> fallback) {
  const CellSource s = read_source(ctx, path, fallback);
  return ScalarSpec{s.value(), s.varies() ? s.cells(ctx.grid.cells()) : std::vector<double>{}};
}

nlohmann::json spec_json(const ScalarSpec& s) {
  if (!s.varies()) return s.value;
  CellSummary m;
  m.add(s.cells);
  return m.json();
}

nlohmann::json source_json(const CellSource& s, int64_t count) {
  if (!s.varies()) return s.value();
  CellSummary m;
  std::vector<double> part(std::size_t(std::min<int64_t>(count, 1 << 16)));
  for (int64_t first = 0; first < count; first += int64_t(part.size())) {
    const std::span<double> out(part.data(), std::size_t(std::min<int64_t>(count - first, int64_t(part.size()))));
    s.fill(first, out);
    m.add(out);
  }
  return m.json();
}

std::vector<double> read_cells(SpecContext& ctx, const std::string& path, std::optional<double> fallback) {
  return read_scalar(ctx, path, fallback).per_cell(std::size_t(ctx.grid.cells()));
}

}  // namespace pdex
