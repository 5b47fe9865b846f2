#pragma once
// Grid transfers between a fine cell-centred grid and a coarser one covering the same domain, for any
// sizes: the coarse grid has ceil(n / 2) cells per coarsened axis (so grids need not be powers of two,
// and the two grids need not nest). Both transfers use the bilinear "hat" weight of a coarse cell,
// w = (1 - |sx|)(1 - |sy|), with s the distance between centres in coarse cells:
//  - prolongation interpolates bilinearly from the four nearest coarse centres (coarse ghosts hold the
//    homogeneous boundary images, so a Dirichlet correction vanishes on the face);
//  - restriction is the hat-weighted mean of the interior fine cells under a coarse cell's hat (near a
//    side the weights are renormalized over the cells that exist; extending the residual across the
//    boundary by its images makes cycles converge more slowly for Dirichlet sides).
//    When n is even the weights are (1, 3, 3, 1) / 8 per axis: full weighting for cell-centred grids.
// On exactly halved grids both transfers use those fixed weights directly (the same values to rounding).
// On a block of a grid split among MPI ranks (block_multigrid.hpp), the sides it shares with other blocks
// are open: the hats there reach into the ghosts, which hold the neighbours' cells, as on the whole grid.
#include <cstdint>

#include "pdex/core/parallel.hpp"
#include "pdex/grid/block_step.hpp"
#include "pdex/grid/boundary.hpp"
#include "pdex/grid/field_view.hpp"

namespace pdex {

namespace detail {
// Coarse cells per fine cell along an axis, and the fine cells under coarse cell k's hat.
struct AxisMap {
  double ratio = 0.5;  // n_coarse / n_fine
  int n_fine = 0;
  bool open_low = false, open_high = false;  // the ghost beyond that end is a neighbour's cell
  PDEX_HD double coarse_coord(int i) const { return (i + 0.5) * ratio - 0.5; }
  PDEX_HD int first_under(int k) const {
    const int i = int((k - 0.5) / ratio - 0.5);
    const int lo = open_low ? -1 : 0;
    return i < lo ? lo : i;
  }
  PDEX_HD int last_under(int k) const {
    const int i = int((k + 1.5) / ratio - 0.5) + 1;
    const int hi = open_high ? n_fine : n_fine - 1;
    return i > hi ? hi : i;
  }
  PDEX_HD int count(int k) const { return last_under(k) - first_under(k) + 1; }
  // The hat weights of the fine cells under coarse cell k, from the first one (returned) on.
  PDEX_HD int weights(int k, double* w) const;
};

// Fine cells under a hat: at most 2 / ratio + 2 candidates (the ends may carry weight 0); ratio >= 1/2.
constexpr int max_under = 7;

PDEX_HD inline double hat(double s) {
  const double a = s < 0 ? -s : s;
  return a < 1 ? 1 - a : 0;
}

PDEX_HD inline int AxisMap::weights(int k, double* w) const {
  const int first = first_under(k), n = count(k);
#pragma unroll  // to max_under: a caller's array then stays in registers on a GPU
  for (int a = 0; a < max_under; ++a)
    if (a < n) w[a] = hat(coarse_coord(first + a) - k);
  return first;
}

// The map along `axis` (0, 1, 2) between n_fine and n_coarse cells, open at the ends whose sides (bits
// 2 axis and 2 axis + 1) are set in `open`.
PDEX_HD inline AxisMap axis_map(int n_coarse, int n_fine, unsigned open, int axis) {
  return {double(n_coarse) / n_fine, n_fine, bool(open >> (2 * axis) & 1u), bool(open >> (2 * axis + 1) & 1u)};
}

// Lower neighbour index (may be -1: a ghost) and weight of the upper one for coarse coordinate s >= -1.
PDEX_HD inline int lower_of(double s, double& t) {
  const int k = s < 0 ? -1 : int(s);
  t = s - k;
  return k;
}
}  // namespace detail

// Whether the coarse grid halves the fine one exactly on both axes (even sizes): the transfers' weights
// are then fixed numbers, which spares a GPU the general weights' arithmetic per cell.
template <class T, class U>
bool halves_exactly(const FieldView<T>& fine, const FieldView<U>& coarse) {
  return fine.extents() == coarse.extents().doubled();
}

namespace detail {
// The hat-weighted mean of the fine cells under coarse cell (I, J), component c (any sizes).
template <class T>
PDEX_HD inline T hat_restriction(const FieldView<const T>& fine, const AxisMap& mx, const AxisMap& my, int c, int I,
                                 int J) {
  double wx[max_under], wy[max_under];
  const int i0 = mx.weights(I, wx), j0 = my.weights(J, wy);
  const int ni = mx.count(I), nj = my.count(J);
  double wsum_x = 0, wsum_y = 0, sum = 0;
  for (int a = 0; a < ni; ++a) wsum_x += wx[a];
  for (int b = 0; b < nj; ++b) {
    wsum_y += wy[b];
    double row = 0;
    for (int a = 0; a < ni; ++a) row += wx[a] * double(fine(c, i0 + a, j0 + b));
    sum += wy[b] * row;
  }
  return T(sum / (wsum_x * wsum_y));
}

// The same for an inner coarse cell of an exactly halved grid: (1, 3, 3, 1) / 8 on each axis over the
// 4 x 4 fine cells from (2I - 1, 2J - 1).
template <class T>
PDEX_HD inline T full_weighting(const FieldView<const T>& fine, int c, int I, int J) {
  const T* p = fine.comp(c) + fine.offset(2 * I - 1, 2 * J - 1);
  const T w[4] = {T(1), T(3), T(3), T(1)};
  T sum = T(0);
#pragma unroll
  for (int b = 0; b < 4; ++b, p += fine.pitch) sum += w[b] * (p[0] + p[3] + T(3) * (p[1] + p[2]));
  return sum * T(1.0 / 64);
}

// The same for a coarse cell along a side: the weights of the fine cells that exist (open sides' ghosts
// included), renormalized (the general hat_restriction's values on a halved grid), without the general
// weights' arithmetic in double, which would make these cells' threads the slowest of the launch.
template <class T>
PDEX_HD inline T full_weighting_near_side(const FieldView<const T>& fine, int c, int I, int J, unsigned open) {
  const T w[4] = {T(1), T(3), T(3), T(1)};
  const int i0 = 2 * I - 1, j0 = 2 * J - 1;
  const int ilo = open & 1u ? -1 : 0, ihi = open & 2u ? fine.nx : fine.nx - 1;
  const int jlo = open & 4u ? -1 : 0, jhi = open & 8u ? fine.ny : fine.ny - 1;
  T wsum_x = T(0), wsum_y = T(0), sum = T(0);
  for (int a = 0; a < 4; ++a)
    if (i0 + a >= ilo && i0 + a <= ihi) wsum_x += w[a];
  for (int b = 0; b < 4; ++b) {
    if (j0 + b < jlo || j0 + b > jhi) continue;
    wsum_y += w[b];
    T row = T(0);
    for (int a = 0; a < 4; ++a)
      if (i0 + a >= ilo && i0 + a <= ihi) row += w[a] * fine(c, i0 + a, j0 + b);
    sum += w[b] * row;
  }
  return sum / (wsum_x * wsum_y);
}

// Whether coarse cell (I, J) lies beside a side that is not open, where the hat loses cells.
template <class T>
PDEX_HD inline bool near_closed_side(const FieldView<T>& f, int I, int J, unsigned open) {
  return (I == 0 && !(open & 1u)) || (I == f.nx - 1 && !(open & 2u)) || (J == 0 && !(open & 4u)) ||
         (J == f.ny - 1 && !(open & 8u));
}
}  // namespace detail

// coarse_b = R fine_r; also zeroes the coarse correction x (interior and boundary images), where the
// next level's cycle starts. `open`: the sides shared with other blocks, whose ghosts fine holds.
template <class Exec, class T>
void restrict_residual(const Exec& ex, FieldView<const T> fine, FieldView<T> coarse_b, FieldView<T> coarse_x,
                       const FieldBoundary& coarse_bc, unsigned open = 0) {
  const detail::AxisMap mx = detail::axis_map(coarse_b.nx, fine.nx, open, 0), my = detail::axis_map(coarse_b.ny, fine.ny, open, 1);
  const bool halved = halves_exactly(fine, coarse_b);
  for_each_cell(ex, coarse_b.interior(), [=] PDEX_HD(int I, int J) {
    const bool edge = near_boundary(coarse_x, I, J);
    const bool closed = edge && detail::near_closed_side(coarse_x, I, J, open);
    for (int c = 0; c < fine.ncomp; ++c) {
      coarse_b(c, I, J) = !halved ? detail::hat_restriction(fine, mx, my, c, I, J)
                          : closed ? detail::full_weighting_near_side(fine, c, I, J, open)
                                   : detail::full_weighting(fine, c, I, J);
      coarse_x(c, I, J) = T(0);
      if (edge) push_ghosts(coarse_x, coarse_bc, c, I, J, T(0));
    }
  });
}

namespace detail {
// fine(i, j) += the bilinear interpolation between coarse cells (I, J) and (I + 1, J + 1) with weights tx,
// ty of the upper ones, for every component, with the fine cell's boundary images.
template <class T, class W>
PDEX_HD inline void add_prolonged(const FieldView<const T>& coarse, const FieldView<T>& fine, const FieldBoundary& bc,
                                  int i, int j, int I, int J, W tx, W ty) {
  const bool edge = near_boundary(fine, i, j);
  for (int c = 0; c < fine.ncomp; ++c) {
    const T e = T((1 - ty) * ((1 - tx) * coarse(c, I, J) + tx * coarse(c, I + 1, J)) +
                  ty * ((1 - tx) * coarse(c, I, J + 1) + tx * coarse(c, I + 1, J + 1)));
    const T v = fine(c, i, j) + e;
    fine(c, i, j) = v;
    if (edge) push_ghosts(fine, bc, c, i, j, v);
  }
}
}  // namespace detail

// fine_x += P coarse_x over box `box` of fine_x's cells; coarse_x's ghosts must hold its boundary images.
// Writes fine_x's images too.
template <class Exec, class T>
void prolong_add(const Exec& ex, FieldView<const T> coarse, FieldView<T> fine, const FieldBoundary& fine_bc, const CellBox& box) {
  const detail::AxisMap mx{double(coarse.nx) / fine.nx, fine.nx}, my{double(coarse.ny) / fine.ny, fine.ny};
  const bool halved = halves_exactly(fine, coarse);
  for_each_box_cell(ex, box, fine.ny, [=] PDEX_HD(int i, int j) {
    if (halved) {
      // Fine cell i lies a quarter of a coarse cell beyond coarse cell (i - 1) / 2 (rounded down; -1 is
      // the ghost) or before the next one.
      const T tx = i & 1 ? T(0.25) : T(0.75), ty = j & 1 ? T(0.25) : T(0.75);
      detail::add_prolonged(coarse, fine, fine_bc, i, j, (i - 1) >> 1, (j - 1) >> 1, tx, ty);
    } else {
      double tx, ty;
      const int I = detail::lower_of(mx.coarse_coord(i), tx), J = detail::lower_of(my.coarse_coord(j), ty);
      detail::add_prolonged(coarse, fine, fine_bc, i, j, I, J, tx, ty);
    }
  });
}

// The same over every cell.
template <class Exec, class T>
void prolong_add(const Exec& ex, FieldView<const T> coarse, FieldView<T> fine, const FieldBoundary& fine_bc) {
  prolong_add(ex, coarse, fine, fine_bc, whole_box(fine.extents()));
}

}  // namespace pdex
