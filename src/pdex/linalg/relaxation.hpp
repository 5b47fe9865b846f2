#pragma once
// Point relaxation for A x = b (A a Helmholtz-type operator): weighted Jacobi, and red-black Gauss-Seidel /
// SOR (four colours for the nine points of a tensor). Each sweep writes the boundary images of the values
// it changes (push_ghosts), so no separate ghost pass is needed; a sweep can also return the largest change
// it made (the L-infinity test of seed 000, sec. 3.2.3, and the stopping rule of seed 004), at the price of
// a reduction.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "pdex/core/executor.hpp"
#include "pdex/core/parallel.hpp"
#include "pdex/grid/block_step.hpp"
#include "pdex/grid/boundary.hpp"
#include "pdex/grid/field_view.hpp"
#include "pdex/grid/fill_ghosts.hpp"
#include "pdex/linalg/grid_ops.hpp"
#include "pdex/linalg/helmholtz.hpp"
#include "pdex/linalg/host_sweep.hpp"
#include "pdex/linalg/point_relax.hpp"
#include "pdex/linalg/schedules.hpp"

namespace pdex {

// The cosine of an axis of n cells in the Jacobi factor of its lowest mode, between sides whose ghosts
// are `lo` and `hi` times their cells' (the operator's self: -1 Dirichlet): pi / n between two Dirichlet
// sides, pi / (2 n) beside one, the constant between sides of other kinds (Neumann and periodic; a Robin
// side taken as Neumann: a weight past the optimum costs less than one short of it). `next`: the lowest
// mode but the constant (pi / n between Neumann sides, 2 pi / n around a periodic axis).
inline double lowest_mode_cos(int n, double lo, double hi, bool next) {
  const double pi = 3.14159265358979323846;
  const int dirichlet = (lo == -1.0) + (hi == -1.0);
  if (dirichlet) return std::cos(pi / (dirichlet == 2 ? n : 2 * n));
  if (!next) return 1;
  return std::cos((lo == 0.0 && hi == 0.0 ? 2 * pi : pi) / n);
}

// A near-optimal SOR weight from the Jacobi spectral radius of the lowest mode of the stiffest component
// (2D and 3D operators): components relaxed in lock step share the weight, and one over-relaxed past its
// own optimum still converges at a rate of omega - 1, while one under-relaxed converges much slower. A
// problem fixed only up to a constant takes the lowest mode but the constant along one axis.
template <class Op>
double sor_omega(const Op& op, int ncomp) {
  constexpr int axes = Op::volume() ? 3 : 2;
  double a[3] = {double(op.h.idx2), double(op.h.idy2), 0};
  if constexpr (Op::volume()) a[2] = double(op.h.idz2);
  const int n[3] = {op.extents.nx, op.extents.ny, op.extents.nz};
  double rho = 0;
  for (int c = 0; c < ncomp; ++c) {
    const double b = double(op.beta[c]);
    double off = 0, all = 0, lowest[3], next[3];
    for (int k = 0; k < axes; ++k) {
      lowest[k] = lowest_mode_cos(n[k], double(op.self[2 * k][c]), double(op.self[2 * k + 1][c]), false);
      next[k] = lowest_mode_cos(n[k], double(op.self[2 * k][c]), double(op.self[2 * k + 1][c]), true);
      off += 2 * a[k] * lowest[k];
      all += 2 * a[k];
    }
    const double diag = double(op.alpha) + b * all;
    double r = b * off / diag;
    if (!(r < 1)) {  // the constant mode: singular
      r = 0;
      for (int k = 0; k < axes; ++k) r = std::max(r, b * (off - 2 * a[k] * (lowest[k] - next[k])) / diag);
    }
    rho = std::max(rho, r);
  }
  return 2.0 / (1.0 + std::sqrt(std::max(0.0, 1.0 - rho * rho)));
}

namespace detail {
// cell(i, j) over range r, returning the largest of its values when `measure`, else 0.
template <class T, class Exec, class F>
T sweep_cells(const Exec& ex, Range2 r, F cell, bool measure) {
  if (measure) return reduce<T>(ex, r, cell, Max<T>{});
  for_each_cell(ex, r, [=] PDEX_HD(int i, int j) { (void)cell(i, j); });
  return T(0);
}

// cell(i, r) over box b (for_each_box_cell's numbering), as sweep_cells.
template <class T, class Exec, class F>
T sweep_box(const Exec& ex, const CellBox& b, int ny, F cell, bool measure) {
  if (measure) return reduce_box_cells<T>(ex, b, ny, cell, Max<T>{});
  for_each_box_cell(ex, b, ny, [=] PDEX_HD(int i, int r) { (void)cell(i, r); });
  return T(0);
}
}  // namespace detail

// x_out = x_in + omega D^-1 (b - A x_in) over the cells of box `box` (not empty). Returns the largest
// |change| when `measure`, else 0. The host vectorizes a five-point operator's inner cells (host_sweep.hpp).
template <class Exec, class T, class Op>
T jacobi_sweep(const Exec& ex, const Op& op, FieldView<const T> in, FieldView<const T> b, FieldView<T> out,
               const FieldBoundary& bc, T omega, bool measure, const CellBox& box) {
  if constexpr (Exec::space == MemorySpace::host && !Op::tensor()) {
    return host_jacobi_sweep(ex, op, in, b, out, bc, omega, measure, box);
  } else {
    const Op a = op.refreshed();
    auto cell = [=] PDEX_HD(int i, int j) { return detail::relax_point(a, in, b, out, bc, omega, i, j); };
    return detail::sweep_box<T>(ex, box, in.ny, cell, measure);
  }
}

// The same over every cell.
template <class Exec, class T, class Op>
T jacobi_sweep(const Exec& ex, const Op& op, FieldView<const T> in, FieldView<const T> b, FieldView<T> out,
               const FieldBoundary& bc, T omega, bool measure) {
  return jacobi_sweep(ex, op, in, b, out, bc, omega, measure, whole_box(in.extents()));
}

// Updates in place the cells with (i + j) % 2 == color in box `box` (not empty). A launch covers only those
// cells: a thread per cell of the colour, not a thread per cell with half of them idle; the host goes row
// by row (host_color_sweep).
// On a periodic axis of odd length the colouring does not close across the wrap: the two cells beside
// the seam have one colour and one of them may read the other's old or new image; either is a valid
// relaxation, so the method still converges, but results are not bit-reproducible there.
template <class Exec, class T, class Op>
T color_sweep(const Exec& ex, const Op& op, FieldView<T> x, FieldView<const T> b, const FieldBoundary& bc, T omega,
              int color, bool measure, const CellBox& box) {
  if constexpr (Exec::space == MemorySpace::host && !Op::tensor())
    return host_color_sweep(ex, op, x, b, bc, omega, color, measure, box);
  const int i0 = box.lo[0], i1 = box.hi[0];
  const Range2 half{i0 / 2, (i1 + 1) / 2, box.lo[1], box.hi[1]};
  const Op a = op.refreshed();
  auto cell = [=] PDEX_HD(int k, int j) {
    const int i = 2 * k + ((j + color) & 1);
    if (i < i0 || i >= i1) return T(0);
    return detail::relax_point(a, as_const(x), b, x, bc, omega, i, j);
  };
  return detail::sweep_cells<T>(ex, half, cell, measure);
}

// The same over every cell.
template <class Exec, class T, class Op>
T color_sweep(const Exec& ex, const Op& op, FieldView<T> x, FieldView<const T> b, const FieldBoundary& bc, T omega,
              int color, bool measure) {
  return color_sweep(ex, op, x, b, bc, omega, color, measure, whole_box(x.extents()));
}

// Gauss-Seidel for the nine points of a tensor (Helmholtz::tensor), where red cells touch red cells
// across corners: four colours, i % 2 + 2 (j % 2), no two cells of which are neighbours. One colour, in
// box `box` (not empty):
template <class Exec, class T, class Op>
T tensor_color_sweep(const Exec& ex, const Op& op, FieldView<T> x, FieldView<const T> b, const FieldBoundary& bc,
                     T omega, int color, bool measure, const CellBox& box) {
  const Range2 quarter{box.lo[0] / 2, (box.hi[0] + 1) / 2, box.lo[1] / 2, (box.hi[1] + 1) / 2};
  const Op a = op.refreshed();
  auto cell = [=] PDEX_HD(int p, int q) {
    const int i = 2 * p + (color & 1), j = 2 * q + (color >> 1);
    if (i < box.lo[0] || i >= box.hi[0] || j < box.lo[1] || j >= box.hi[1]) return T(0);
    return detail::relax_point(a, as_const(x), b, x, bc, omega, i, j);
  };
  return detail::sweep_cells<T>(ex, quarter, cell, measure);
}

// The same over every cell.
template <class Exec, class T, class Op>
T tensor_color_sweep(const Exec& ex, const Op& op, FieldView<T> x, FieldView<const T> b, const FieldBoundary& bc,
                     T omega, int color, bool measure) {
  return tensor_color_sweep(ex, op, x, b, bc, omega, color, measure, whole_box(x.extents()));
}

// The colours a tensor's Gauss-Seidel takes: four on a 2D grid, eight on a 3D one (relaxation3.hpp).
template <class Op>
constexpr int tensor_colours() {
  return Op::volume() ? 8 : 4;
}

// A tensor's colours in order (or the reverse). The same caveat on periodic axes of odd length as
// color_sweep's.
template <class Exec, class T, class Op>
T tensor_sweep(const Exec& ex, const Op& op, FieldView<T> x, FieldView<const T> b, const FieldBoundary& bc, T omega,
               bool reverse, bool measure) {
  constexpr int n = tensor_colours<Op>();
  T largest = T(0);
  for (int k = 0; k < n; ++k) {
    const T m = tensor_color_sweep(ex, op, x, b, bc, omega, reverse ? n - 1 - k : k, measure);
    largest = m > largest ? m : largest;
  }
  return largest;
}

// One red-black sweep (red first, or black first when `reverse`: a post-smoother in that order makes a
// multigrid cycle symmetric, as a preconditioner for CG must be). Returns the largest change if `measure`.
// A tensor's operator takes four colours (tensor_sweep); the host sweeps in one pass (host_sweep.hpp).
template <class Exec, class T, class Op>
T rb_sweep(const Exec& ex, const Op& op, FieldView<T> x, FieldView<const T> b, const FieldBoundary& bc, T omega,
           bool reverse, bool measure) {
  if constexpr (Op::tensor()) {
    return tensor_sweep(ex, op, x, b, bc, omega, reverse, measure);
  } else if constexpr (Exec::space == MemorySpace::host) {
    return host_rb_sweep(ex, op, x, b, bc, omega, reverse, measure);
  } else {
    const int first = reverse ? 1 : 0;
    const T m0 = color_sweep(ex, op, x, b, bc, omega, first, measure);
    const T m1 = color_sweep(ex, op, x, b, bc, omega, 1 - first, measure);
    return m0 > m1 ? m0 : m1;
  }
}

namespace detail {
// rb_sweeps as `sweeps` calls of rb_sweep (also CUDA's, on grids too large for a run in one launch).
template <class Exec, class T, class Op>
T rb_sweep_each(const Exec& ex, const Op& op, FieldView<T> x, FieldView<const T> b, const FieldBoundary& bc, T omega,
                bool reverse, int sweeps, bool measure) {
  T largest = T(0);
  for (int k = 0; k < sweeps; ++k) largest = rb_sweep(ex, op, x, b, bc, omega, reverse, measure && k == sweeps - 1);
  return largest;
}
}  // namespace detail

// `sweeps` rb_sweeps in place; the last one's largest change if `measure`, else 0.
template <class Exec, class T, class Op>
T rb_sweeps(const Exec& ex, const Op& op, FieldView<T> x, FieldView<const T> b, const FieldBoundary& bc, T omega,
            bool reverse, int sweeps, bool measure) {
  return detail::rb_sweep_each(ex, op, x, b, bc, omega, reverse, sweeps, measure);
}


namespace detail {
// `sweeps` rb_sweeps of a copy of in, into out; the last one's largest change if `measure`.
template <class Exec, class T, class Op>
T copy_and_sweep(const Exec& ex, const Op& op, FieldView<const T> in, FieldView<const T> b,
                 FieldView<T> out, const FieldBoundary& bc, T omega, bool reverse, bool measure, int sweeps = 1) {
  copy_interior(ex, in, out);
  fill_ghosts(ex, out, bc);
  return rb_sweeps(ex, op, out, b, bc, omega, reverse, sweeps, measure);
}
}  // namespace detail

// out = rb_sweep applied to in, which is left as it was; in's ghosts must hold its boundary images, and
// out gets its own. On a GPU this is one launch and one pass over memory (cuda/tile_sweep.cuh), half the
// traffic of rb_sweep's two; solvers there sweep between two fields with it. On the CPU, where a sweep is
// bound by its arithmetic, it is a copy and rb_sweep.
template <class Exec, class T, class Op>
T rb_sweep_into(const Exec& ex, const Op& op, FieldView<const T> in, FieldView<const T> b, FieldView<T> out,
                const FieldBoundary& bc, T omega, bool reverse, bool measure) {
  return detail::copy_and_sweep(ex, op, in, b, out, bc, omega, reverse, measure);
}

// out = two rb_sweeps applied to in (multigrid's smoothing pairs), in left as it was, with rb_sweep_into's
// ghosts. On a GPU one launch and one pass over memory (cuda/fused_sweep.cuh): two rb_sweep_into for
// the traffic of one.
template <class Exec, class T, class Op>
void rb_sweep_pair_into(const Exec& ex, const Op& op, FieldView<const T> in, FieldView<const T> b,
                        FieldView<T> out, const FieldBoundary& bc, T omega, bool reverse) {
  detail::copy_and_sweep(ex, op, in, b, out, bc, omega, reverse, false, 2);
}

// A red-black colouring closes across a periodic axis of even length only (z too on a 3D grid); where
// it does not, the GPU sweeps out of place by a copy and rb_sweep.
inline bool colours_close(Extents2 n, int ncomp, const FieldBoundary& bc) {
  for (int c = 0; c < ncomp; ++c) {
    if (bc.side[left][c].kind == BcKind::periodic && n.nx % 2) return false;
    if (bc.side[bottom][c].kind == BcKind::periodic && n.ny % 2) return false;
    if (n.nz > 1 && bc.side[front][c].kind == BcKind::periodic && n.nz % 2) return false;
  }
  return true;
}

// True where plain red-black sweeps (multigrid's smoothers) go out of place with rb_sweep_into, so need a
// second field: on the GPU, for a field of 16 MB or more (relaxation solves there queue theirs, out of
// place on every grid: LinearSolver). Below that x and b stay in the 50 MB L2 cache of an H100 between
// rb_sweep's two launches, whose many small blocks then beat the tiles' single wave (a 512^2 grid is 128
// tiles).
template <class Exec, class T>
bool sweeps_into(const Field<T>& layout) {
  constexpr double min_bytes = 16.0 * (1 << 20);
  return LinalgSchedules<Exec>::queued_sweeps &&
         double(layout.cview().comp_stride) * layout.components() * sizeof(T) >= min_bytes;
}

}  // namespace pdex

// The CUDA executor's overloads of these sweeps, declared wherever the generic ones are, so that no
// translation unit takes the generic templates for it by leaving them out.
#include "pdex/linalg/cuda/sweeps_cuda.hpp"
