#pragma once
// What the source generated from a text model (codegen.hpp) reads at a cell, and the forward-Euler
// step around it: included by that source where it is compiled, so the layout is pdex's own.
#include <cstdint>

#include "pdex/grid/boundary.hpp"
#include "pdex/grid/field_view.hpp"
#include "pdex/grid/grid.hpp"
#include "pdex/grid/stencil.hpp"
#include "pdex/models/equations/functions.hpp"

namespace pdex::eq {

// One forward-Euler step of a text model: out = u + dt f(u) on the interior cells.
template <class T>
struct EulerArgs {
  FieldView<const T> u, params;
  FieldView<T> out;
  Grid2 grid;
  double t = 0, dt = 0;
  int species = 0;
  bool clamped = false;             // [model.clamp]: species k kept >= floor[k]
  T floor[max_components] = {};
};

template <class T>
struct TextCell {
  FieldView<const T> u, params;
  Grid2 grid;
  Spacing<T> h;
  T t, dx, dy, lx, ly;

  PDEX_HD TextCell(const FieldView<const T>& species, const FieldView<const T>& parameters, const Grid2& g, double time)
      : u(species), params(parameters), grid(g), h(Spacing<T>::make(g.dx, g.dy, 0)), t(T(time)), dx(T(g.dx)),
        dy(T(g.dy)), lx(T(g.width())), ly(T(g.height())) {}
  PDEX_HD T s(int k, int i, int j) const { return u(k, i, j); }
  PDEX_HD T p(int k, int i, int j) const { return params(k, i, j); }
  PDEX_HD T x(int i) const { return T(grid.x(i)); }
  PDEX_HD T y(int j) const { return T(grid.y(j)); }
};

// The step at cell (i, j). Rhs: rhs(cell, i, j, f), the generated function or the interpreter.
template <class T, class Rhs>
PDEX_HD inline void euler_cell(const EulerArgs<T>& a, const TextCell<T>& c, const Rhs& rhs, int i, int j) {
  T f[max_components];
  rhs(c, i, j, f);
  for (int k = 0; k < a.species; ++k) {
    const T v = a.u(k, i, j) + T(a.dt) * f[k];
    a.out(k, i, j) = a.clamped && v < a.floor[k] ? a.floor[k] : v;  // the built-in models' ClampBelow
  }
}

// The step on rows j0 .. j1 - 1 (the executor shares the rows among its threads).
template <class T, class Rhs>
void euler_rows(const EulerArgs<T>& a, int j0, int j1, const Rhs& rhs) {
  const TextCell<T> c(a.u, a.params, a.grid, a.t);
  for (int j = j0; j < j1; ++j)
    for (int i = 0; i < a.grid.nx; ++i) euler_cell(a, c, rhs, i, j);
}

}  // namespace pdex::eq
