#pragma once
// Relaxation sweeps of a five-point operator on the host. A red-black sweep goes in one pass over memory: the rows go up once,
// red row j and then black row j - 1, whose neighbours (red rows j - 2 .. j) are new by then; a row's
// inner cells of one colour are a stride-2 loop without boundary tests, a component at a time, which
// vectorizes. Every cell is updated from the same values by the same operations as in two colour passes
// (color_sweep), so the results are bitwise the same; only the order of work differs.
#include <algorithm>
#include <cstdint>

#include "pdex/core/parallel_host.hpp"
#include "pdex/core/reduce_ops.hpp"
#include "pdex/grid/block_step.hpp"
#include "pdex/grid/boundary.hpp"
#include "pdex/grid/field_view.hpp"
#include "pdex/linalg/point_relax.hpp"

namespace pdex {
namespace detail {

// Component c at the n cells (i0, j), (i0 + step, j), ..., none of them near a side, from `in` into
// `out` (the same field for Gauss-Seidel, whose cells of one colour are two apart); their largest
// |change| if Measure. PerCell: the component has a per-cell coefficient, and so a diagonal per cell.
template <bool Measure, bool PerCell, class T, class Op>
T relax_inner_cells(const Op& a, const FieldView<const T>& in, const FieldView<const T>& b, const FieldView<T>& out,
                    T omega, int c, int j, int i0, int n, int step) {
  const T* x = in.comp(c);
  const T* bc = b.comp(c);
  T* xo = out.comp(c);
  const T* d = a.d[c];
  const int64_t o0 = in.offset(i0, j), p = in.pitch;
  const T beta = a.beta[c], inner_inv = a.inner_inv[c];
  T m = T(0);
#pragma omp simd reduction(max : m)
  for (int k = 0; k < n; ++k) {
    const int64_t o = o0 + int64_t(step) * k;
    const T v = x[o];
    const T coef = PerCell ? beta * d[o] : beta;
    const T inv = PerCell ? T(1) / a.diag_at(Edges2{}, c, coef) : inner_inv;
    const T dx = omega * (bc[o] - a.apply5_with(coef, v, x[o - 1], x[o + 1], x[o - p], x[o + p])) * inv;
    xo[o] = v + dx;
    if constexpr (Measure) m = larger_change(m, abs_of(dx));
  }
  return m;
}

// Row j's cells from, from + step, ... below `to`, from `in` into `out`: relax_point near the sides, the
// vectorized loop (relax_inner_cells) away from them; their largest |change| (0 when not `measure`).
template <class T, class Op>
T relax_row_cells(const Op& a, const FieldView<const T>& in, const FieldView<const T>& b, const FieldView<T>& out,
                  const FieldBoundary& bc, T omega, int j, int from, int step, bool measure, int to) {
  const int g = in.ghost;
  auto points = [&](int i0, int i1) {
    T m = T(0);
    for (int i = i0; i < i1; i += step) m = larger_change(m, relax_point(a, in, b, out, bc, omega, i, j));
    return m;
  };
  if (j < g || j >= in.ny - g) {
    const T m = points(from, to);
    return measure ? m : T(0);
  }
  int lo = from;
  while (lo < g) lo += step;
  const int n = std::max(0, (std::min(to, in.nx - g) - lo + step - 1) / step);
  T m = points(from, std::min(lo, to));
  for (int c = 0; c < in.ncomp; ++c) {
    const bool per_cell = a.d[c] != nullptr;
    const T inner = measure ? (per_cell ? relax_inner_cells<true, true>(a, in, b, out, omega, c, j, lo, n, step)
                                        : relax_inner_cells<true, false>(a, in, b, out, omega, c, j, lo, n, step))
                            : (per_cell ? relax_inner_cells<false, true>(a, in, b, out, omega, c, j, lo, n, step)
                                        : relax_inner_cells<false, false>(a, in, b, out, omega, c, j, lo, n, step));
    m = larger_change(m, inner);
  }
  m = larger_change(m, points(lo + step * n, to));
  return measure ? m : T(0);
}

// The cells of colour `color` in row j from i0 below i1, in place.
template <class T, class Op>
T relax_row(const Op& a, const FieldView<T>& x, const FieldView<const T>& b, const FieldBoundary& bc, T omega,
            int color, int j, bool measure, int i0, int i1) {
  return relax_row_cells(a, as_const(x), b, x, bc, omega, j, i0 + ((i0 + j + color) & 1), 2, measure, i1);
}

}  // namespace detail

// rb_sweep of a five-point operator on a host executor. A block of rows (a thread's) first relaxes its
// red rows and the black rows between them; its first and last black rows, whose neighbours may lie in
// other blocks or across a periodic side (ghost row -1 is red row ny - 1's image), wait for every red row.
template <class Exec, class T, class Op>
T host_rb_sweep(const Exec& ex, const Op& op, FieldView<T> x, FieldView<const T> b, const FieldBoundary& bc, T omega,
                bool reverse, bool measure) {
  const Op a = op.refreshed();
  const int red = reverse ? 1 : 0, black = 1 - red;
  auto row = [&](int color, int j) { return detail::relax_row(a, x, b, bc, omega, color, j, measure, 0, x.nx); };
  auto wavefront = [&](int j0, int j1) {
    T m = T(0);
    for (int j = j0; j < j1; ++j) {
      m = detail::larger_change(m, row(red, j));
      if (j - 1 > j0) m = detail::larger_change(m, row(black, j - 1));
    }
    return m;
  };
  auto ends = [&](int j0, int j1) {
    const T m = row(black, j0);
    return j1 - 1 > j0 ? detail::larger_change(m, row(black, j1 - 1)) : m;
  };
  return reduce_row_blocks<T>(ex, 0, x.ny, wavefront, ends, Max<T>{});
}

// color_sweep of a five-point operator on a host executor over box `box`: the rows of one colour's cells,
// a row's inner cells in the loop that vectorizes (a block of a grid split among ranks sweeps a colour at
// a time).
template <class Exec, class T, class Op>
T host_color_sweep(const Exec& ex, const Op& op, FieldView<T> x, FieldView<const T> b, const FieldBoundary& bc, T omega,
                   int color, bool measure, const CellBox& box) {
  const Op a = op.refreshed();
  auto row = [&](int, int j) { return detail::relax_row(a, x, b, bc, omega, color, j, measure, box.lo[0], box.hi[0]); };
  return reduce<T>(ex, Range2{0, 1, box.lo[1], box.hi[1]}, row, Max<T>{});
}

// jacobi_sweep of a five-point operator on a host executor over box `box`: row by row, the inner cells of
// a row in a loop that vectorizes.
template <class Exec, class T, class Op>
T host_jacobi_sweep(const Exec& ex, const Op& op, FieldView<const T> in, FieldView<const T> b, FieldView<T> out,
                    const FieldBoundary& bc, T omega, bool measure, const CellBox& box) {
  const Op a = op.refreshed();
  auto row = [&](int, int j) { return detail::relax_row_cells(a, in, b, out, bc, omega, j, box.lo[0], 1, measure, box.hi[0]); };
  return reduce<T>(ex, Range2{0, 1, box.lo[1], box.hi[1]}, row, Max<T>{});
}

}  // namespace pdex
