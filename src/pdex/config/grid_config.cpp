#include "pdex/config/grid_config.hpp"

#include <unistd.h>

#include <cstdio>
#include <optional>

#include "pdex/core/error.hpp"

namespace pdex {

namespace {

constexpr int64_t max_cells_per_side = 1 << 20;
const std::vector<std::string> bc_kinds{"periodic", "neumann", "dirichlet", "robin"};
const char* const side_names[side_count] = {"left", "right", "bottom", "top", "front", "back"};

// The sides of the grid the configuration describes: four, or six where grid.nz > 1.
int sides_of(ConfigReader& cfg) { return cfg.get_int("grid.nz", 1) > 1 ? side_count : 4; }

std::string gib(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g GiB", bytes / double(1ull << 30));
  return buf;
}

BcKind kind_of(const std::string& s) {
  return s == "periodic" ? BcKind::periodic : s == "neumann" ? BcKind::neumann : s == "dirichlet" ? BcKind::dirichlet : BcKind::robin;
}

SideBc kind_without_value(ConfigReader& cfg, const std::string& path) {
  const BcKind k = kind_of(cfg.get_choice(path, bc_kinds));
  if (k == BcKind::dirichlet) cfg.fail(path, "a Dirichlet side needs its value: { kind = \"dirichlet\", value = 1.0 }");
  if (k == BcKind::robin) cfg.fail(path, "a Robin side a*u + b*du/dn = c needs its terms: { kind = \"robin\", a = 1.0, b = 1.0, value = 0.0 }");
  return SideBc{k, 0.0};
}

// A side's value: a number, or, where `texts` takes them, an expression (a string).
struct SideValue {
  double number = 0;
  std::string text, key;
};

SideValue read_value(ConfigReader& cfg, const std::string& key, const SideValue& fallback, const std::vector<BoundaryText>* texts) {
  const toml::node* n = cfg.find(key);
  if (!n) return fallback;
  if (!n->is_string()) return SideValue{cfg.get_double(key), {}, key};
  if (!texts) cfg.fail(key, "a boundary value written as an expression is taken by text models (model.name = \"equations\"); give a number");
  return SideValue{0.0, cfg.get_string(key), key};
}

// a*u + b*du/dn = value from the table at `path`, h the spacing across the side; where the model takes it.
SideBc robin(ConfigReader& cfg, const std::string& path, double value, std::optional<double> h) {
  if (!h) cfg.fail(path, "Robin sides are taken by text models (model.name = \"equations\"); use dirichlet or neumann");
  const double a = cfg.get_double(path + ".a"), b = cfg.get_double(path + ".b");
  if (a < 0 || b < 0 || a + b == 0) cfg.fail(path, "a Robin side a*u + b*du/dn = c needs a >= 0 and b >= 0, not both 0 (n points out of the domain)");
  return robin_side(a, b, value, *h);
}

// Where the side is read: its index, the spacing across it (Robin sides) and where expressions go.
struct SideReading {
  int side;
  std::optional<double> h;
  std::vector<BoundaryText>* texts;
};

// One side: "kind", { kind = , value = } (and a, b for robin), { kind = "dirichlet", u = 1, v = 0 }, or
// { u = ..., v = ... }.
void read_side(ConfigReader& cfg, const std::string& path, const SideReading& at, const std::vector<std::string>& fields,
               FieldBoundary& bc) {
  const toml::node* n = cfg.find(path);
  const int count = int(fields.size());
  if (n->is_string()) {
    for (int c = 0; c < count; ++c) bc.side[at.side][c] = kind_without_value(cfg, path);
    return;
  }
  if (!n->is_table()) cfg.fail(path, "expected a kind (\"periodic\", \"neumann\", \"dirichlet\", \"robin\") or a table");
  auto condition = [&](const std::string& p, int c, const SideValue& v) {
    const BcKind k = kind_of(cfg.get_choice(p + ".kind", bc_kinds));
    const SideBc b = k == BcKind::robin ? robin(cfg, p, v.number, at.h) : SideBc{k, v.number};
    if (!v.text.empty() && (k == BcKind::dirichlet || k == BcKind::robin)) {
      const double factor = k == BcKind::dirichlet ? 2.0 : robin(cfg, p, 1.0, at.h).value;
      at.texts->push_back(BoundaryText{at.side, c, v.key, v.text, factor});
    }
    return b;
  };
  if (cfg.has(path + ".kind")) {
    const SideValue value = read_value(cfg, path + ".value", {}, at.texts);
    for (int c = 0; c < count; ++c) bc.side[at.side][c] = condition(path, c, read_value(cfg, path + "." + fields[c], value, at.texts));
    return;
  }
  for (int c = 0; c < count; ++c) {
    const std::string p = path + "." + fields[c];
    if (!cfg.has(p)) cfg.fail(path, "missing the condition for field '" + fields[c] + "'");
    bc.side[at.side][c] = cfg.find(p)->is_string() ? kind_without_value(cfg, p) : condition(p, c, read_value(cfg, p + ".value", {}, at.texts));
  }
}

void check_periodic_pairs(const ConfigReader& cfg, const FieldBoundary& bc, int count, int sides) {
  for (int c = 0; c < count; ++c)
    for (int axis = 0; axis < sides / 2; ++axis) {
      const bool lo = bc.side[2 * axis][c].kind == BcKind::periodic, hi = bc.side[2 * axis + 1][c].kind == BcKind::periodic;
      if (lo != hi)
        cfg.fail("grid.boundary", std::string("periodic sides come in pairs: ") + side_names[2 * axis] + " and " +
                                      side_names[2 * axis + 1] + " must both be periodic or neither");
    }
}

}  // namespace

Grid2 read_grid(ConfigReader& cfg) {
  Grid2 g;
  const int64_t nx = cfg.get_int("grid.nx"), ny = cfg.get_int("grid.ny", nx);
  if (nx <= 0 || nx > max_cells_per_side) cfg.fail("grid.nx", "expected a positive cell count up to 2^20, got " + std::to_string(nx));
  if (ny <= 0 || ny > max_cells_per_side) cfg.fail("grid.ny", "expected a positive cell count up to 2^20, got " + std::to_string(ny));
  g.nx = int(nx), g.ny = int(ny);
  g.dx = cfg.get_double("grid.dx", 1.0);
  g.dy = cfg.get_double("grid.dy", g.dx);
  if (!(g.dx > 0)) cfg.fail("grid.dx", "expected a positive spacing");
  if (!(g.dy > 0)) cfg.fail("grid.dy", "expected a positive spacing");
  g.x0 = cfg.get_double("grid.x0", 0.0);
  g.y0 = cfg.get_double("grid.y0", 0.0);
  const int64_t nz = cfg.get_int("grid.nz", 1);
  if (nz <= 0 || nz > max_cells_per_side) cfg.fail("grid.nz", "expected a positive plane count up to 2^20 (1: a 2D grid), got " + std::to_string(nz));
  g.nz = int(nz);
  if (nz == 1)
    for (const char* key : {"grid.dz", "grid.z0"})
      if (cfg.has(key)) cfg.fail(key, "a 2D grid has no z spacing or origin; set grid.nz > 1 for a 3D grid");
  g.dz = cfg.get_double("grid.dz", g.dx);
  if (!(g.dz > 0)) cfg.fail("grid.dz", "expected a positive spacing");
  g.z0 = cfg.get_double("grid.z0", 0.0);
  return g;
}

nlohmann::json grid_json(const Grid2& g, bool origin) {
  nlohmann::json j = {{"nx", g.nx}, {"ny", g.ny}, {"dx", g.dx}, {"dy", g.dy}};
  if (origin) j.update({{"x0", g.x0}, {"y0", g.y0}});
  if (g.is_3d()) j.update({{"nz", g.nz}, {"dz", g.dz}});
  if (g.is_3d() && origin) j["z0"] = g.z0;
  return j;
}

// Inputs read whole in f64 (a .npy file, some families' initial states) come on top: where they do not
// fit, the allocation that fails is named.
void check_grid_fits(const ConfigReader& cfg, const Grid2& g, Precision precision, bool device_state) {
  const double cells = double(g.nx + 64) * double(g.ny + 2) * double(g.is_3d() ? g.nz + 2 : 1);
  const double value = precision == Precision::f32 ? 4 : 8;
  const double need = cells * 2 * value * (device_state ? 1 : 3);
  const double have = double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGE_SIZE));
  if (need > have)
    cfg.fail("grid.nx", "a " + g.extents().text() + " grid needs about " + gib(need) + " but this machine has " + gib(have) +
                            "; use a smaller grid (grid.nx, grid.ny, grid.nz) or f32");
}

FieldBoundary read_boundary(ConfigReader& cfg, const std::vector<std::string>& fields, BcKind fallback, const Grid2* robin_grid,
                            std::vector<BoundaryText>* texts) {
  if (fields.size() > std::size_t(max_components)) throw Error("internal: more fields than a boundary holds");
  const toml::node* n = cfg.find("grid.boundary");
  if (!n) return FieldBoundary::all(fallback);
  if (n->is_string()) {
    const std::string k = cfg.get_choice("grid.boundary", bc_kinds);
    if (k == "dirichlet") cfg.fail("grid.boundary", "a Dirichlet boundary needs values: use a table per side, e.g. { left = { kind = \"dirichlet\", value = 1.0 }, ... }");
    return FieldBoundary::all(kind_of(k));
  }
  FieldBoundary bc = FieldBoundary::all(fallback);
  const int sides = sides_of(cfg);
  for (int s = 0; s < side_count; ++s) {
    const std::string p = std::string("grid.boundary.") + side_names[s];
    if (s >= sides) {
      if (cfg.has(p)) cfg.fail(p, "a 2D grid has no z sides (front, back); set grid.nz > 1 for a 3D grid");
      continue;
    }
    if (!cfg.has(p))
      cfg.fail("grid.boundary", std::string("missing side '") + side_names[s] + "' (give all of left, right, bottom, top" +
                                    (sides == side_count ? ", front, back: the grid is 3D)" : ")"));
    const std::optional<double> h = robin_grid ? std::optional(s < 2 ? robin_grid->dx : s < 4 ? robin_grid->dy : robin_grid->dz) : std::nullopt;
    read_side(cfg, p, SideReading{s, h, texts}, fields, bc);
  }
  check_periodic_pairs(cfg, bc, int(fields.size()), sides);
  return bc;
}

nlohmann::json boundary_json(const FieldBoundary& bc, const std::vector<std::string>& fields, const std::vector<BoundaryText>& texts,
                             bool z_sides) {
  nlohmann::json j;
  for (int s = 0; s < (z_sides ? side_count : 4); ++s)
    for (std::size_t c = 0; c < fields.size(); ++c) {
      const SideBc& b = bc.side[s][c];
      nlohmann::json& side = j[side_names[s]][fields[c]];
      side = {{"kind", bc_kinds[std::size_t(b.kind)]}};
      if (b.kind == BcKind::dirichlet) side["value"] = b.value;
      if (b.kind == BcKind::robin) side.update({{"ghost_scale", b.scale}, {"ghost_offset", b.value}});  // ghost = scale*cell + offset
    }
  for (const BoundaryText& t : texts) {
    nlohmann::json& side = j[side_names[t.side]][fields[std::size_t(t.field)]];
    side.erase("ghost_offset");
    side["value"] = t.text;
  }
  return j;
}

}  // namespace pdex
