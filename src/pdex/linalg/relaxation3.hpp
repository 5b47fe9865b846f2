#pragma once
// Point relaxation of a 3D grid's operator (helmholtz3.hpp): weighted Jacobi and red-black Gauss-Seidel /
// SOR, the colour of cell (i, j, k) being (i + j + k) % 2 (eight colours for a tensor's nineteen points).
// The same update as relaxation.hpp's, with each changed value's images pushed within its plane and across
// z; overloads that the solvers (LinearSolver, Multigrid3) pick by the operator's type. The same caveat on
// periodic axes of odd length as color_sweep's.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "pdex/core/executor.hpp"
#include "pdex/core/parallel.hpp"
#include "pdex/grid/boundary.hpp"
#include "pdex/grid/field.hpp"
#include "pdex/grid/field_view.hpp"
#include "pdex/linalg/helmholtz3.hpp"
#include "pdex/linalg/point_relax.hpp"
#include "pdex/linalg/relaxation.hpp"

namespace pdex {

// A 3D tensor operator's diagonal kept per cell in `store` (made with `layout`'s shape), op pointing at it:
// the probe costs a stencil, which every point update of a sweep would pay again. The operator's
// coefficients and sides must not change afterwards (a level built from it keeps its own). Nothing for
// the other operators, whose diagonal is a formula.
template <class Exec, class Op, class T>
void keep_diagonal(const Exec& ex, Op& op, const Field<T>& layout, Field<T>& store) {
  if constexpr (Op::volume() && Op::tensor()) {
    op.dg = nullptr;
    store = layout.like(Exec::space);
    const FieldView<T> s = store.view();
    const Op probed = op;
    for_each_cell(ex, s.interior_rows(), [=] PDEX_HD(int i, int r) {
      const int64_t o = s.row_offset(i, r);
      for (int c = 0; c < s.ncomp; ++c) s.comp(c)[o] = probed.diag(i, r, c, o);
    });
    op.dg = s.data;
    op.dg_stride = s.comp_stride;
  }
}

namespace detail {
// x += omega D^-1 (b - A in) at cell (i, j, k), into out, every component, with the images; the largest
// |change|.
template <class T, bool Tensor>
PDEX_HD inline T relax_point3(const Helmholtz3<T, Tensor>& op, const FieldView<const T>& in, const FieldView<const T>& b,
                              const FieldView<T>& out, const FieldBoundary& bc, T omega, int i, int j, int k) {
  const int64_t o = in.offset(i, j, k);
  T change = T(0);
  for (int c = 0; c < in.ncomp; ++c) {
    const T dx = omega * (b.comp(c)[o] - op.apply_at(in.comp(c), o, c)) / op.diag_at(i, j, k, c, o);
    const T v = in.comp(c)[o] + dx;
    out.comp(c)[o] = v;
    push_cell_images(out, bc, c, i, j, k, v);
    change = larger_change(change, abs_of(dx));
  }
  return change;
}
}  // namespace detail

// Over box `box` (not empty), and over every cell.
template <class Exec, class T, bool Tensor>
T jacobi_sweep(const Exec& ex, const Helmholtz3<T, Tensor>& op, FieldView<const T> in, FieldView<const T> b, FieldView<T> out,
               const FieldBoundary& bc, T omega, bool measure, const CellBox& box) {
  const int ny = in.ny;
  auto cell = [=] PDEX_HD(int i, int r) {
    return detail::relax_point3(op, in, b, out, bc, omega, i, r % ny, r / ny);
  };
  return detail::sweep_box<T>(ex, box, ny, cell, measure);
}
template <class Exec, class T, bool Tensor>
T jacobi_sweep(const Exec& ex, const Helmholtz3<T, Tensor>& op, FieldView<const T> in, FieldView<const T> b, FieldView<T> out,
               const FieldBoundary& bc, T omega, bool measure) {
  return jacobi_sweep(ex, op, in, b, out, bc, omega, measure, whole_box(in.extents()));
}

namespace detail {
// The host's colour sweep over box `box` without a measured change (multigrid's smoothing): row by row, a
// row's cells of the colour away from every side in a stride-2 loop without edge tests or divisions, which
// vectorizes, the rest point by point with their images. The same update as relax_point3's.
template <class Exec, class T>
void host_color_sweep3(const Exec& ex, const Helmholtz3<T>& op, FieldView<T> x, FieldView<const T> b,
                       const FieldBoundary& bc, T omega, int color, const CellBox& box) {
  const int ny = x.ny, g = x.ghost, i0 = box.lo[0], i1 = box.hi[0];
  const T cross = T(2) * op.h.idx2 + T(2) * op.h.idy2 + T(2) * op.h.idz2;  // diag_at's away from the sides
  const BoxRows rows = box_rows(box);
  for_each_row(ex, 0, int(box_range(box).height()), [&](int row) {
    const int j = rows.row(row), k = rows.plane(row), first = i0 + ((i0 + j + k + color) & 1);
    const auto points = [&](int from, int to) {
      for (int i = from; i < to; i += 2) relax_point3(op, as_const(x), b, x, bc, omega, i, j, k);
    };
    if (j < g || j >= ny - g || near_z_side(x, k)) return points(first, i1);
    int lo = first;
    while (lo < g) lo += 2;
    const int n = std::max(0, (std::min(i1, x.nx - g) - lo + 1) / 2);
    points(first, std::min(lo, i1));
    const int64_t o0 = x.offset(lo, j, k);
    for (int c = 0; c < x.ncomp; ++c) {
      T* p = x.comp(c);
      const T* f = b.comp(c);
#pragma omp simd
      for (int q = 0; q < n; ++q) {
        const int64_t o = o0 + 2 * int64_t(q);
        const T dx = omega * (f[o] - op.apply_at(p, o, c)) / (op.alpha + op.coef(c, o) * cross);
        p[o] = p[o] + dx;
      }
    }
    points(lo + 2 * n, i1);
  });
}
}  // namespace detail

// The cells of one colour in box `box` (not empty), in place: a thread per cell of the colour (on the
// host, unmeasured: rows, host_color_sweep3).
template <class Exec, class T, bool Tensor>
T color_sweep(const Exec& ex, const Helmholtz3<T, Tensor>& op, FieldView<T> x, FieldView<const T> b,
              const FieldBoundary& bc, T omega, int color, bool measure, const CellBox& box) {
  if constexpr (Exec::space == MemorySpace::host && !Tensor)
    if (!measure) {
      detail::host_color_sweep3(ex, op, x, b, bc, omega, color, box);
      return T(0);
    }
  const int i0 = box.lo[0], i1 = box.hi[0];
  const BoxRows rows = box_rows(box);
  auto cell = [=] PDEX_HD(int p, int q) {
    const int j = rows.row(q), k = rows.plane(q), i = 2 * p + ((j + k + color) & 1);
    if (i < i0 || i >= i1) return T(0);
    return detail::relax_point3(op, as_const(x), b, x, bc, omega, i, j, k);
  };
  return detail::sweep_cells<T>(ex, Range2{i0 / 2, (i1 + 1) / 2, 0, int(box_range(box).height())}, cell, measure);
}
template <class Exec, class T, bool Tensor>
T color_sweep(const Exec& ex, const Helmholtz3<T, Tensor>& op, FieldView<T> x, FieldView<const T> b,
              const FieldBoundary& bc, T omega, int color, bool measure) {
  return color_sweep(ex, op, x, b, bc, omega, color, measure, whole_box(x.extents()));
}

// Gauss-Seidel for a tensor's nineteen points, which reach the twelve edge neighbours (not the corners):
// eight colours, i % 2 + 2 (j % 2) + 4 (k % 2), no two cells of which are neighbours. One colour, in box
// `box` (not empty), its pairs of rows and of planes numbered as BoxRows numbers rows:
template <class Exec, class T>
T tensor_color_sweep(const Exec& ex, const Helmholtz3<T, true>& op, FieldView<T> x, FieldView<const T> b,
                     const FieldBoundary& bc, T omega, int color, bool measure, const CellBox& box) {
  const CellBox pairs{{box.lo[0] / 2, box.lo[1] / 2, box.lo[2] / 2}, {(box.hi[0] + 1) / 2, (box.hi[1] + 1) / 2, (box.hi[2] + 1) / 2}};
  const BoxRows rows = box_rows(pairs);
  auto cell = [=] PDEX_HD(int p, int q) {
    const int i = 2 * p + (color & 1), j = 2 * rows.row(q) + (color >> 1 & 1), k = 2 * rows.plane(q) + (color >> 2);
    if (i < box.lo[0] || i >= box.hi[0] || j < box.lo[1] || j >= box.hi[1] || k < box.lo[2] || k >= box.hi[2]) return T(0);
    return detail::relax_point3(op, as_const(x), b, x, bc, omega, i, j, k);
  };
  return detail::sweep_cells<T>(ex, box_range(pairs), cell, measure);
}
template <class Exec, class T>
T tensor_color_sweep(const Exec& ex, const Helmholtz3<T, true>& op, FieldView<T> x, FieldView<const T> b,
                     const FieldBoundary& bc, T omega, int color, bool measure) {
  return tensor_color_sweep(ex, op, x, b, bc, omega, color, measure, whole_box(x.extents()));
}

// out = one rb_sweeps of in, which is left as it was; in's ghosts must hold its boundary images, and out
// gets the images the sweep in place writes. On a GPU one launch that walks planes of shared-memory
// tiles, one pass over memory where in place each colour takes one (cuda/tile_sweep3.cu: the colours
// must close), the in-place sweep's values bit for bit; elsewhere a copy and the sweep in place.
template <class Exec, class T>
void rb_sweep3_into(const Exec& ex, const Helmholtz3<T>& op, FieldView<const T> in, FieldView<const T> b,
                    FieldView<T> out, const FieldBoundary& bc, T omega, bool reverse) {
  detail::copy_and_sweep(ex, op, in, b, out, bc, omega, reverse, false);
}

// `sweeps` red-black sweeps in place (black first when `reverse`), or a tensor's eight colours
// (tensor_sweep); the last one's largest change if `measure`, else 0.
template <class Exec, class T, bool Tensor>
T rb_sweeps(const Exec& ex, const Helmholtz3<T, Tensor>& op, FieldView<T> x, FieldView<const T> b,
            const FieldBoundary& bc, T omega, bool reverse, int sweeps, bool measure) {
  T largest = T(0);
  const int first = reverse ? 1 : 0;
  for (int s = 0; s < sweeps; ++s) {
    const bool m = measure && s == sweeps - 1;
    if constexpr (Tensor) {
      largest = tensor_sweep(ex, op, x, b, bc, omega, reverse, m);
    } else {
      const T m0 = color_sweep(ex, op, x, b, bc, omega, first, m);
      const T m1 = color_sweep(ex, op, x, b, bc, omega, 1 - first, m);
      largest = std::max(m0, m1);
    }
  }
  return largest;
}

}  // namespace pdex
