#include "pdex/app/run_config.hpp"

#include <toml++/toml.h>

#include <cmath>
#include <filesystem>
#include <sstream>

#include "pdex/app/config_reader.hpp"
#include "pdex/app/field_specs.hpp"
#include "pdex/core/error.hpp"
#include "pdex/models/ard/ard_catalog.hpp"

namespace pdex {

namespace {

constexpr int64_t max_cells_per_side = 1 << 20;

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
  return g;
}

const std::vector<std::string> bc_kinds{"periodic", "neumann", "dirichlet"};

BcKind kind_of(const std::string& s) {
  return s == "periodic" ? BcKind::periodic : s == "neumann" ? BcKind::neumann : BcKind::dirichlet;
}

// One side: "kind", { kind = , value = }, { kind = "dirichlet", u = 1, v = 0 }, or { u = ..., v = ... }.
void read_side(ConfigReader& cfg, const std::string& path, int side, FieldBoundary& bc) {
  const toml::node* n = cfg.find(path);
  const char* names[2] = {"u", "v"};
  if (n->is_string()) {
    for (int c = 0; c < 2; ++c) bc.side[side][c] = SideBc{kind_of(cfg.get_choice(path, bc_kinds)), 0.0};
    return;
  }
  if (!n->is_table()) cfg.fail(path, "expected a kind (\"periodic\", \"neumann\", \"dirichlet\") or a table");
  if (cfg.has(path + ".kind")) {
    const BcKind k = kind_of(cfg.get_choice(path + ".kind", bc_kinds));
    const double value = cfg.get_double(path + ".value", 0.0);
    for (int c = 0; c < 2; ++c) bc.side[side][c] = SideBc{k, cfg.get_double(path + "." + names[c], value)};
    return;
  }
  for (int c = 0; c < 2; ++c) {
    const std::string p = path + "." + names[c];
    if (!cfg.has(p)) cfg.fail(path, std::string("missing the condition for field '") + names[c] + "'");
    if (cfg.find(p)->is_string()) {
      bc.side[side][c] = SideBc{kind_of(cfg.get_choice(p, bc_kinds)), 0.0};
    } else {
      bc.side[side][c] = SideBc{kind_of(cfg.get_choice(p + ".kind", bc_kinds)), cfg.get_double(p + ".value", 0.0)};
    }
  }
}

FieldBoundary read_boundary(ConfigReader& cfg) {
  FieldBoundary bc = FieldBoundary::all(BcKind::periodic);
  const toml::node* n = cfg.find("grid.boundary");
  if (!n) return bc;
  const char* sides[4] = {"left", "right", "bottom", "top"};
  if (n->is_string()) {
    const std::string k = cfg.get_choice("grid.boundary", bc_kinds);
    if (k == "dirichlet") cfg.fail("grid.boundary", "a Dirichlet boundary needs values: use a table per side, e.g. { left = { kind = \"dirichlet\", value = 1.0 }, ... }");
    return FieldBoundary::all(kind_of(k));
  }
  for (int s = 0; s < 4; ++s) {
    const std::string p = std::string("grid.boundary.") + sides[s];
    if (!cfg.has(p)) cfg.fail("grid.boundary", std::string("missing side '") + sides[s] + "' (give all of left, right, bottom, top)");
    read_side(cfg, p, s, bc);
  }
  for (int c = 0; c < 2; ++c)
    for (int axis = 0; axis < 2; ++axis) {
      const bool lo = bc.side[2 * axis][c].kind == BcKind::periodic, hi = bc.side[2 * axis + 1][c].kind == BcKind::periodic;
      if (lo != hi)
        cfg.fail("grid.boundary", std::string("periodic sides come in pairs: ") + sides[2 * axis] + " and " +
                                      sides[2 * axis + 1] + " must both be periodic or neither");
    }
  return bc;
}

void read_model(ConfigReader& cfg, RunConfig& rc, const std::string& base_dir) {
  rc.model = cfg.get_string("model.name");
  const ReactionInfo& info = ard_reaction(rc.model);
  ArdSpec& s = rc.spec;
  s.reaction = info.name;
  s.clamp = cfg.get_bool("model.clamp", info.clamp);
  SpecContext ctx{cfg, s.grid, base_dir};
  if (const toml::node* p = cfg.find("model.params"); p && p->is_table())
    for (const auto& [k, v] : *p->as_table()) {
      bool known = false;
      for (const auto& pi : info.params) known |= pi.name == k.str();
      if (!known) {
        std::string names;
        for (const auto& pi : info.params) names += (names.empty() ? "" : ", ") + pi.name;
        cfg.fail("model.params." + std::string(k.str()), "model '" + info.name + "' has no such parameter; it has " + names);
      }
    }
  for (const auto& pi : info.params) s.params[pi.name] = read_scalar(ctx, "model.params." + pi.name, pi.default_value);
  for (const char* d : {"Du", "Dv"})
    if (s.params[d].min_value() < 0) cfg.fail(std::string("model.params.") + d, "a diffusivity must be non-negative");
  read_advection(ctx, s);
  read_diffusion(ctx, s);
  auto initial = [&](const std::string& path, double fallback) {
    ScalarSpec f = read_scalar(ctx, path, fallback);
    return f.varies() ? f.cells : std::vector<double>(std::size_t(s.grid.cells()), f.value);
  };
  s.u0 = initial("initial.u", info.u0);
  s.v0 = initial("initial.v", info.v0);
}

void read_time(ConfigReader& cfg, RunConfig& rc) {
  rc.scheme = cfg.get_choice("time.scheme", {"euler", "theta", "rk4", "merson"}, "euler");
  if (rc.scheme != "euler")
    cfg.fail("time.scheme", "'" + rc.scheme + "' is not available in this version of pdex; use \"euler\"");
  rc.spec.dt = cfg.get_double("time.dt");
  if (!(rc.spec.dt > 0) || !std::isfinite(rc.spec.dt)) cfg.fail("time.dt", "expected a positive time step");
  const bool has_steps = cfg.has("time.steps"), has_end = cfg.has("time.t_end");
  if (has_steps == has_end) cfg.fail("time", "give exactly one of 'steps' and 't_end'");
  if (has_steps) {
    rc.steps = cfg.get_int("time.steps");
    if (rc.steps < 0) cfg.fail("time.steps", "expected a non-negative number of steps");
  } else {
    const double t_end = cfg.get_double("time.t_end");
    if (!(t_end >= 0)) cfg.fail("time.t_end", "expected a non-negative end time");
    rc.steps = int64_t(std::llround(t_end / rc.spec.dt));
    if (std::abs(double(rc.steps) * rc.spec.dt - t_end) > 1e-9 * std::max(1.0, t_end))
      cfg.fail("time.t_end", "is not a whole number of steps of dt = " + std::to_string(rc.spec.dt));
  }
  rc.force = cfg.get_bool("time.force", false);
  rc.check_every = cfg.get_int("time.check_every", 100);
  if (rc.check_every <= 0) cfg.fail("time.check_every", "expected a positive number of steps");
}

void read_output(ConfigReader& cfg, RunConfig& rc, const CliOverrides& cli) {
  OutputConfig& o = rc.output;
  o.dir = cli.out_dir.empty() ? cfg.get_string("output.dir", "out/" + rc.model) : cli.out_dir;
  if (!cli.out_dir.empty()) cfg.find("output.dir");
  o.every = cfg.get_int("output.every", 0);
  if (o.every < 0) cfg.fail("output.every", "expected a non-negative number of steps (0: initial and final only)");
  o.formats = cfg.get_strings("output.formats", {"png"});
  for (const auto& f : o.formats)
    if (f != "png" && f != "npy") cfg.fail("output.formats", "unknown format '" + f + "'; expected \"png\" and/or \"npy\"");
  o.fields = cfg.get_strings("output.fields", {"u", "v"});
  for (const auto& f : o.fields)
    if (f != "u" && f != "v") cfg.fail("output.fields", "unknown field '" + f + "'; this model has \"u\" and \"v\"");
  o.colormap = cfg.get_string("output.colormap", "viridis");
  if (const toml::node* r = cfg.find("output.range"); r && !r->is_string()) {
    auto mm = cfg.get_doubles("output.range", 2);
    if (!(mm[0] < mm[1])) cfg.fail("output.range", "expected [min, max] with min < max");
    o.auto_range = false, o.range_min = mm[0], o.range_max = mm[1];
  } else if (r) {
    cfg.get_choice("output.range", {"auto"});
  }
  o.scale = int(cfg.get_int("output.scale", 1));
  if (o.scale < 1 || o.scale > 16) cfg.fail("output.scale", "expected an integer from 1 to 16");
}

void read_run(ConfigReader& cfg, RunConfig& rc, const CliOverrides& cli) {
  const std::string backend = cli.backend.empty() ? cfg.get_choice("run.backend", {"auto", "serial", "openmp", "cuda"}, "auto") : cli.backend;
  if (!cli.backend.empty()) cfg.find("run.backend");
  rc.backend = parse_backend(backend);
  const std::string precision = cli.precision.empty() ? cfg.get_choice("run.precision", {"f32", "f64"}, "f32") : cli.precision;
  if (!cli.precision.empty()) cfg.find("run.precision");
  rc.precision = parse_precision(precision);
  rc.progress = cfg.get_bool("run.progress", true);
  rc.spec.temporal_blocking = cfg.get_bool("run.temporal_blocking", true);
}

}  // namespace

RunConfig load_run_config(const std::string& file, const CliOverrides& cli) {
  ConfigReader cfg = ConfigReader::from_file(file);
  for (const auto& s : cli.sets) cfg.apply_override(s);
  RunConfig rc;
  rc.file = file;
  std::stringstream js;
  js << toml::json_formatter{cfg.root()};
  rc.resolved = nlohmann::json::parse(js.str());
  const std::string base_dir = std::filesystem::path(file).parent_path().string();
  rc.spec.grid = read_grid(cfg);
  rc.spec.bc = read_boundary(cfg);
  read_time(cfg, rc);
  read_model(cfg, rc, base_dir.empty() ? "." : base_dir);
  read_output(cfg, rc, cli);
  read_run(cfg, rc, cli);
  cfg.check_all_used();
  return rc;
}

}  // namespace pdex
