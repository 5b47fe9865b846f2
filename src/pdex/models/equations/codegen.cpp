#include "pdex/models/equations/codegen.hpp"

#include <cstdio>
#include <set>
#include <stdexcept>

#include "pdex/core/format.hpp"
#include "pdex/models/equations/text_cell.hpp"

namespace pdex::eq {

namespace {

const char* fn_name(Fn f) {
  static const char* names[] = {"exp", "log", "sqrt", "abs", "sin", "cos", "tan", "tanh", "sinh",
                                "cosh", "heaviside", "sign", "atan2", "min", "max", "pow", "mod"};
  return names[int(f)];
}

std::string literal(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "T(%.17g)", v);
  return buf;
}

class Emitter {
 public:
  Emitter(const Program& p, Target target) : p_(p), target_(target) {
    for (const Node& n : p.nodes)
      if (n.op == Op::div_tensor || n.op == Op::div_tensor_z) {
        const Node& k = p.nodes[std::size_t(n.a)];
        operands_.insert({k.a, k.b, k.c, n.b});
      } else if (is_operator(n.op)) {
        operands_.insert(n.a);
        if (n.op == Op::div_grad) operands_.insert(n.b);
      }
  }

  std::string body() {
    if (target_ == Target::stream) return star_body();
    // The cell's offset in the fields, formed once: neighbours are reached from it by constants and the
    // row pitch, as the built-in kernels reach them.
    std::string s = "  const int64_t co = c.u.offset(ci, cj, ck);\n";
    // Operands of the spatial operators and the defines, as functions of a cell (i, j, k) at offset o, in
    // node order (a node's operands come before it); then the defines at this cell, then the equations.
    std::size_t next_define = 0;
    for (std::size_t k = 0; k < p_.nodes.size(); ++k) {
      if (operands_.count(int(k)))
        s += cat({"  auto n", std::to_string(k), " = [&](int i, int j, int k, int64_t o) -> T { return ", expr(int(k), false), "; };\n"});
      while (next_define < p_.defines.size() && p_.defines[next_define] == int(k)) {
        s += cat({"  auto def", std::to_string(next_define), " = [&](int i, int j, int k, int64_t o) -> T { return ", expr(int(k), false),
                  "; };\n"});
        ++next_define;
      }
    }
    for (std::size_t d = 0; d < p_.defines.size(); ++d)
      s += cat({"  const T d", std::to_string(d), " = ", expr(p_.defines[d], true), ";\n"});
    for (std::size_t e = 0; e < p_.equations.size(); ++e) s += equation(e);
    return s;
  }

  // Where every spatial operator reads a species' five-point star: a streaming walk holds those in
  // registers (2D only).
  bool streamable() const {
    if (p_.volume) return false;
    for (const Node& n : p_.nodes)
      if (n.op == Op::div_tensor || n.op == Op::div_tensor_z) return false;
    for (const int k : operands_)
      if (p_.nodes[std::size_t(k)].op != Op::species && !uniform(k)) return false;
    return true;
  }

 private:
  // Whether node k is the same number at every cell: a constant, or a parameter that is a number.
  bool uniform(int k) const {
    const Node& n = p_.nodes[std::size_t(k)];
    return n.op == Op::constant || (n.op == Op::param && is_constant_param(p_, n.slot));
  }

  // Target::stream: the defines and the equations at the cell, its species' stars s[], its time t, its
  // parameters' offset co; the theta share as the device's (forward Euler's theta is 0).
  std::string star_body() const {
    std::string s;
    for (std::size_t d = 0; d < p_.defines.size(); ++d)
      s += cat({"  const T d", std::to_string(d), " = ", expr(p_.defines[d], true), ";\n"});
    for (std::size_t e = 0; e < p_.equations.size(); ++e) s += equation(e);
    return s;
  }

  // f[e] = its right-hand side, less the theta share of its implicit term.
  std::string equation(std::size_t e) const {
    const std::string f = cat({"f[", std::to_string(e), "]"});
    std::string s = cat({"  ", f, " = ", expr(p_.equations[e], true), ";\n"});
    // The theta scheme's explicit side: the implicit term's share theta taken out (interpreter.hpp), 0
    // with the other schemes (codegen.hpp's Target says why the host has no branch).
    const ImplicitTerm& d = p_.implicit[e];
    if (d.term >= 0)
      s += cat({target_ == Target::host ? "  " : "  if (c.theta != T(0)) ", f, " -= c.theta * (", literal(d.sign), " * ",
                expr(d.term, true), ");\n"});
    return s;
  }

  static bool is_operator(Op op) {
    return op == Op::lap || op == Op::grad_x || op == Op::grad_y || op == Op::grad_z || op == Op::grad_xf ||
           op == Op::grad_xb || op == Op::grad_yf || op == Op::grad_yb || op == Op::grad_zf || op == Op::grad_zb ||
           op == Op::advect || op == Op::advect_z || op == Op::div_grad;
  }

  // Node k at the cell (ci, cj, ck) at offset co (centre) or (i, j, k) at o (inside an operand's function).
  std::string expr(int k, bool centre) const {
    const Node& n = p_.nodes[std::size_t(k)];
    const std::string i = centre ? "ci" : "i", j = centre ? "cj" : "j", kz = centre ? "ck" : "k", o = centre ? "co" : "o";
    auto sub = [&](int a) { return expr(a, centre); };
    // Operand a at the cell di, dj, dk away ("", " - 1" or " + 1").
    auto at = [&](int a, const std::string& di, const std::string& dj, const std::string& dk = "") {
      if (target_ == Target::stream) {  // a species' star (streamable()): c, w, e, s or n; a number: itself
        if (uniform(a)) return expr(a, true);
        const char* member = !di.empty() ? (di[1] == '-' ? ".w" : ".e") : !dj.empty() ? (dj[1] == '-' ? ".s" : ".n") : ".c";
        return cat({"s[", std::to_string(p_.nodes[std::size_t(a)].slot), "]", member});
      }
      const std::string dy = dj.empty() ? "" : cat({dj.substr(0, 3), "c.h.pitch"});
      const std::string dz = dk.empty() ? "" : cat({dk.substr(0, 3), "c.h.plane"});
      return cat({"n", std::to_string(a), "(", i, di, ", ", j, dj, ", ", kz, dk, ", ", o, di, dy, dz, ")"});
    };
    // Operand a's values below, at and above the cell along z.
    auto column = [&](int a) { return cat({at(a, "", "", " - 1"), ", ", at(a, "", ""), ", ", at(a, "", "", " + 1")}); };
    // Operand a's five-point star in the plane dk away.
    auto star = [&](int a, const std::string& dk = "") {
      if (target_ == Target::stream && !uniform(a)) return cat({"s[", std::to_string(p_.nodes[std::size_t(a)].slot), "]"});
      return cat({"pdex::Star<T>{", at(a, "", "", dk), ", ", at(a, " - 1", "", dk), ", ", at(a, " + 1", "", dk), ", ",
                  at(a, "", " - 1", dk), ", ", at(a, "", " + 1", dk), "}"});
    };
    auto star3 = [&](int a) {
      return cat({"pdex::eq::Star3<T>{", star(a), ", ", at(a, "", "", " - 1"), ", ", at(a, "", "", " + 1"), "}"});
    };
    // Operand a's nine-point box in the plane.
    auto box = [&](int a) {
      return cat({"pdex::eq::Box<T>{", at(a, "", ""), ", ", at(a, " - 1", ""), ", ", at(a, " + 1", ""), ", ", at(a, "", " - 1"), ", ",
                  at(a, "", " + 1"), ", ", at(a, " - 1", " - 1"), ", ", at(a, " + 1", " - 1"), ", ", at(a, " - 1", " + 1"), ", ",
                  at(a, " + 1", " + 1"), "}"});
    };
    switch (n.op) {
      case Op::constant: return literal(n.value);
      case Op::species:
        if (target_ == Target::stream) return cat({"s[", std::to_string(n.slot), "].c"});
        return cat({"c.s(", std::to_string(n.slot), ", ", o, ")"});
      case Op::param:
        if (is_constant_param(p_, n.slot)) return cat({"c.consts.v[", std::to_string(n.slot), "]"});
        return cat({"c.p(", std::to_string(param_component(p_, n.slot)), ", ", o, ")"});
      case Op::define: return centre ? cat({"d", std::to_string(n.slot)}) : cat({"def", std::to_string(n.slot), "(i, j, k, o)"});
      case Op::x: return cat({"c.x(", i, ")"});
      case Op::y: return cat({"c.y(", j, ")"});
      case Op::z: return cat({"c.z(", kz, ")"});
      case Op::t: return target_ == Target::stream ? "t" : "c.t";
      case Op::dx: return "c.dx";
      case Op::dy: return "c.dy";
      case Op::dz: return "c.dz";
      case Op::length_x: return "c.lx";
      case Op::length_y: return "c.ly";
      case Op::length_z: return "c.lz";
      case Op::negate: return cat({"(-", sub(n.a), ")"});
      case Op::add: return cat({"(", sub(n.a), " + ", sub(n.b), ")"});
      case Op::sub: return cat({"(", sub(n.a), " - ", sub(n.b), ")"});
      case Op::mul: return cat({"(", sub(n.a), " * ", sub(n.b), ")"});
      case Op::div: return cat({"(", sub(n.a), " / ", sub(n.b), ")"});
      case Op::pow: return cat({"pdex::eq::func2(pdex::eq::Fn::pow, ", sub(n.a), ", ", sub(n.b), ")"});
      case Op::powi: return cat({"pdex::eq::power<", std::to_string(n.slot), ">(", sub(n.a), ")"});
      case Op::less: return cat({"T(", sub(n.a), " < ", sub(n.b), ")"});
      case Op::less_equal: return cat({"T(", sub(n.a), " <= ", sub(n.b), ")"});
      case Op::greater: return cat({"T(", sub(n.a), " > ", sub(n.b), ")"});
      case Op::greater_equal: return cat({"T(", sub(n.a), " >= ", sub(n.b), ")"});
      case Op::equal: return cat({"T(", sub(n.a), " == ", sub(n.b), ")"});
      case Op::not_equal: return cat({"T(", sub(n.a), " != ", sub(n.b), ")"});
      case Op::choose: return cat({"(", sub(n.a), " != T(0) ? ", sub(n.b), " : ", sub(n.c), ")"});
      case Op::func1: return cat({"pdex::eq::func1(pdex::eq::Fn::", fn_name(n.fn), ", ", sub(n.a), ")"});
      case Op::func2: return cat({"pdex::eq::func2(pdex::eq::Fn::", fn_name(n.fn), ", ", sub(n.a), ", ", sub(n.b), ")"});
      case Op::lap:
        if (p_.volume) return cat({"(pdex::lap(", star(n.a), ", c.h) + pdex::eq::lap_z(", column(n.a), ", c.h))"});
        return cat({"pdex::lap(", star(n.a), ", c.h)"});
      case Op::grad_x: return cat({"((", at(n.a, " + 1", ""), " - ", at(n.a, " - 1", ""), ") * c.h.ihdx)"});
      case Op::grad_y: return cat({"((", at(n.a, "", " + 1"), " - ", at(n.a, "", " - 1"), ") * c.h.ihdy)"});
      case Op::grad_xf: return cat({"((", at(n.a, " + 1", ""), " - ", at(n.a, "", ""), ") * c.h.idx)"});
      case Op::grad_xb: return cat({"((", at(n.a, "", ""), " - ", at(n.a, " - 1", ""), ") * c.h.idx)"});
      case Op::grad_yf: return cat({"((", at(n.a, "", " + 1"), " - ", at(n.a, "", ""), ") * c.h.idy)"});
      case Op::grad_yb: return cat({"((", at(n.a, "", ""), " - ", at(n.a, "", " - 1"), ") * c.h.idy)"});
      case Op::grad_z: return cat({"((", at(n.a, "", "", " + 1"), " - ", at(n.a, "", "", " - 1"), ") * c.h.ihdz)"});
      case Op::grad_zf: return cat({"((", at(n.a, "", "", " + 1"), " - ", at(n.a, "", ""), ") * c.h.idz)"});
      case Op::grad_zb: return cat({"((", at(n.a, "", ""), " - ", at(n.a, "", "", " - 1"), ") * c.h.idz)"});
      case Op::div_tensor: {
        const Node& tensor = p_.nodes[std::size_t(n.a)];
        return cat({"pdex::eq::div_tensor(", star(tensor.a), ", ", star(tensor.b), ", ", star(tensor.c), ", ", box(n.b), ", c.h)"});
      }
      case Op::div_tensor_z: {
        const Node& tensor = p_.nodes[std::size_t(n.a)];
        return cat({"pdex::eq::div_tensor_z(", star3(tensor.a), ", ", star3(tensor.b), ", ", star3(tensor.c), ", pdex::eq::Box3<T>{",
                    box(n.b), ", ", star(n.b, " - 1"), ", ", star(n.b, " + 1"), "}, c.h)"});
      }
      case Op::tensor:  // read by div_tensor and div_tensor_z only
      case Op::rand:
      case Op::randn: break;  // refused in equations (program.cpp)
      case Op::advect: return cat({"pdex::advect_upwind(", star(n.a), ", ", sub(n.b), ", ", sub(n.c), ", c.h)"});
      case Op::advect_z: return cat({"pdex::eq::advect_upwind_z(", column(n.a), ", ", sub(n.b), ", c.h)"});
      case Op::div_grad:
        if (p_.volume)
          return cat({"(pdex::eq::div_grad(", star(n.a), ", ", star(n.b), ", c.h) + pdex::eq::div_grad_z(", column(n.a), ", ",
                      column(n.b), ", c.h))"});
        return cat({"pdex::eq::div_grad(", star(n.a), ", ", star(n.b), ", c.h)"});
    }
    throw std::logic_error("codegen: no source for this node");
  }

  const Program& p_;
  Target target_;
  std::set<int> operands_;
};

}  // namespace

std::string rhs_body(const Program& p, Target target) { return Emitter(p, target).body(); }

bool streamable(const Program& p) { return Emitter(p, Target::stream).streamable(); }

std::string rhs_struct(const Program& p, Target target) {
  if (target == Target::stream)
    return cat({"struct StarRhs {\n  template <class T, class C>\n  PDEX_HD void operator()(const C& c, const pdex::Star<T>* s, int ci, int cj, int64_t co, T t, T* f) const {\n",
                rhs_body(p, target), "  }\n};\n"});
  return cat({"constexpr int N = ", std::to_string(p.equations.size()), ";  // species\n\n",
              "struct Rhs {\n  template <class T, class C>\n  PDEX_HD void operator()(const C& c, int ci, int cj, int ck, T* f) const {\n",
              rhs_body(p, target), "  }\n};\n"});
}

}  // namespace pdex::eq
