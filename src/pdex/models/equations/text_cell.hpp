#pragma once
// What the source generated from a text model (codegen.hpp) reads at a cell, and the Runge-Kutta stage
// around it (time/rk/rk_kernels.hpp's stores, so that every scheme's combinations and boundary images
// are the built-in models'): included by that source where it is compiled, so the layout is pdex's own.
#include <cstdint>
#ifndef __CUDACC_RTC__
#include <algorithm>
#endif

#include "pdex/grid/boundary.hpp"
#include "pdex/grid/field_view.hpp"
#include "pdex/grid/grid.hpp"
#include "pdex/grid/stencil.hpp"
#include "pdex/models/equations/functions.hpp"
#include "pdex/time/rk/rk_kernels.hpp"

namespace pdex::eq {

// [model.clamp]: species c kept >= floor[c] in each new state (the lowest number where it has none).
template <class T>
struct FloorLimit {
  T floor[max_components] = {};
  PDEX_HD T limit(int c, T x) const { return x < floor[c] ? floor[c] : x; }
};

// One stage of a text model's step: the right-hand sides at the stage argument, then the stores.
template <class T>
struct StageArgs {
  RkStores<T, FloorLimit<T>> st;
  FieldView<const T> arg, params;  // the stage argument (ghosts filled), the parameters
  Grid2 grid;
  Spacing<T> h;
  double t = 0;
  T theta = T(0);        // the share of the implicit terms taken out of the right-hand sides (theta scheme)
  T* error = nullptr;    // on a device, where the stage's largest error estimate goes; null: not wanted
};

// Arguments that read the species u and the parameters at time t, storing nothing (yet).
template <class T>
StageArgs<T> reading(const FieldView<const T>& u, const FieldView<const T>& params, const Grid2& g, double t = 0) {
  StageArgs<T> a;
  a.arg = u, a.params = params, a.grid = g, a.h = Spacing<T>::make(g.dx, g.dy, u.pitch), a.t = t;
  return a;
}

template <class T>
struct TextCell {
  FieldView<const T> u, params;
  Grid2 grid;
  Spacing<T> h;
  T t, dx, dy, lx, ly, theta;

  PDEX_HD explicit TextCell(const StageArgs<T>& a)
      : u(a.arg), params(a.params), grid(a.grid), h(a.h), t(T(a.t)), dx(T(a.grid.dx)), dy(T(a.grid.dy)),
        lx(T(a.grid.width())), ly(T(a.grid.height())), theta(a.theta) {}
  PDEX_HD T s(int k, int i, int j) const { return u(k, i, j); }
  PDEX_HD T p(int k, int i, int j) const { return params(k, i, j); }
  PDEX_HD T x(int i) const { return T(grid.x(i)); }
  PDEX_HD T y(int j) const { return T(grid.y(j)); }
};

// The stage at cell (i, j) for n <= N species; its error estimate. Rhs: rhs(cell, i, j, f), the
// generated function or the interpreter.
template <int N, class T, class Rhs>
PDEX_HD inline T stage_cell(const StageArgs<T>& a, const TextCell<T>& c, const Rhs& rhs, int i, int j, int n = N) {
  T f[N];
  rhs(c, i, j, f);
  return a.st.template combine<true, N>(i, j, a.st.u.offset(i, j), f, n);
}

#ifndef __CUDACC_RTC__
// The stage on rows j0 .. j1 - 1 (the executor shares the rows among its threads); the rows' largest
// error estimate. Away from the sides a row goes in chunks of cells: first their right-hand sides, a loop
// the compiler vectorizes, then their stores, which push no ghosts there.
template <int N, class T, class Rhs>
T stage_rows(const StageArgs<T>& a, int j0, int j1, const Rhs& rhs, int n = N) {
  constexpr int chunk = 32;
  const TextCell<T> c(a);
  const int g = a.st.out.ghost, nx = a.grid.nx;
  T e = T(0);
  auto keep = [&e](T ec) { e = ec > e ? ec : e; };  // combine turns NaN into infinity
  for (int j = j0; j < j1; ++j) {
    const bool inner = j >= g && j < a.grid.ny - g;
    const int lo = inner ? std::min(g, nx) : nx, hi = inner ? std::max(lo, nx - g) : nx;
    for (int i = 0; i < lo; ++i) keep(stage_cell<N>(a, c, rhs, i, j, n));
    for (int i0 = lo; i0 < hi; i0 += chunk) {
      const int m = std::min(chunk, hi - i0);
      T k[chunk][N];
      for (int q = 0; q < m; ++q) rhs(c, i0 + q, j, k[q]);
      const int64_t o = a.st.u.offset(i0, j);
      for (int q = 0; q < m; ++q) keep(a.st.template combine<false, N>(i0 + q, j, o + q, k[q], n));
    }
    for (int i = hi; i < nx; ++i) keep(stage_cell<N>(a, c, rhs, i, j, n));
  }
  return e;
}
#endif

}  // namespace pdex::eq
