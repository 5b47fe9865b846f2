// The family of text models: model.name = "equations", the species and their right-hand sides written
// as expressions (docs/config.md, "Models as equations").
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>

#include "pdex/config/field_specs.hpp"
#include "pdex/core/format.hpp"
#include "pdex/core/hash.hpp"
#include "pdex/config/grid_config.hpp"
#include "pdex/config/time_config.hpp"
#include "pdex/grid/blocks.hpp"
#include "pdex/grid/field.hpp"
#include "pdex/models/ard/ard_catalog.hpp"
#include "pdex/models/builtin_families.hpp"
#include "pdex/models/equations/equations_fields.hpp"
#include "pdex/models/equations/equations_plan.hpp"
#include "pdex/models/equations/equations_stepper.hpp"
#include "pdex/models/equations/host_kernel.hpp"
#include "pdex/models/equations/interpreter.hpp"
#include "pdex/models/equations/text_stability.hpp"

namespace pdex {

namespace {

class EquationsSetup : public SpecSetup<EquationsSpec> {
 public:
  // An estimate (text_stability.hpp): a larger step is warned about, not refused. Merson finds its own.
  std::optional<StabilityRule> stability() const override {
    if (clock.scheme == "merson") return std::nullopt;
    StableStep st = text_stable_step(spec, spec.theta);
    if (clock.scheme != "rk4") return StabilityRule{st, clock.scheme == "theta" ? "theta-scheme" : "forward-Euler", {}, {}, true};
    // Classic RK4 is stable on the negative real axis to 2.785 / dt, forward Euler to 2 / dt.
    st.dt_max *= 2.785 / 2;
    return StabilityRule{st, "rk4", {}, {}, true};
  }
  std::unique_ptr<Stepper> make_stepper(Backend backend, Precision precision) const override {
    return make_equations_stepper(spec, backend, precision);
  }
  std::string generated_source(Precision precision) const override {
    return precision == Precision::f32 ? eq::host_source<float>(spec.program) : eq::host_source<double>(spec.program);
  }
  // Forward Euler's schedule (EquationsRk takes the same plan); the other schemes have one each.
  nlohmann::json schedule(Backend backend, Precision precision) const override {
    if (spec.scheme != "euler") return nullptr;
    const bool device = backend != Backend::serial && backend != Backend::openmp;
    const EulerPlan p = precision == Precision::f32 ? text_euler_plan<float>(spec, device) : text_euler_plan<double>(spec, device);
    return {{"name", p.name()}, {"steps_per_pass", p.steps_per_pass}};
  }
  std::unique_ptr<ModelSetup> block(const ProcessGrid& pg, const Block& b, HaloExchange& halo) const override;
  std::vector<std::pair<std::string, std::vector<double>>> varying_params() const override {
    std::vector<std::pair<std::string, std::vector<double>>> out;
    for (std::size_t k = 0; k < spec.params.size(); ++k)
      if (spec.params[k].varies()) out.emplace_back(spec.text.params[k], spec.params[k].cells);
    return out;
  }
  nlohmann::json resolved() const override {
    const EquationsSpec& s = spec;
    nlohmann::json model = {{"name", "equations"}, {"species", s.text.species}, {"equations", nlohmann::json::object()},
                            {"params", nlohmann::json::object()}, {"define", nlohmann::json::object()}};
    for (std::size_t k = 0; k < s.text.species.size(); ++k) model["equations"][s.text.species[k]] = s.text.equations[k];
    for (std::size_t k = 0; k < s.text.params.size(); ++k) model["params"][s.text.params[k]] = spec_json(s.params[k]);
    for (const auto& [name, text] : s.text.defines) model["define"][name] = text;
    model["clamp"] = nlohmann::json::object();
    for (std::size_t k = 0; k < s.floor.size(); ++k)
      if (std::isfinite(s.floor[k])) model["clamp"][s.text.species[k]] = s.floor[k];
    nlohmann::json j = clock_json(clock), run = {{"temporal_blocking", s.temporal_blocking}};
    if (s.steps_per_pass > 0) run["steps_per_pass"] = s.steps_per_pass;
    std::vector<BoundaryText> texts;
    for (const BoundaryExpression& e : s.boundary_values) texts.push_back(e.text);
    j.update({{"model", model}, {"grid", {{"boundary", boundary_json(s.bc, s.text.species, texts)}}}, {"run", run},
              {"initial", nlohmann::json::object()}});
    for (std::size_t c = 0; c < s.text.species.size(); ++c) j["initial"][s.text.species[c]] = source_json(s.initial[c], s.grid.cells());
    return j;
  }
};

// The keys of a table at `path`, in the file's order where TOML keeps it (toml++ sorts them).
std::vector<std::string> keys_of(ConfigReader& cfg, const std::string& path) {
  std::vector<std::string> keys;
  const toml::node* n = cfg.find(path);
  if (!n) return keys;
  if (!n->is_table()) cfg.fail(path, "expected a table of name = value");
  for (const auto& [k, v] : *n->as_table()) keys.emplace_back(k.str());
  return keys;
}

// model.preset = "<a catalogue model>": its species, equations, parameters' defaults, initial state and
// clamp (ard_catalog.hpp), each of which the configuration may override or extend.
const ReactionInfo* read_preset(ConfigReader& cfg) {
  if (!cfg.has("model.preset")) return nullptr;
  try {
    return &ard_reaction(cfg.get_string("model.preset"));
  } catch (const InputError& e) {
    cfg.fail("model.preset", e.what());
  }
}

int index_in(const std::vector<std::string>& v, const std::string& name) {
  const auto it = std::find(v.begin(), v.end(), name);
  return it == v.end() ? -1 : int(it - v.begin());
}

// A preset's default for parameter `name`, if it has one.
std::optional<double> preset_value(const ReactionInfo* preset, const std::string& name) {
  if (preset)
    for (const ParamInfo& p : preset->params)
      if (p.name == name) return p.default_value;
  return std::nullopt;
}

eq::TextModel read_text(ConfigReader& cfg, const ReactionInfo* preset) {
  eq::TextModel m;
  m.species = cfg.get_strings("model.species", preset ? preset->species : std::vector<std::string>{});
  if (m.species.empty())
    cfg.fail("model.species", "name the species, e.g. species = [\"u\", \"v\"]" + cfg.misspelling_note({"model.species", "model.preset"}));
  for (const std::string& k : keys_of(cfg, "model.equations"))
    if (index_in(m.species, k) < 0) cfg.fail("model.equations." + k, "'" + k + "' is not one of model.species");
  for (const std::string& s : m.species) {
    const int k = preset ? index_in(preset->species, s) : -1;
    if (cfg.has("model.equations." + s)) m.equations.push_back(cfg.get_string("model.equations." + s));
    else if (k >= 0) m.equations.push_back(preset->text[std::size_t(k)]);
    else cfg.fail("model.equations", "species '" + s + "' has no equation: add " + s + " = \"...\"");
  }
  if (preset)
    for (const ParamInfo& p : preset->params) m.params.push_back(p.name);
  for (const std::string& p : keys_of(cfg, "model.params"))
    if (index_in(m.params, p) < 0) m.params.push_back(p);
  for (const std::string& d : keys_of(cfg, "model.define")) m.defines.emplace_back(d, cfg.get_string("model.define." + d));
  for (const std::string& d : keys_of(cfg, "model.algebraic")) m.algebraic.emplace_back(d, cfg.get_string("model.algebraic." + d));
  return m;
}

// [model.clamp] <species> = floor: the species kept >= floor after every step (positivity, for one);
// model.clamp = true: every species kept >= 0 (the catalogue's convention, a preset's default).
std::vector<double> read_clamp(ConfigReader& cfg, const std::vector<std::string>& species, const ReactionInfo* preset) {
  std::vector<double> floor(species.size(), -std::numeric_limits<double>::infinity());
  const toml::node* n = cfg.find("model.clamp");
  if ((n && n->is_boolean()) || (!n && preset)) {
    if (n ? cfg.get_bool("model.clamp") : preset->clamp) std::fill(floor.begin(), floor.end(), 0.0);
    return floor;
  }
  for (const std::string& k : keys_of(cfg, "model.clamp")) {
    const int c = index_in(species, k);
    if (c < 0) cfg.fail("model.clamp." + k, "'" + k + "' is not one of model.species");
    floor[std::size_t(c)] = cfg.get_double("model.clamp." + k);
  }
  return floor;
}

// Whether `key` holds an expression: a string, or { expression = "...", seed = n }.
bool is_expression(ConfigReader& cfg, const std::string& key) {
  const toml::node* n = cfg.find(key);
  return n && (n->is_string() || (n->is_table() && cfg.has(key + ".expression")));
}

// Refuses a value that is not finite, naming the key and the first such place (where(k)).
template <class Where>
void refuse_nonfinite(ConfigReader& cfg, const std::string& key, const std::vector<double>& values, const Where& where) {
  for (std::size_t k = 0; k < values.size(); ++k)
    if (!std::isfinite(values[k]))
      cfg.fail(key, cat({"the expression gives ", std::isnan(values[k]) ? "nan" : "an infinity", " at ", where(k), "; its value must be finite"}));
}

// The expression `text` of key `key` (a value: of the position, time, parameters and noise, never of a
// species or through an operator) as a program whose equations[0] it is; `what` says what it may use.
eq::Program value_program(ConfigReader& cfg, const EquationsSpec& s, const std::string& key, const std::string& text,
                          std::vector<std::string> params, bool random, const std::string& what) {
  // The model's species by name, so that a species is refused as one rather than unknown.
  std::vector<std::string> equations(s.text.species.size(), "0");
  equations[0] = text;
  eq::Program p;
  try {
    p = eq::compile(eq::TextModel{s.text.species, equations, std::move(params), {}, {}, random, s.grid.is_3d()});
  } catch (const eq::TextModelError& e) {
    cfg.fail(key, e.what());
  }
  for (const eq::Node& n : p.nodes)
    if (n.op == eq::Op::species || p.reach > 0) cfg.fail(key, what + "; it cannot use a species or an operator");
  return p;
}

// An initial value or a parameter written as an expression of x, y (z), L_x, L_y (L_z), pi, rand() and
// randn() (VisualPDE's way), and, for an initial value, of the parameters (the first `known` of them): its
// value at every cell centre, by the interpreter. No operator and no species may appear. The parameters
// it uses are marked in `used`.
std::vector<double> expression_cells(ConfigReader& cfg, const EquationsSpec& s, const std::string& key, std::size_t known,
                                     std::vector<bool>& used) {
  const bool table = !cfg.find(key)->is_string();
  const std::string text = cfg.get_string(table ? key + ".expression" : key);
  // By default the key's name hashed: two expressions draw different noise unless given the same seed.
  const uint64_t seed = table && cfg.has(key + ".seed") ? uint64_t(cfg.get_int(key + ".seed")) : fnv1a(key);
  const std::vector<std::string> params(s.text.params.begin(), s.text.params.begin() + std::ptrdiff_t(known));
  const std::string names = s.grid.is_3d() ? "x, y, z, L_x, L_y, L_z" : "x, y, L_x, L_y";
  const eq::Program p = value_program(cfg, s, key, text, params, true,
                                      "a value's expression is of " + names + ", pi, rand(), randn() (and, for an initial value, the parameters)");
  for (std::size_t k = 0; k < known; ++k) used[k] = used[k] || p.params_used[k];
  const Grid2& g = s.grid;
  Field<double> none(g, 1, 1, MemorySpace::host), values(g, std::max<int>(1, int(known)), 1, MemorySpace::host);
  for (std::size_t k = 0; k < known; ++k) values.set_interior(int(k), s.params[k].per_cell(std::size_t(g.cells())));
  std::vector<double> cells = eq::cells_of<double>(p, p.equations[0], none.cview(), values.cview(), g, 0.0, seed);
  refuse_nonfinite(cfg, key, cells, [&](std::size_t k) { return g.extents().where(int64_t(k)); });
  return cells;
}

// The theta scheme solves the D*lap(u) terms implicitly with the solvers: a parameter D must be >= 0
// everywhere; warns where there is no such term.
void check_implicit(ConfigReader& cfg, const EquationsSpec& s) {
  bool found = false;
  for (std::size_t k = 0; k < s.text.species.size(); ++k) {
    const eq::ImplicitTerm& d = s.program.implicit[k];
    found = found || d.term >= 0;
    if (d.term >= 0 && d.param >= 0 && s.params[std::size_t(d.param)].min_value() < 0)
      cfg.fail(cat({"model.params.", s.text.params[std::size_t(d.param)]}),
               cat({"the theta scheme solves ", s.text.species[k], "'s diffusion term implicitly: its coefficient must be non-negative"}));
  }
  if (!found)
    std::fprintf(stderr, "pdex: warning: %s: time.scheme = \"theta\" found no term D*lap(u) to take implicitly; every term is explicit\n",
                 cfg.file().c_str());
}

// A side's value written as an expression (grid.boundary): of x, y, t, L_x, L_y, dx, dy, pi and the
// parameters that are numbers, evaluated at the face.
BoundaryExpression boundary_expression(ConfigReader& cfg, const EquationsSpec& s, const BoundaryText& text) {
  BoundaryExpression e{text, value_program(cfg, s, text.key, text.text, s.text.params, false,
                                            "a boundary value's expression is of x, y, t, L_x, L_y, pi and the parameters"),
                       false};
  for (const eq::Node& n : e.program.nodes) {
    if (n.op == eq::Op::param && s.params[std::size_t(n.slot)].varies())
      cfg.fail(text.key, "parameter '" + s.text.params[std::size_t(n.slot)] +
                             "' varies from cell to cell; a boundary value's expression takes parameters that are numbers");
    e.timed = e.timed || n.op == eq::Op::t;
  }
  return e;
}

std::unique_ptr<ModelSetup> read_equations(ModelContext& m) {
  ConfigReader& cfg = m.cfg;
  auto setup = std::make_unique<EquationsSetup>();
  EquationsSpec& s = setup->spec;
  s.grid = m.grid;
  const ReactionInfo* preset = read_preset(cfg);
  s.text = read_text(cfg, preset);
  s.text.volume = s.grid.is_3d();
  try {
    s.program = eq::compile(s.text);
  } catch (const eq::TextModelError& e) {
    cfg.fail(e.key, e.what());
  }
  SpecContext ctx{cfg, s.grid, m.base_dir};
  std::vector<bool> used = s.program.params_used;  // by the equations, the initial values or the sides
  for (const std::string& p : s.text.params) {
    const std::string key = "model.params." + p;
    s.params.push_back(is_expression(cfg, key) ? ScalarSpec{0.0, expression_cells(cfg, s, key, 0, used)}
                                               : read_scalar(ctx, key, preset_value(preset, p)));
  }
  mark_constant_params(s);
  std::vector<BoundaryText> texts;
  s.bc = read_boundary(cfg, s.text.species, BcKind::periodic, &s.grid, &texts);
  if (!texts.empty() && s.grid.is_3d())
    cfg.fail(texts.front().key, "a side's value written as an expression is 2D only for now; give a number on a 3D grid");
  for (const BoundaryText& t : texts) {
    s.boundary_values.push_back(boundary_expression(cfg, s, t));
    const int ghost = equations_detail::ghost_of(s);
    refuse_nonfinite(cfg, t.key, boundary_offsets(s, s.boundary_values.back(), ghost, 0.0), [&](std::size_t k) {
      return t.side < 2 ? cat({"the side's cell y=", std::to_string(k), " at t = 0"})
                        : cat({"the side's cell x=", std::to_string(int(k) - ghost), " at t = 0"});
    });
    for (std::size_t k = 0; k < used.size(); ++k) used[k] = used[k] || s.boundary_values.back().program.params_used[k];
  }
  s.floor = read_clamp(cfg, s.text.species, preset);
  for (const std::string& sp : s.text.species) {
    const std::string key = "initial." + sp;
    const int k = preset ? index_in(preset->species, sp) : -1;
    const double fallback = k >= 0 ? preset->initial[std::size_t(k)] : 0.0;
    s.initial.push_back(is_expression(cfg, key) ? CellSource(expression_cells(cfg, s, key, s.params.size(), used))
                                                : read_source(ctx, key, fallback));
  }
  for (std::size_t k = 0; k < used.size(); ++k)
    if (!used[k])
      std::fprintf(stderr, "pdex: warning: %s: model.params.%s is never used (in the equations, the initial values or the sides)\n",
                   cfg.file().c_str(), s.text.params[k].c_str());
  ThetaScheme theta;
  setup->clock = read_scheme_clock(cfg, theta, [&] { return text_stable_step(s, 0.0).dt_max; });
  s.scheme = setup->clock.scheme, s.dt = setup->clock.dt, s.tol = setup->clock.tol, s.theta = theta.theta, s.solver = theta.solver;
  if (s.scheme == "theta") check_implicit(cfg, s);
  s.temporal_blocking = cfg.get_bool("run.temporal_blocking", true);
  s.steps_per_pass = read_steps_per_pass(cfg, s.temporal_blocking, s.scheme);
  setup->fields = output_fields(s.text);
  setup->grid = s.grid;
  return setup;
}

// The block's cells of every per-cell input; the sides inside the grid become the exchange's, so a
// side's value given as an expression stays with the blocks on that side.
std::unique_ptr<ModelSetup> EquationsSetup::block(const ProcessGrid& pg, const Block& b, HaloExchange& halo) const {
  auto out = std::make_unique<EquationsSetup>(*this);
  EquationsSpec& s = out->spec;
  const Extents2 whole = spec.grid.extents();
  s.grid = out->grid = block_grid(spec.grid, b);
  s.bc = block_boundary(spec.bc, pg, b, int(s.text.species.size()));
  for (CellSource& cells : s.initial) cells = cells.block(whole, b);
  for (ScalarSpec& p : s.params)
    if (p.varies()) p.cells = block_values(p.cells, whole, b);
  std::erase_if(s.boundary_values, [&](const BoundaryExpression& e) { return s.bc.side[e.text.side][0].kind == BcKind::periodic; });
  s.halo = &halo;
  return out;
}

}  // namespace

ModelFamily equations_family() {
  ModelFamily f{"equations", "any model written as equations: u_t = <expression> for each species, 1 to 8", {}, read_equations};
  f.three_d = true;
  f.models.push_back(ModelDesc{
      "equations",
      "a model typed as text: model.species, model.equations.<species>, model.params, model.define",
      "u_t = <expression of the species, parameters, x, y, t; lap, grad_x, grad_y, advect, div(K*grad(u))>",
      {"<model.species>"},
      {},
      {"euler", "theta", "rk4", "merson"},
      {"model.species = [\"u\", \"v\"]; [model.equations] u = \"Du*lap(u) - u*v^2 + F*(1 - u)\"",
       "model.preset = \"gray_scott\": a catalogue model as text (its species, equations, defaults), any of them overridable",
       "[model.params] name = a number, { value, noise, seed }, { file = \"name.npy\" } or an expression of x, y",
       "[model.define] r = \"u*v^2\": an expression computed once per cell, usable in the equations",
       "[model.algebraic] mu = \"u^3 - u - lap(u)\": a field computed from the species, not stepped (Cahn-Hilliard: u = \"lap(mu)\")",
       "initial.<species>: a per-cell value, or an expression of x, y, L_x, L_y, pi, rand(), randn() and the parameters",
       "[model.clamp] u = 0: the species kept >= 0 after every step (any floor); model.clamp = true: every species",
       "functions: exp log sqrt abs sin cos tan tanh sinh cosh heaviside sign atan2 min max pow mod if(c, a, b)",
       "operators: lap grad_x grad_y grad_xf grad_xb grad_yf grad_yb advect(u, ax, ay) div(K*grad(u)) "
       "div(tensor(kxx, kxy, kyy)*grad(u))",
       "3D grids (grid.nz > 1): z, dz, L_z and grad_z grad_zf grad_zb too; lap and div(K*grad(u)) take z; "
       "advect(u, ax, ay, az); div(tensor(kxx, kxy, kyy, kxz, kyz, kzz)*grad(u))",
       "compiled at run time (the host's C++ compiler, NVRTC on the GPU) and cached",
       "time.scheme = \"theta\" takes each species' term D*lap(u) implicitly (D a constant times at most one parameter)"},
      {"equations_gray_scott.toml", "equations_gray_scott_ramp.toml", "equations_brusselator.toml", "equations_three_species.toml",
       "equations_skt_cross_diffusion.toml", "equations_keller_segel.toml", "equations_heated_plate.toml",
       "equations_gray_scott_depth.toml"}});
  return f;
}

}  // namespace pdex
