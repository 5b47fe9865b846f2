#pragma once
// Runs a Program cell by cell, walking its nodes: the reference every compiled form of a text model is
// tested against, and what runs where no compiler is found. Arithmetic is in T, as in the built-in
// kernels, and the spatial operators are the grid layer's stencils (grid/stencil.hpp).
#include <cmath>
#include <climits>
#include <cstdint>
#include <vector>

#include "pdex/core/hash.hpp"
#include "pdex/models/equations/program.hpp"
#include "pdex/models/equations/text_cell.hpp"

namespace pdex::eq {

template <class T>
class Interpreter {
 public:
  // seed: rand()'s and randn()'s (in the expressions of initial values and parameters).
  explicit Interpreter(const Program& p, uint64_t seed = 0) : p_(p), seed_(seed) {}

  // f[s] = the right-hand side of species s at cell (i, j) (the generated function's signature).
  void operator()(const TextCell<T>& cell, int i, int j, T* f) const {
    T defs[max_defines];
    const Cell c{cell, i, j, defs};
    for (std::size_t k = 0; k < p_.defines.size(); ++k) defs[k] = eval(p_.defines[k], c, i, j);
    for (std::size_t s = 0; s < p_.equations.size(); ++s) {
      f[s] = eval(p_.equations[s], c, i, j);
      const ImplicitTerm& d = p_.implicit[s];
      // The generated host source subtracts without a branch: with theta = 0 that leaves f[s] as it is
      // (up to the sign of a zero, and a NaN where the term is infinite), so the interpreter skips it.
      if (d.term >= 0 && cell.theta != T(0)) f[s] -= cell.theta * (T(d.sign) * eval(d.term, c, i, j));
    }
  }

  // Node n at cell (i, j), the defines it uses evaluated there.
  T node(const TextCell<T>& cell, int n, int i, int j) const { return eval(n, Cell{cell, INT_MIN, INT_MIN, nullptr}, i, j); }

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

  Box<T> box(int n, const Cell& c, int i, int j) const {
    return {at(n, c, i, j),         at(n, c, i - 1, j),     at(n, c, i + 1, j),     at(n, c, i, j - 1),    at(n, c, i, j + 1),
            at(n, c, i - 1, j - 1), at(n, c, i + 1, j - 1), at(n, c, i - 1, j + 1), at(n, c, i + 1, j + 1)};
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
      case Op::grad_xf: return (at(n.a, c, i + 1, j) - at(n.a, c, i, j)) * c.in.h.idx;
      case Op::grad_xb: return (at(n.a, c, i, j) - at(n.a, c, i - 1, j)) * c.in.h.idx;
      case Op::grad_yf: return (at(n.a, c, i, j + 1) - at(n.a, c, i, j)) * c.in.h.idy;
      case Op::grad_yb: return (at(n.a, c, i, j) - at(n.a, c, i, j - 1)) * c.in.h.idy;
      case Op::rand: case Op::randn: return T(draw(n, c.in.grid, i, j));
      case Op::advect: return advect_upwind(star(n.a, c, i, j), at(n.b, c, i, j), at(n.c, c, i, j), c.in.h);
      case Op::div_grad: return div_grad(n, c, i, j);
      case Op::div_tensor: {
        const Node& k = p_.nodes[std::size_t(n.a)];
        return eq::div_tensor(star(k.a, c, i, j), star(k.b, c, i, j), star(k.c, c, i, j), box(n.b, c, i, j), c.in.h);
      }
      default: return binary(n, at(n.a, c, i, j), at(n.b, c, i, j));
    }
  }

  T div_grad(const Node& n, const Cell& c, int i, int j) const {
    return eq::div_grad(star(n.a, c, i, j), star(n.b, c, i, j), c.in.h);
  }

  // Cell (i, j)'s draw of call site n.slot: a function of the seed, the site and the cell alone, so the
  // same on every backend and in any order of the cells.
  double draw(const Node& n, const Grid2& g, int i, int j) const {
    uint64_t state = seed_ * 0x9E3779B97F4A7C15ull ^ uint64_t(n.slot) << 48 ^ uint64_t(g.extents().index(i, j)) << 1;
    const double u1 = unit_draw(state);
    if (n.op == Op::rand) return u1;
    const double u2 = unit_draw(state);  // Box-Muller
    return std::sqrt(-2 * std::log1p(-u1)) * std::cos(6.283185307179586 * u2);
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
  uint64_t seed_;
};

// Node `root` at every cell, row by row ([y][x]): the species u (ghosts filled) and the parameters read
// at time t, rand() and randn() drawn from `seed`.
template <class T>
std::vector<double> cells_of(const Program& p, int root, const FieldView<const T>& u, const FieldView<const T>& params,
                             const Grid2& g, double t = 0, uint64_t seed = 0) {
  const TextCell<T> cell(reading(u, params, g, t));
  const Interpreter<T> run(p, seed);
  std::vector<double> v(std::size_t(g.cells()));
  for_each_cell(g.extents(), [&](int i, int j) { v[std::size_t(g.extents().index(i, j))] = double(run.node(cell, root, i, j)); });
  return v;
}

}  // namespace pdex::eq
