#include "pdex/models/equations/program.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include "pdex/core/closest.hpp"
#include "pdex/models/equations/text_cell.hpp"

namespace pdex::eq {

namespace {

struct FnDesc {
  const char* name;
  Fn fn;
  int arity;
};
constexpr FnDesc fn_table[] = {
    {"exp", Fn::exp, 1},   {"log", Fn::log, 1},   {"sqrt", Fn::sqrt, 1}, {"abs", Fn::abs, 1},
    {"sin", Fn::sin, 1},   {"cos", Fn::cos, 1},   {"tan", Fn::tan, 1},   {"tanh", Fn::tanh, 1},
    {"sinh", Fn::sinh, 1}, {"cosh", Fn::cosh, 1}, {"heaviside", Fn::heaviside, 1}, {"sign", Fn::sign, 1},
    {"atan2", Fn::atan2, 2}, {"min", Fn::min, 2}, {"max", Fn::max, 2}, {"pow", Fn::pow, 2}, {"mod", Fn::mod, 2}};

struct OperatorDesc {
  const char* name;
  Op op;
  int arity;
};
constexpr OperatorDesc operator_table[] = {
    {"lap", Op::lap, 1},         {"grad_x", Op::grad_x, 1},   {"grad_y", Op::grad_y, 1},   {"grad_z", Op::grad_z, 1},
    {"grad_xf", Op::grad_xf, 1}, {"grad_xb", Op::grad_xb, 1}, {"grad_yf", Op::grad_yf, 1}, {"grad_yb", Op::grad_yb, 1},
    {"grad_zf", Op::grad_zf, 1}, {"grad_zb", Op::grad_zb, 1}, {"advect", Op::advect, 3},   {"div", Op::div_grad, 1},
    {"if", Op::choose, 3},       {"rand", Op::rand, 0},       {"randn", Op::randn, 0}};

// The operators of a 3D grid alone.
bool z_operator(Op op) { return op == Op::grad_z || op == Op::grad_zf || op == Op::grad_zb; }

// The predefined names; z, dz and L_z only on a 3D grid (a 2D model may name a species z).
const std::map<std::string, Op>& reserved(bool volume) {
  static const std::map<std::string, Op> flat{{"x", Op::x},   {"y", Op::y},   {"t", Op::t},
                                              {"dx", Op::dx}, {"dy", Op::dy}, {"L_x", Op::length_x},
                                              {"L_y", Op::length_y}, {"pi", Op::constant}};
  static const std::map<std::string, Op> deep = [] {
    std::map<std::string, Op> r = flat;
    r.insert({{"z", Op::z}, {"dz", Op::dz}, {"L_z", Op::length_z}});
    return r;
  }();
  return volume ? deep : flat;
}

std::string predefined(bool volume) { return volume ? "x, y, z, t, dx, dy, dz, L_x, L_y, L_z, pi" : "x, y, t, dx, dy, L_x, L_y, pi"; }

std::string join(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s.empty() ? "(none)" : s;
}

// Turns one key's syntax tree into nodes, resolving names against what the model declares.
class Builder {
 public:
  Builder(const TextModel& m, Program& p) : m_(m), p_(p) {}

  int build(const std::string& key, const std::string& text, const std::vector<std::string>& defines_so_far) {
    key_ = key, text_ = text, defines_ = &defines_so_far;
    Expr e;
    try {
      e = parse_expression(text);
    } catch (const ExprError& err) {
      fail(err.column, err.what());
    }
    int depth = 0;
    const int root = add(e, depth);
    p_.reach = std::max(p_.reach, depth);
    last_reach = depth;
    return root;
  }

  std::vector<bool> used_params;
  std::vector<int> define_reach;  // how far each define reads beyond its cell
  int last_reach = 0;

 private:
  [[noreturn]] void fail(int column, const std::string& what) const {
    throw TextModelError(key_, "in the expression\n" + with_caret(text_, column, what));
  }

  int push(Node n) {
    p_.nodes.push_back(n);
    return int(p_.nodes.size()) - 1;
  }

  // depth: how far the subtree reads beyond its cell.
  int add(const Expr& e, int& depth) {
    depth = 0;
    switch (e.kind) {
      case Kind::number: return push({Op::constant, Fn::exp, -1, -1, -1, 0, e.value});
      case Kind::name: {
        const int n = name(e);
        if (p_.nodes[std::size_t(n)].op == Op::define) depth = define_reach[std::size_t(p_.nodes[std::size_t(n)].slot)];
        return n;
      }
      case Kind::call: return call(e, depth);
      default: break;
    }
    if (e.kind == Kind::negate) return push({Op::negate, Fn::exp, add(e.args[0], depth)});
    int da = 0, db = 0;
    const int a = add(e.args[0], da);
    if (const auto n = integer_exponent(e); n) {
      depth = da;
      return push({Op::powi, Fn::exp, a, -1, -1, *n});  // exact products
    }
    const int b = add(e.args[1], db);
    depth = std::max(da, db);
    if (e.kind == Kind::div && e.args[1].kind == Kind::number && e.args[1].value == 0) fail(e.column, "division by zero");
    static const std::map<Kind, Op> binary{{Kind::add, Op::add}, {Kind::sub, Op::sub}, {Kind::mul, Op::mul}, {Kind::div, Op::div},
                                           {Kind::pow, Op::pow}, {Kind::less, Op::less}, {Kind::less_equal, Op::less_equal},
                                           {Kind::greater, Op::greater}, {Kind::greater_equal, Op::greater_equal},
                                           {Kind::equal, Op::equal}, {Kind::not_equal, Op::not_equal}};
    return push({binary.at(e.kind), Fn::exp, a, b});
  }

  int name(const Expr& e) {
    if (e.name == "pi") return push({Op::constant, Fn::exp, -1, -1, -1, 0, 3.14159265358979323846});
    if (auto r = reserved(m_.volume).find(e.name); r != reserved(m_.volume).end()) return push({r->second});
    if (auto k = index_of(m_.species, e.name); k >= 0) return push({Op::species, Fn::exp, -1, -1, -1, k});
    if (auto k = index_of(m_.params, e.name); k >= 0) {
      used_params[std::size_t(k)] = true;
      return push({Op::param, Fn::exp, -1, -1, -1, k});
    }
    if (auto k = index_of(*defines_, e.name); k >= 0) return push({Op::define, Fn::exp, -1, -1, -1, k});
    for (const auto& f : fn_table)
      if (e.name == f.name) fail(e.column, "'" + e.name + "' is a function: call it, " + e.name + "(...)");
    std::vector<std::string> known = m_.species;
    known.insert(known.end(), m_.params.begin(), m_.params.end());
    known.insert(known.end(), defines_->begin(), defines_->end());
    for (const auto& [r, unused] : reserved(m_.volume)) known.push_back(r);
    if (!m_.volume && (e.name == "z" || e.name == "dz" || e.name == "L_z"))
      fail(e.column, "'" + e.name + "' is a 3D grid's: set grid.nz > 1, or declare it (a species or parameter)");
    const std::string near = closest(e.name, known, std::max<std::size_t>(1, e.name.size() / 3) + 1);
    fail(e.column, "unknown name '" + e.name + "'" + (near.empty() ? "" : "; did you mean '" + near + "'?") +
                       "\n  species: " + join(m_.species) + "\n  parameters: " + join(m_.params) +
                       (defines_->empty() ? "" : "\n  defined: " + join(*defines_)) +
                       "\n  predefined: " + predefined(m_.volume));
  }

  int call(const Expr& e, int& depth) {
    for (const auto& f : fn_table)
      if (e.name == f.name) {
        arity(e, f.arity);
        int da = 0, db = 0;
        const int a = add(e.args[0], da);
        if (f.arity == 1) {
          depth = da;
          return push({Op::func1, f.fn, a});
        }
        if (const auto n = integer_exponent(e); f.fn == Fn::pow && n) {
          depth = da;
          return push({Op::powi, Fn::exp, a, -1, -1, *n});
        }
        const int b = add(e.args[1], db);
        depth = std::max(da, db);
        return push({Op::func2, f.fn, a, b});
      }
    for (const auto& o : operator_table)
      if (e.name == o.name) {
        if (o.op == Op::advect) return advect(e, depth);
        arity(e, o.arity);
        if (z_operator(o.op) && !m_.volume) fail(e.column, e.name + " is a 3D grid's derivative: set grid.nz > 1");
        if (o.op == Op::div_grad) return div_grad(e, depth);
        if (o.op == Op::rand || o.op == Op::randn) return random(e, o.op);
        int d[3] = {0, 0, 0};
        int n[3] = {-1, -1, -1};
        for (std::size_t k = 0; k < e.args.size(); ++k) n[k] = add(e.args[k], d[k]);
        depth = std::max({d[0], d[1], d[2]}) + (o.op == Op::choose ? 0 : 1);
        return push({o.op, Fn::exp, n[0], n[1], n[2]});
      }
    if (e.name == "tensor" || e.name == "grad")
      fail(e.column, e.name + "(...) stands only in a diffusion's flux: div(K*grad(u)), div(" + tensor_form() + "*grad(u))");
    if (index_of(m_.species, e.name) >= 0 || index_of(m_.params, e.name) >= 0)
      fail(e.column, "'" + e.name + "' is not a function; a '*' may be missing before the '('");
    std::vector<std::string> known;
    for (const auto& [name, n] : functions()) known.push_back(name);
    const std::string near = closest(e.name, known, std::max<std::size_t>(1, e.name.size() / 3) + 1);
    fail(e.column, "unknown function '" + e.name + "'" + (near.empty() ? "" : "; did you mean '" + near + "'?") +
                       "\n  functions: " + join(known));
  }

  // div(K*grad(w)) or div(grad(w)): the conservative form, K at the faces the mean of its two cells.
  int div_grad(const Expr& e, int& depth) {
    const Expr& arg = e.args[0];
    auto is_grad = [](const Expr& g) { return g.kind == Kind::call && g.name == "grad" && g.args.size() == 1; };
    const Expr* k = nullptr;
    const Expr* g = &arg;
    if (arg.kind == Kind::mul && is_grad(arg.args[1])) k = &arg.args[0], g = &arg.args[1];
    else if (arg.kind == Kind::mul && is_grad(arg.args[0])) k = &arg.args[1], g = &arg.args[0];
    if (!is_grad(*g)) fail(arg.column, "div takes K*grad(u) (or grad(u)): the flux of a diffusion");
    if (k && k->kind == Kind::call && k->name == "tensor") return div_tensor(*k, g->args[0], depth);
    int dk = 0, dw = 0;
    const int kn = k ? add(*k, dk) : push({Op::constant, Fn::exp, -1, -1, -1, 0, 1.0});
    const int wn = add(g->args[0], dw);
    depth = std::max(dk, dw) + 1;
    return push({Op::div_grad, Fn::exp, kn, wn});
  }

  // The tensor of an anisotropic diffusion as this grid's takes it: its entries in the order of the
  // built-in model's (model.diffusion.file's), the 2D tensor's first.
  std::string tensor_form() const { return m_.volume ? "tensor(kxx, kxy, kyy, kxz, kyz, kzz)" : "tensor(kxx, kxy, kyy)"; }

  // div(tensor(xx, xy, yy)*grad(w)), on a 3D grid div(tensor(xx, xy, yy, xz, yz, zz)*grad(w)): the
  // anisotropic diffusion, the tensor's entries expressions. A 3D grid's is div_tensor + div_tensor_z,
  // the built-in stencil's two parts (grid/stencil.hpp) added in its order.
  int div_tensor(const Expr& k, const Expr& w, int& depth) {
    const std::size_t entries = m_.volume ? 6 : 3;
    if (k.args.size() != entries)
      fail(k.column, "tensor takes " + std::to_string(entries) + " entries on a " + (m_.volume ? "3D" : "2D") + " grid, given " +
                         std::to_string(k.args.size()) + ": " + tensor_form() +
                         (m_.volume ? ", K = (kxx, kxy, kxz; kxy, kyy, kyz; kxz, kyz, kzz)"
                                    : ", K = (kxx, kxy; kxy, kyy); six on a 3D grid (grid.nz > 1)"));
    int d[7] = {0, 0, 0, 0, 0, 0, 0}, n[6];
    for (std::size_t c = 0; c < entries; ++c) n[c] = add(k.args[c], d[c]);
    const int plane = push({Op::tensor, Fn::exp, n[0], n[1], n[2]});
    const int across = m_.volume ? push({Op::tensor, Fn::exp, n[3], n[4], n[5]}) : -1;
    const int wn = add(w, d[6]);
    depth = *std::max_element(d, d + 7) + 1;
    const int in_plane = push({Op::div_tensor, Fn::exp, plane, wn});
    if (!m_.volume) return in_plane;
    const int z = push({Op::div_tensor_z, Fn::exp, across, wn});
    return push({Op::add, Fn::exp, in_plane, z});
  }

  // advect(w, ax, ay), on a 3D grid advect(w, ax, ay, az): (a . grad) w, first-order upwind. A 3D grid's
  // is advect + advect_z, the built-in 3D advection's two terms (ArdRhs's transport and transport_z).
  int advect(const Expr& e, int& depth) {
    const std::size_t args = m_.volume ? 4 : 3;
    if (e.args.size() != args)
      fail(e.column, "advect takes " + std::to_string(args) + " arguments on a " + (m_.volume ? "3D" : "2D") + " grid, given " +
                         std::to_string(e.args.size()) +
                         (m_.volume ? ": advect(u, ax, ay, az)" : ": advect(u, ax, ay); az only on a 3D grid (grid.nz > 1)"));
    int d[4] = {0, 0, 0, 0}, n[4] = {-1, -1, -1, -1};
    for (std::size_t k = 0; k < args; ++k) n[k] = add(e.args[k], d[k]);
    depth = std::max({d[0] + 1, d[1], d[2], d[3]});
    const int in_plane = push({Op::advect, Fn::exp, n[0], n[1], n[2]});
    if (!m_.volume) return in_plane;
    const int z = push({Op::advect_z, Fn::exp, n[0], n[3]});
    return push({Op::add, Fn::exp, in_plane, z});
  }

  // rand() uniform in [0, 1), randn() standard normal: drawn once per cell where values are set up; a
  // right-hand side has no noise (it would change with the step).
  int random(const Expr& e, Op op) {
    if (!m_.random)
      fail(e.column, e.name + "() draws noise for initial values and parameters only, not in an equation; give a parameter "
                              "{ value = ..., noise = ... } or an expression with " + e.name + "()");
    return push({op, Fn::exp, -1, -1, -1, random_sites++});
  }
  int random_sites = 0;

  // The exponent of a^n or pow(a, n) where n is an integer literal up to 64 in size, maybe negated.
  static std::optional<int> integer_exponent(const Expr& e) {
    if (e.kind != Kind::pow && e.kind != Kind::call) return std::nullopt;
    const Expr& x = e.args[1];
    const bool negated = x.kind == Kind::negate && x.args[0].kind == Kind::number;
    if (x.kind != Kind::number && !negated) return std::nullopt;
    const double n = negated ? -x.args[0].value : x.value;
    if (n != std::round(n) || std::abs(n) > 64) return std::nullopt;
    return int(n);
  }

  void arity(const Expr& e, int n) const {
    if (int(e.args.size()) != n)
      fail(e.column, e.name + " takes " + std::to_string(n) + " argument" + (n == 1 ? "" : "s") + ", given " +
                         std::to_string(e.args.size()));
  }

  static int index_of(const std::vector<std::string>& v, const std::string& s) {
    const auto it = std::find(v.begin(), v.end(), s);
    return it == v.end() ? -1 : int(it - v.begin());
  }

  const TextModel& m_;
  Program& p_;
  std::string key_, text_;
  const std::vector<std::string>* defines_ = nullptr;
};

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// Every declared name is an identifier, unique, and no function's or predefined name.
void check_names(const TextModel& m) {
  std::map<std::string, std::string> seen;
  auto claim = [&](const std::string& name, const std::string& key) {
    if (!is_identifier(name)) throw TextModelError(key, "'" + name + "' is not a name: letters, digits and '_', not starting with a digit");
    bool taken = reserved(m.volume).count(name) > 0;
    for (const auto& [f, n] : functions()) taken = taken || f == name;
    if (taken) throw TextModelError(key, "'" + name + "' is a predefined name or function; choose another");
    if (auto it = seen.find(name); it != seen.end()) throw TextModelError(key, "'" + name + "' is declared twice (also " + it->second + ")");
    seen[name] = key;
  };
  for (const auto& s : m.species) claim(s, "model.species");
  for (const auto& p : m.params) claim(p, "model.params." + p);
  for (const auto& [d, text] : m.defines) claim(d, "model.define." + d);
  for (const auto& [d, text] : m.algebraic) claim(d, "model.algebraic." + d);
}

void collect_names(const Expr& e, std::set<std::string>& names) {
  if (e.kind == Kind::name) names.insert(e.name);
  for (const Expr& a : e.args) collect_names(a, names);
}

struct Definition {
  std::string name, text, key;
};

// [model.define] and [model.algebraic]: both are computed from the species at each cell.
std::vector<Definition> definitions(const TextModel& m) {
  std::vector<Definition> d;
  for (const auto& [name, text] : m.defines) d.push_back({name, text, "model.define." + name});
  for (const auto& [name, text] : m.algebraic) d.push_back({name, text, "model.algebraic." + name});
  return d;
}

// The definitions in an order where each uses only those before it; throws on a cycle. One whose text
// does not parse is left where it is, for the builder to report.
std::vector<std::size_t> define_order(const std::vector<Definition>& defs) {
  const std::size_t n = defs.size();
  std::vector<std::set<std::string>> uses(n);
  for (std::size_t k = 0; k < n; ++k) try {
      collect_names(parse_expression(defs[k].text), uses[k]);
    } catch (const ExprError&) {
    }
  std::vector<int> state(n, 0);  // 0 new, 1 on the path, 2 placed
  std::vector<std::size_t> order;
  std::function<void(std::size_t)> visit = [&](std::size_t k) {
    if (state[k] == 2) return;
    if (state[k] == 1)
      throw TextModelError(defs[k].key, "'" + defs[k].name + "' is defined in terms of itself (through the defines it uses)");
    state[k] = 1;
    for (std::size_t d = 0; d < n; ++d)
      if (uses[k].count(defs[d].name)) visit(d);
    state[k] = 2;
    order.push_back(k);
  };
  for (std::size_t k = 0; k < n; ++k) visit(k);
  return order;
}

// The terms of the sum at node n, each with its sign.
void additive_terms(const Program& p, int n, double sign, std::vector<std::pair<int, double>>& out) {
  const Node& x = p.nodes[std::size_t(n)];
  if (x.op == Op::add || x.op == Op::sub) {
    additive_terms(p, x.a, sign, out);
    additive_terms(p, x.b, x.op == Op::sub ? -sign : sign, out);
  } else if (x.op == Op::negate) {
    additive_terms(p, x.a, -sign, out);
  } else {
    out.emplace_back(n, sign);
  }
}

// Whether node n is a product of constants, at most one parameter and one lap(species s); gathers them.
bool diffusion_factors(const Program& p, int n, int s, ImplicitTerm& d, bool& lap_seen) {
  const Node& x = p.nodes[std::size_t(n)];
  switch (x.op) {
    case Op::constant: d.coefficient *= x.value; return true;
    case Op::param:
      if (d.param >= 0) return false;
      d.param = x.slot;
      return true;
    case Op::lap: {
      const Node& u = p.nodes[std::size_t(x.a)];
      if (lap_seen || u.op != Op::species || u.slot != s) return false;
      lap_seen = true;
      return true;
    }
    case Op::mul: return diffusion_factors(p, x.a, s, d, lap_seen) && diffusion_factors(p, x.b, s, d, lap_seen);
    case Op::div: {
      const Node& q = p.nodes[std::size_t(x.b)];
      if (q.op != Op::constant) return false;
      d.coefficient /= q.value;
      return diffusion_factors(p, x.a, s, d, lap_seen);
    }
    case Op::negate: d.coefficient = -d.coefficient; return diffusion_factors(p, x.a, s, d, lap_seen);
    default: return false;
  }
}

// Species s's first term D*lap(s) with D > 0 where D is constant (a parameter's sign is checked where
// its values are known), or none.
ImplicitTerm implicit_term(const Program& p, int s) {
  std::vector<std::pair<int, double>> terms;
  additive_terms(p, p.equations[std::size_t(s)], 1.0, terms);
  for (const auto& [n, sign] : terms) {
    ImplicitTerm d{n, sign, sign, -1};
    bool lap_seen = false;
    if (diffusion_factors(p, n, s, d, lap_seen) && lap_seen && d.coefficient > 0) return d;
  }
  return {};
}

}  // namespace

const std::vector<std::pair<std::string, int>>& functions() {
  static const std::vector<std::pair<std::string, int>> all = [] {
    std::vector<std::pair<std::string, int>> v;
    for (const auto& f : fn_table) v.emplace_back(f.name, f.arity);
    for (const auto& o : operator_table) v.emplace_back(o.name, o.arity);
    v.emplace_back("grad", 1);
    v.emplace_back("tensor", 3);  // as advect's, the count on a 2D grid: a 3D grid's takes 6 (advect 4)
    return v;
  }();
  return all;
}


bool is_constant_param(const Program& p, int slot) {
  return slot < max_constants && std::size_t(slot) < p.constant_params.size() && p.constant_params[std::size_t(slot)];
}

int param_component(const Program& p, int slot) {
  int component = 0;
  for (int k = 0; k < slot; ++k) component += is_constant_param(p, k) ? 0 : 1;
  return component;
}

Program compile(const TextModel& m) {
  if (m.species.empty() || m.species.size() > 8)
    throw TextModelError("model.species", "a text model has 1 to 8 species, given " + std::to_string(m.species.size()));
  if (m.equations.size() != m.species.size())
    throw TextModelError("model.equations", "expected one equation per species (" + join(m.species) + ")");
  check_names(m);
  Program p;
  p.volume = m.volume;
  Builder b(m, p);
  b.used_params.assign(m.params.size(), false);
  const std::vector<Definition> defs = definitions(m);
  if (defs.size() > std::size_t(max_defines))
    throw TextModelError("model.define", "at most " + std::to_string(max_defines) + " defines and algebraic species together");
  for (const std::size_t k : define_order(defs)) {
    p.defines.push_back(b.build(defs[k].key, defs[k].text, p.define_names));
    b.define_reach.push_back(b.last_reach);
    p.define_names.push_back(defs[k].name);
  }
  for (const auto& [name, text] : m.algebraic)
    p.algebraic.push_back(int(std::find(p.define_names.begin(), p.define_names.end(), name) - p.define_names.begin()));
  for (std::size_t s = 0; s < m.species.size(); ++s)
    p.equations.push_back(b.build("model.equations." + m.species[s], m.equations[s], p.define_names));
  for (std::size_t s = 0; s < m.species.size(); ++s) p.implicit.push_back(implicit_term(p, int(s)));
  p.params_used = b.used_params;
  return p;
}

}  // namespace pdex::eq
