// The family of text models: model.name = "equations", the species and their right-hand sides written
// as expressions (docs/config.md, "Models as equations").
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "pdex/config/field_specs.hpp"
#include "pdex/core/format.hpp"
#include "pdex/config/grid_config.hpp"
#include "pdex/config/time_config.hpp"
#include "pdex/grid/field.hpp"
#include "pdex/models/builtin_families.hpp"
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
  std::string generated_source() const override { return eq::host_source(spec.program); }
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
    nlohmann::json j = clock_json(clock);
    j.update({{"model", model}, {"grid", {{"boundary", boundary_json(s.bc, s.text.species)}}}, {"initial", nlohmann::json::object()}});
    for (std::size_t c = 0; c < s.text.species.size(); ++c) j["initial"][s.text.species[c]] = cells_json(s.initial[c]);
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

eq::TextModel read_text(ConfigReader& cfg) {
  eq::TextModel m;
  m.species = cfg.get_strings("model.species", {});
  if (m.species.empty()) cfg.fail("model.species", "name the species, e.g. species = [\"u\", \"v\"]");
  for (const std::string& k : keys_of(cfg, "model.equations"))
    if (std::find(m.species.begin(), m.species.end(), k) == m.species.end())
      cfg.fail("model.equations." + k, "'" + k + "' is not one of model.species");
  for (const std::string& s : m.species) {
    if (!cfg.has("model.equations." + s)) cfg.fail("model.equations", "species '" + s + "' has no equation: add " + s + " = \"...\"");
    m.equations.push_back(cfg.get_string("model.equations." + s));
  }
  m.params = keys_of(cfg, "model.params");
  for (const std::string& d : keys_of(cfg, "model.define")) m.defines.emplace_back(d, cfg.get_string("model.define." + d));
  return m;
}

// [model.clamp] <species> = floor: the species kept >= floor after every step (positivity, for one).
std::vector<double> read_clamp(ConfigReader& cfg, const std::vector<std::string>& species) {
  std::vector<double> floor(species.size(), -std::numeric_limits<double>::infinity());
  for (const std::string& k : keys_of(cfg, "model.clamp")) {
    const auto it = std::find(species.begin(), species.end(), k);
    if (it == species.end()) cfg.fail("model.clamp." + k, "'" + k + "' is not one of model.species");
    floor[std::size_t(it - species.begin())] = cfg.get_double("model.clamp." + k);
  }
  return floor;
}

// initial.<species> written as an expression of x, y, L_x, L_y, pi and the parameters (VisualPDE's
// way): its value at every cell centre, by the interpreter. No operator and no species may appear.
std::vector<double> initial_expression(ConfigReader& cfg, const EquationsSpec& s, const std::string& species) {
  const std::string key = "initial." + species, text = cfg.get_string(key);
  eq::Program p;
  try {
    p = eq::compile(eq::TextModel{{species}, {text}, s.text.params, {}});
  } catch (const eq::TextModelError& e) {
    cfg.fail(key, e.what());
  }
  for (const eq::Node& n : p.nodes)
    if (n.op == eq::Op::species || p.reach > 0)
      cfg.fail(key, "an initial value is an expression of x, y, L_x, L_y, pi and the parameters; it cannot use a species or an operator");
  const Grid2& g = s.grid;
  Field<double> none(g, 1, 1, MemorySpace::host), params(g, std::max<int>(1, int(s.params.size())), 1, MemorySpace::host);
  for (std::size_t k = 0; k < s.params.size(); ++k) params.set_interior(int(k), s.params[k].per_cell(std::size_t(g.cells())));
  const eq::TextCell<double> cell(eq::reading(none.cview(), params.cview(), g));
  const eq::Interpreter<double> run(p);
  std::vector<double> v(std::size_t(g.cells()));
  double f[max_components];
  for_each_cell(g.extents(), [&](int i, int j) {
    run(cell, i, j, f);
    v[std::size_t(g.extents().index(i, j))] = f[0];
  });
  return v;
}

// The theta scheme solves the D*lap(u) terms implicitly: a parameter D must be >= 0 everywhere; warns
// where there is no such term.
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

std::unique_ptr<ModelSetup> read_equations(ModelContext& m) {
  ConfigReader& cfg = m.cfg;
  auto setup = std::make_unique<EquationsSetup>();
  EquationsSpec& s = setup->spec;
  s.grid = m.grid;
  s.text = read_text(cfg);
  try {
    s.program = eq::compile(s.text);
  } catch (const eq::TextModelError& e) {
    cfg.fail(e.key, e.what());
  }
  for (const std::string& w : s.program.warnings) std::fprintf(stderr, "pdex: warning: %s: %s\n", cfg.file().c_str(), w.c_str());
  SpecContext ctx{cfg, s.grid, m.base_dir};
  for (const std::string& p : s.text.params) s.params.push_back(read_scalar(ctx, "model.params." + p));
  s.bc = read_boundary(cfg, s.text.species);
  s.floor = read_clamp(cfg, s.text.species);
  for (const std::string& sp : s.text.species) {
    const toml::node* n = cfg.find("initial." + sp);
    s.initial.push_back(n && n->is_string() ? initial_expression(cfg, s, sp) : read_cells(ctx, "initial." + sp, 0.0));
  }
  ThetaScheme theta;
  setup->clock = read_scheme_clock(cfg, theta, [&] { return text_stable_step(s, 0.0).dt_max; });
  s.scheme = setup->clock.scheme, s.dt = setup->clock.dt, s.tol = setup->clock.tol, s.theta = theta.theta, s.solver = theta.solver;
  if (s.scheme == "theta") check_implicit(cfg, s);
  setup->fields = s.text.species;
  setup->grid = s.grid;
  return setup;
}

}  // namespace

ModelFamily equations_family() {
  ModelFamily f{"equations", "any model written as equations: u_t = <expression> for each species, 1 to 8", {}, read_equations};
  f.models.push_back(ModelDesc{
      "equations",
      "a model typed as text: model.species, model.equations.<species>, model.params, model.define",
      "u_t = <expression of the species, parameters, x, y, t; lap, grad_x, grad_y, advect, div(K*grad(u))>",
      {"<model.species>"},
      {},
      {"euler", "theta", "rk4", "merson"},
      {"model.species = [\"u\", \"v\"]; [model.equations] u = \"Du*lap(u) - u*v^2 + F*(1 - u)\"",
       "[model.params] name = a number, { value, noise, seed } or { file = \"name.npy\" }",
       "[model.define] r = \"u*v^2\": an expression computed once per cell, usable in the equations",
       "initial.<species>: a per-cell value, or an expression of x, y, L_x, L_y, pi and the parameters",
       "[model.clamp] u = 0: the species kept >= 0 after every step (any floor)",
       "functions: exp log sqrt abs sin cos tan tanh sinh cosh heaviside sign atan2 min max pow mod if(c, a, b)",
       "compiled at run time (the host's C++ compiler, NVRTC on the GPU) and cached",
       "time.scheme = \"theta\" takes each species' term D*lap(u) implicitly (D a constant times at most one parameter)"},
      {"equations_gray_scott.toml"}});
  return f;
}

}  // namespace pdex
