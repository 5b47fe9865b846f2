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

// The parameters that are numbers (Program::constant_params), by slot: the first max_constants of them.
constexpr int max_constants = 32;
template <class T>
struct Constants {
  T v[max_constants] = {};
};

// One stage of a text model's step: the right-hand sides at the stage argument, then the stores.
template <class T>
struct StageArgs {
  RkStores<T, FloorLimit<T>> st;
  FieldView<const T> arg, params;  // the stage argument (ghosts filled), the parameters (every one, as fields)
  Constants<T> constants;          // the parameters that are numbers, again
  Grid2 grid;
  Spacing<T> h;
  double t = 0;
  T theta = T(0);        // the share of the implicit terms taken out of the right-hand sides (theta scheme)
  T* error = nullptr;    // on a device, where the stage's largest error estimate goes; null: not wanted
  int lo[3] = {}, hi[3] = {};  // the cells stepped, [lo, hi) along x, y, z: all of them (reading()) or a block's part
  // Push the ghost images of the cells beside a side; false (stage_rows, forward Euler's plain stores): every
  // cell stored as one beside no side, the caller pushing the images (host cache-blocked rows).
  bool images = true;
};

// Arguments that read the species u and the parameters at time t, storing nothing (yet).
template <class T>
StageArgs<T> reading(const FieldView<const T>& u, const FieldView<const T>& params, const Grid2& g, double t = 0) {
  StageArgs<T> a;
  a.arg = u, a.params = params, a.grid = g, a.t = t;
  a.hi[0] = g.nx, a.hi[1] = g.ny, a.hi[2] = g.nz;
  a.h = g.is_3d() ? Spacing<T>::make(g.dx, g.dy, u.pitch, g.dz, u.plane) : Spacing<T>::make(g.dx, g.dy, u.pitch);
  return a;
}

template <class T>
struct TextCell {
  FieldView<const T> u, params;
  Grid2 grid;
  Spacing<T> h;
  T t, dx, dy, dz, lx, ly, lz, theta;
  Constants<T> consts;

  PDEX_HD explicit TextCell(const StageArgs<T>& a)
      : u(a.arg), params(a.params), grid(a.grid), h(a.h), t(T(a.t)), dx(T(a.grid.dx)), dy(T(a.grid.dy)),
        dz(T(a.grid.dz)), lx(T(a.grid.width())), ly(T(a.grid.height())), lz(T(a.grid.depth())), theta(a.theta),
        consts(a.constants) {}
  // The same at offset o: the species and the parameters share a layout (one grid, one ghost width).
  PDEX_HD T s(int k, int64_t o) const { return u.data[k * u.comp_stride + o]; }
  PDEX_HD T p(int k, int64_t o) const { return params.data[k * params.comp_stride + o]; }
  PDEX_HD T x(int i) const { return T(grid.x(i)); }
  PDEX_HD T y(int j) const { return T(grid.y(j)); }
  PDEX_HD T z(int k) const { return T(grid.z(k)); }
};

// What a text model's streaming walk reads beside the species' stars (cuda/text_stream.cuh): the cell's data
// (its species view unread), the clamp, and each time level's time (forward Euler's stage times).
constexpr int max_stream_steps = 8;
template <class T>
struct TextStreamCell {
  TextCell<T> cell;
  FloorLimit<T> floor;
  T t[max_stream_steps] = {};
};

// The stores of cell (i, j, k) (k = 0 on a 2D grid) at offset o from its right-hand sides kv; its error
// estimate. A cell beside no side (MayBeEdge false) pushes no images.
template <bool MayBeEdge, int N, class T>
PDEX_HD inline T store_cell(const StageArgs<T>& a, int i, int j, int k, int64_t o, const T* kv, int n) {
  if (MayBeEdge && a.st.out.nz > 1) return a.st.template combine_volume<N>(i, j, k, o, kv, n);
  return a.st.template combine<MayBeEdge, N>(i, j, o, kv, n);
}

// The stage at cell (i, j, k) for n <= N species; its error estimate. Rhs: rhs(cell, i, j, k, f), the
// generated function or the interpreter.
template <int N, class T, class Rhs>
PDEX_HD inline T stage_cell(const StageArgs<T>& a, const TextCell<T>& c, const Rhs& rhs, int i, int j, int k, int n = N) {
  T f[N];
  rhs(c, i, j, k, f);
  return store_cell<true, N>(a, i, j, k, a.st.u.offset(i, j, k), f, n);
}

#ifndef __CUDACC_RTC__
// The cells a host stage takes at a time along a row: Rhs::chunk where the right-hand side says (the
// interpreter, whose work per chunk is paid once per node), else 32.
template <class Rhs>
constexpr int chunk_of() {
  if constexpr (requires { Rhs::chunk; }) return Rhs::chunk;
  else return 32;
}

// A stage that stores nothing but its new state u + w k and estimates no error (forward Euler's; its
// estimate is 0): species s of the chunk's cells q0 .. q1 - 1, the chunk at offset o, a loop the compiler
// vectorizes. The operations are RkStores::values' (u, plus the earlier stages' terms, none: 0, plus w k),
// so that a cell stored here or by combine gets the same bits, the sign of a zero included.
template <int N, int Chunk, class T>
void plain_stores(const RkStores<T, FloorLimit<T>>& st, int s, int64_t o, int q0, int q1, const T (&k)[N][Chunk]) {
  const T* u = st.u.comp(s) + o;
  T* out = st.out.comp(s) + o;
  const T w = st.w_sum;
  const T* ks = k[s];
  if (st.candidate) {
    const T floor = st.lim.floor[s];
    for (int q = q0; q < q1; ++q) {
      const T v = u[q] + T(0) + w * ks[q];
      out[q] = v < floor ? floor : v;
    }
  } else {
    for (int q = q0; q < q1; ++q) out[q] = u[q] + T(0) + w * ks[q];
  }
}

// The right-hand sides of the cells (i0 + q, j, k), q < m, species by species (ks[s][q]): by the chunk
// where Rhs takes chunks (the interpreter), else cell by cell (the generated function; a loop the
// compiler vectorizes).
template <int N, int Chunk, class T, class Rhs>
void chunk_rhs(const Rhs& rhs, const TextCell<T>& c, int i0, int j, int k, int m, T (&ks)[N][Chunk]) {
  if constexpr (requires { rhs(c, i0, j, k, m, ks); }) {
    rhs(c, i0, j, k, m, ks);
  } else {
    for (int q = 0; q < m; ++q) {
      T f[N];
      rhs(c, i0 + q, j, k, f);
      for (int s = 0; s < N; ++s) ks[s][q] = f[s];
    }
  }
}

// The stores of a cell beside a side, out of line: inlined at the three places stage_rows stores such
// cells, they made most of a compiled text's code and of its compile time (a row has two of them).
template <int N, class T>
[[gnu::noinline]] T store_edge_cell(const StageArgs<T>& a, int i, int j, int k, int64_t o, const T* kv, int n) {
  return store_cell<true, N>(a, i, j, k, o, kv, n);
}

// The stage on rows r0 .. r1 - 1 of FieldView::interior_rows() (row r % ny of plane r / ny; the executor
// shares the rows among its threads), their cells from a.lo[0] to a.hi[0]; the rows' largest error estimate. A row goes in chunks of cells:
// first their right-hand sides, then their stores, which push ghost images only at cells beside a side
// (plain_stores away from the sides, where it can; everywhere without a.images).
template <int N, class T, class Rhs>
T stage_rows(const StageArgs<T>& a, int r0, int r1, const Rhs& rhs, int n = N) {
  const TextCell<T> c(a);
  const int g = a.st.out.ghost, nx = a.grid.nx, ny = a.grid.ny, nz = a.grid.nz;
  const bool plain = !a.st.k.data && a.st.sum.n == 0 && a.st.err.n == 0 && a.st.w_err == T(0);
  constexpr int chunk = chunk_of<Rhs>();
  T e = T(0);
  T k[N][chunk];
  // Cell q's stores, from its right-hand sides; combine turns NaN into infinity.
  auto store = [&]<bool MayBeEdge>(int i0, int j, int plane, int64_t o, int q) {
    T kv[N];
    for (int s = 0; s < n; ++s) kv[s] = k[s][q];
    T ec;
    if constexpr (MayBeEdge) ec = store_edge_cell<N>(a, i0 + q, j, plane, o + q, kv, n);
    else ec = store_cell<false, N>(a, i0 + q, j, plane, o + q, kv, n);
    e = ec > e ? ec : e;
  };
  for (int r = r0; r < r1; ++r) {
    const int j = nz > 1 ? r % ny : r, plane = nz > 1 ? r / ny : 0;
    const bool inner = j >= g && j < ny - g && (nz == 1 || (plane >= g && plane < nz - g));
    int lo = inner ? std::min(g, nx) : nx, hi = inner ? std::max(lo, nx - g) : nx;  // the cells beside no side
    if (!a.images) lo = 0, hi = nx;
    for (int i0 = a.lo[0]; i0 < a.hi[0]; i0 += chunk) {
      const int m = std::min(chunk, a.hi[0] - i0);
      chunk_rhs<N>(rhs, c, i0, j, plane, m, k);
      const int64_t o = a.st.u.offset(i0, j, plane);
      const int q0 = std::clamp(lo - i0, 0, m), q1 = std::clamp(hi - i0, q0, m);
      for (int q = 0; q < q0; ++q) store.template operator()<true>(i0, j, plane, o, q);
      if (plain) {
        for (int s = 0; s < n; ++s) plain_stores<N>(a.st, s, o, q0, q1, k);
      } else {
        for (int q = q0; q < q1; ++q) store.template operator()<false>(i0, j, plane, o, q);
      }
      for (int q = q1; q < m; ++q) store.template operator()<true>(i0, j, plane, o, q);
    }
  }
  return e;
}
#endif

}  // namespace pdex::eq
