#include "pdex/app/run_config.hpp"
#include "pdex/app/wave_config.hpp"

#include <toml++/toml.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "pdex/app/chemotaxis_config.hpp"
#include "pdex/app/config_reader.hpp"
#include "pdex/app/field_specs.hpp"
#include "pdex/core/error.hpp"
#include "pdex/io/colormap.hpp"
#include "pdex/app/solver_config.hpp"
#include "pdex/models/ard/ard_catalog.hpp"
#include "pdex/models/ard/ard_stability.hpp"

namespace pdex {

namespace {

constexpr int64_t max_cells_per_side = 1 << 20;

std::string gib(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g GiB", bytes / double(1ull << 30));
  return buf;
}

// Refuses a grid that cannot fit before anything of its size is allocated: the initial state and
// per-cell inputs (doubles while reading), two states and a checkpoint of (u, v), parameter fields.
void check_grid_fits(const ConfigReader& cfg, const Grid2& g, Precision precision) {
  const double cells = double(g.nx + 64) * double(g.ny + 2);
  const double value = precision == Precision::f32 ? 4 : 8;
  const double need = cells * (4 * 8 + 8 * value);
  const double have = double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGE_SIZE));
  if (need > have)
    cfg.fail("grid.nx", "a " + std::to_string(g.nx) + " x " + std::to_string(g.ny) + " grid needs about " + gib(need) +
                            " but this machine has " + gib(have) + "; use a smaller grid (grid.nx, grid.ny) or f32");
}

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
  auto kind_without_value = [&](const std::string& p) {
    const BcKind k = kind_of(cfg.get_choice(p, bc_kinds));
    if (k == BcKind::dirichlet) cfg.fail(p, "a Dirichlet side needs its value: { kind = \"dirichlet\", value = 1.0 }");
    return SideBc{k, 0.0};
  };
  if (n->is_string()) {
    for (int c = 0; c < 2; ++c) bc.side[side][c] = kind_without_value(path);
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
      bc.side[side][c] = kind_without_value(p);
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
  const ReactionInfo* found = nullptr;
  try {
    found = &ard_reaction(rc.model);
  } catch (const InputError& e) {
    cfg.fail("model.name", e.what());
  }
  const ReactionInfo& info = *found;
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

// Merson's first step, where time.dt does not give it: the forward-Euler estimate, which the step
// control then grows or shrinks as the error allows.
double first_mol_step(const ArdSpec& spec) {
  const double dt = ard_stable_step(spec).dt_max;
  return dt > 0 && std::isfinite(dt) ? dt : 1e-3;
}

// time.scheme = "merson" | "rk4" for the reaction-diffusion models (the model is read already).
void read_ard_mol_time(ConfigReader& cfg, RunConfig& rc) {
  rc.mol = read_mol_time(cfg, 0.0);
  MolTime& m = *rc.mol;
  if (m.dt == 0) m.dt = first_mol_step(rc.spec);
  rc.scheme = m.scheme;
  rc.spec.mol_scheme = m.scheme;
  rc.spec.tol = m.tol;
  rc.spec.dt = m.dt;
  rc.check_every = m.check_every;
  rc.force = cfg.get_bool("time.force", false);
}

}  // namespace

void read_time_steps(ConfigReader& cfg, RunConfig& rc) {
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

namespace {

void read_time(ConfigReader& cfg, RunConfig& rc) {
  rc.scheme = cfg.get_choice("time.scheme", {"euler", "theta", "rk4", "merson"}, "euler");
  if (rc.scheme != "euler" && rc.scheme != "theta")
    cfg.fail("time.scheme", "'" + rc.scheme + "' is not available for model '" + rc.model + "'; use \"euler\" or \"theta\"");
  if (rc.scheme == "theta") {
    rc.spec.theta = cfg.get_double("time.theta", 0.5);
    if (!(rc.spec.theta > 0 && rc.spec.theta <= 1))
      cfg.fail("time.theta", "expected 0 < theta <= 1 (0.5 Crank-Nicolson, 1 backward Euler; theta = 0 is scheme \"euler\")");
    // A tolerance matched to the time-discretization error, not to machine precision (docs/solvers.md).
    SolverSettings defaults;
    defaults.tol = 1e-5;
    rc.spec.solver = read_solver(cfg, defaults);
  }
  read_time_steps(cfg, rc);
}

std::string quoted_list(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t k = 0; k < names.size(); ++k)
    out += (k == 0 ? "" : k + 1 == names.size() ? " and " : ", ") + ("\"" + names[k] + "\"");
  return out;
}

// heat (u_t = D lap u + f), poisson (-D lap u = f) and laplace (lap u = 0): one field u (scalar_spec.hpp).
bool is_scalar_model(const std::string& name) { return name == "heat" || name == "poisson" || name == "laplace"; }

void read_scalar_model(ConfigReader& cfg, RunConfig& rc, const std::string& base_dir) {
  ScalarModelSpec& m = rc.scalar_spec;
  rc.scalar = true;
  rc.field_names = {"u"};
  m.steady = rc.model != "heat";
  m.grid = rc.spec.grid;
  m.bc = rc.spec.bc;
  SpecContext ctx{cfg, m.grid, base_dir};
  const std::vector<std::string> params = rc.model == "laplace" ? std::vector<std::string>{} : std::vector<std::string>{"D", "f"};
  if (const toml::node* p = cfg.find("model.params"); p && p->is_table())
    for (const auto& [k, v] : *p->as_table())
      if (std::find(params.begin(), params.end(), std::string(k.str())) == params.end())
        cfg.fail("model.params." + std::string(k.str()), "model '" + rc.model + "' has no such parameter" +
                                                             (params.empty() ? std::string("; it has none") : "; it has D and f"));
  if (!params.empty()) {
    m.D = cfg.get_double("model.params.D", 1.0);
    if (!(m.D > 0)) cfg.fail("model.params.D", "expected a positive diffusivity");
    const ScalarSpec f = read_scalar(ctx, "model.params.f", 0.0);
    if (f.varies() || f.value != 0) m.source = f.varies() ? f.cells : std::vector<double>(std::size_t(m.grid.cells()), f.value);
  }
  const ScalarSpec u0 = read_scalar(ctx, "initial.u", 0.0);
  m.u0 = u0.varies() ? u0.cells : std::vector<double>(std::size_t(m.grid.cells()), u0.value);
  if (m.steady) {
    rc.scheme = "solve";
    rc.steps = cfg.get_int("time.steps", 1);
    if (rc.steps < 1) cfg.fail("time.steps", "expected a positive number of solves");
    rc.check_every = 1;
    m.solver = read_solver(cfg, SolverSettings{});
    return;
  }
  read_time(cfg, rc);
  m.dt = rc.spec.dt;
  m.theta = rc.spec.theta;
  m.solver = rc.spec.solver;
}

// chemotaxis_stokes and keller_segel: forward Euler (seed 002 eq. (15)), fields from the model.
void read_chemotaxis_model(ConfigReader& cfg, RunConfig& rc, const std::string& base_dir) {
  read_time(cfg, rc);
  if (rc.scheme != "euler") cfg.fail("time.scheme", "chemotaxis models step by forward Euler (seed 002 eq. (15)): use \"euler\"");
  rc.chemotaxis = read_chemotaxis(cfg, rc.spec.grid, base_dir, rc.precision);
  rc.chemotaxis->dt = rc.spec.dt;
  rc.spec.grid = rc.chemotaxis->grid;
  const bool stokes = rc.chemotaxis->kind == ChemotaxisKind::stokes;
  rc.field_names = stokes ? std::vector<std::string>{"n", "c", "u1", "u2", "P"} : std::vector<std::string>{"n", "c"};
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
  o.fields = cfg.get_strings("output.fields", rc.field_names);
  for (const auto& f : o.fields)
    if (std::find(rc.field_names.begin(), rc.field_names.end(), f) == rc.field_names.end())
      cfg.fail("output.fields", "unknown field '" + f + "'; this model has " + quoted_list(rc.field_names));
  o.colormap = cfg.get_string("output.colormap", "viridis");
  try {
    io::parse_colormap(o.colormap);
  } catch (const InputError& e) {
    cfg.fail("output.colormap", e.what());
  }
  if (const toml::node* r = cfg.find("output.range"); r && !r->is_string()) {
    auto mm = cfg.get_doubles("output.range", 2);
    if (!(mm[0] < mm[1])) cfg.fail("output.range", "expected [min, max] with min < max");
    o.auto_range = false, o.range_min = mm[0], o.range_max = mm[1];
  } else if (r) {
    cfg.get_choice("output.range", {"auto"});
  }
  o.scale = int(cfg.get_int("output.scale", 1));
  if (o.scale < 1 || o.scale > 16) cfg.fail("output.scale", "expected an integer from 1 to 16");
  o.relief = cfg.get_double("output.relief", 0.0);
  if (!(o.relief >= 0)) cfg.fail("output.relief", "expected a non-negative height exaggeration (0: no shading)");
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

nlohmann::json scalar_json(const ScalarSpec& s) {
  if (!s.varies()) return s.value;
  double lo = s.cells[0], hi = s.cells[0], sum = 0;
  for (double c : s.cells) lo = std::min(lo, c), hi = std::max(hi, c), sum += c;
  return {{"varies", true}, {"min", lo}, {"max", hi}, {"mean", sum / double(s.cells.size())}};
}

nlohmann::json boundary_json(const FieldBoundary& bc) {
  const char* sides[4] = {"left", "right", "bottom", "top"};
  const char* kinds[3] = {"periodic", "neumann", "dirichlet"};
  const char* fields[2] = {"u", "v"};
  nlohmann::json j;
  for (int s = 0; s < 4; ++s)
    for (int c = 0; c < 2; ++c) {
      const SideBc& b = bc.side[s][c];
      j[sides[s]][fields[c]] = {{"kind", kinds[int(b.kind)]}};
      if (b.kind == BcKind::dirichlet) j[sides[s]][fields[c]]["value"] = b.value;
    }
  return j;
}

// Every value the run uses, defaults included, so that summary.json alone says what produced a result.
nlohmann::json scalar_model_json(const RunConfig& rc) {
  const ScalarModelSpec& m = rc.scalar_spec;
  nlohmann::json model = {{"name", rc.model}};
  if (rc.model != "laplace")
    model["params"] = {{"D", m.D}, {"f", scalar_json(ScalarSpec{0.0, m.source})}};
  return model;
}

nlohmann::json resolved_json(const RunConfig& rc) {
  const ArdSpec& s = rc.spec;
  const char* adv[3] = {"none", "centered", "upwind"};
  nlohmann::json params;
  for (const auto& [name, p] : s.params) params[name] = scalar_json(p);
  nlohmann::json model = {{"name", rc.model}, {"params", params}, {"clamp", s.clamp},
                          {"advection", {{"scheme", adv[int(s.advection)]}, {"x", scalar_json(s.ax)}, {"y", scalar_json(s.ay)}}},
                          {"diffusion", {{"kind", s.anisotropic ? "tensor" : "isotropic"}}}};
  if (s.anisotropic)
    model["diffusion"].update({{"xx", scalar_json(s.mxx)}, {"xy", scalar_json(s.mxy)}, {"yy", scalar_json(s.myy)}});
  const OutputConfig& o = rc.output;
  nlohmann::json initial = {{"u", scalar_json(ScalarSpec{0.0, s.u0})}, {"v", scalar_json(ScalarSpec{0.0, s.v0})}};
  if (rc.scalar) {
    model = scalar_model_json(rc);
    initial = {{"u", scalar_json(ScalarSpec{0.0, rc.scalar_spec.u0})}};
  }
  const bool solves = rc.scalar ? rc.scalar_spec.steady || rc.scalar_spec.theta > 0 : s.theta > 0;
  const SolverSettings& solver = rc.scalar ? rc.scalar_spec.solver : s.solver;
  return {{"model", model},
          {"grid", {{"nx", s.grid.nx}, {"ny", s.grid.ny}, {"dx", s.grid.dx}, {"dy", s.grid.dy}, {"x0", s.grid.x0},
                    {"y0", s.grid.y0}, {"boundary", boundary_json(s.bc)}}},
          {"time", {{"scheme", rc.scheme}, {"dt", s.dt}, {"steps", rc.steps}, {"force", rc.force},
                    {"check_every", rc.check_every}, {"theta", s.theta}}},
          {"solver", solves ? solver_json(solver) : nlohmann::json()},
          {"initial", initial},
          {"output", {{"dir", o.dir}, {"every", o.every}, {"formats", o.formats}, {"fields", o.fields},
                      {"colormap", o.colormap}, {"range", o.auto_range ? nlohmann::json("auto") : nlohmann::json{o.range_min, o.range_max}},
                      {"scale", o.scale}, {"relief", o.relief}}},
          {"run", {{"backend", backend_name(rc.backend)}, {"precision", precision_name(rc.precision)},
                   {"progress", rc.progress}, {"temporal_blocking", s.temporal_blocking}}}};
}

}  // namespace

RunConfig load_run_config(const std::string& file, const CliOverrides& cli) {
  ConfigReader cfg = ConfigReader::from_file(file);
  for (const auto& s : cli.sets) cfg.apply_override(s);
  RunConfig rc;
  rc.file = file;
  std::stringstream js;
  js << toml::json_formatter{cfg.root()};
  rc.input = nlohmann::json::parse(js.str());
  const std::string base_dir = std::filesystem::path(file).parent_path().string();
  rc.spec.grid = read_grid(cfg);
  read_run(cfg, rc, cli);
  check_grid_fits(cfg, rc.spec.grid, rc.precision);
  rc.spec.bc = read_boundary(cfg);
  rc.model = cfg.get_string("model.name");
  const std::string dir = base_dir.empty() ? "." : base_dir;
  if (is_curvature_model(cfg)) {
    rc.mol = read_mol_time(cfg, 1e-6);
    rc.curvature = read_curvature(cfg, rc.spec.grid, rc.spec.bc, dir, *rc.mol);
    rc.scheme = rc.mol->scheme;
    rc.check_every = rc.mol->check_every;
    rc.field_names = {"phi"};
  } else if (is_chemotaxis_model(rc.model)) {
    read_chemotaxis_model(cfg, rc, dir);
  } else if (is_scalar_model(rc.model)) {
    read_scalar_model(cfg, rc, dir);
  } else if (rc.model == "wave") {
    read_wave_model(cfg, rc, dir);
  } else if (is_mol_scheme(cfg)) {
    read_model(cfg, rc, dir);
    read_ard_mol_time(cfg, rc);
  } else {
    read_time(cfg, rc);
    read_model(cfg, rc, dir);
  }
  read_output(cfg, rc, cli);
  cfg.check_all_used();
  rc.resolved = resolved_json(rc);
  if (rc.curvature) rc.resolved.update(curvature_json(*rc.curvature));
  if (rc.mol) rc.resolved.update(mol_time_json(*rc.mol));
  if (rc.chemotaxis) rc.resolved.update(chemotaxis_json(*rc.chemotaxis));
  if (rc.wave) rc.resolved.update(wave_json(rc));
  return rc;
}

}  // namespace pdex
