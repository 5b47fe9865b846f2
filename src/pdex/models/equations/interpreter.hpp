#pragma once
// Runs a Program cell by cell, walking its nodes: the reference every compiled form of a text model is
// tested against, and what runs where no compiler is found. Arithmetic is in T, as in the built-in
// kernels, and the spatial operators are the grid layer's stencils (grid/stencil.hpp).
#include <vector>

#include "pdex/models/equations/program.hpp"
#include "pdex/models/equations/text_cell.hpp"

namespace pdex::eq {

template <class T>
class Interpreter {
 public:
  explicit Interpreter(const Program& p) : p_(p) {}

  // f[s] = the right-hand side of species s at cell (i, j) (the generated function's signature).
  void operator()(const TextCell<T>& cell, int i, int j, T* f) const {
    T defs[max_defines];
    const Cell c{cell, i, j, defs};
    for (std::size_t k = 0; k < p_.defines.size(); ++k) defs[k] = eval(p_.defines[k], c, i, j);
    for (std::size_t s = 0; s < p_.equations.size(); ++s) {
      f[s] = eval(p_.equations[s], c, i, j);
      const ImplicitTerm& d = p_.implicit[s];
      if (d.term >= 0 && cell.theta != T(0)) f[s] -= cell.theta * (T(d.sign) * eval(d.term, c, i, j));
    }
  }

 private:
  struct Cell {
    const TextCell<T>& in;
    int i, j;  // the cell whose defines `defs` holds
    const T* defs;
  };

  T at(int n, const Cell& c, int i, int j) const { return eval(n, c, i, j); }
  Star<T> star(int n, const Cell& c, int i, int j) const {
    return {at(n, c, i, j), at(n, c, i - 1, j), at(n, c, i + 1, j), at(n, c, i, j - 1), at(n, c, i, j + 1)};
  }

  T eval(int index, const Cell& c, int i, int j) const {
    const Node& n = p_.nodes[std::size_t(index)];
    switch (n.op) {
      case Op::constant: return T(n.value);
      case Op::species: return c.in.s(n.slot, i, j);
      case Op::param: return c.in.p(n.slot, i, j);
      case Op::define: return i == c.i && j == c.j ? c.defs[n.slot] : eval(p_.defines[std::size_t(n.slot)], c, i, j);
      case Op::x: return c.in.x(i);
      case Op::y: return c.in.y(j);
      case Op::t: return c.in.t;
      case Op::dx: return c.in.dx;
      case Op::dy: return c.in.dy;
      case Op::length_x: return c.in.lx;
      case Op::length_y: return c.in.ly;
      case Op::negate: return -at(n.a, c, i, j);
      case Op::choose: return at(n.a, c, i, j) != T(0) ? at(n.b, c, i, j) : at(n.c, c, i, j);
      case Op::powi: return power(at(n.a, c, i, j), n.slot);
      case Op::func1: return func1(n.fn, at(n.a, c, i, j));
      case Op::lap: return lap(star(n.a, c, i, j), c.in.h);
      case Op::grad_x: return (at(n.a, c, i + 1, j) - at(n.a, c, i - 1, j)) * c.in.h.ihdx;
      case Op::grad_y: return (at(n.a, c, i, j + 1) - at(n.a, c, i, j - 1)) * c.in.h.ihdy;
      case Op::advect: return advect_upwind(star(n.a, c, i, j), at(n.b, c, i, j), at(n.c, c, i, j), c.in.h);
      case Op::div_grad: return div_grad(n, c, i, j);
      default: return binary(n, at(n.a, c, i, j), at(n.b, c, i, j));
    }
  }

  T div_grad(const Node& n, const Cell& c, int i, int j) const {
    return eq::div_grad(star(n.a, c, i, j), star(n.b, c, i, j), c.in.h);
  }

  static T binary(const Node& n, T a, T b) {
    switch (n.op) {
      case Op::add: return a + b;
      case Op::sub: return a - b;
      case Op::mul: return a * b;
      case Op::div: return a / b;
      case Op::pow: return func2(Fn::pow, a, b);
      case Op::less: return T(a < b);
      case Op::less_equal: return T(a <= b);
      case Op::greater: return T(a > b);
      case Op::greater_equal: return T(a >= b);
      case Op::equal: return T(a == b);
      case Op::not_equal: return T(a != b);
      default: return func2(n.fn, a, b);
    }
  }

  const Program& p_;
};

}  // namespace pdex::eq
