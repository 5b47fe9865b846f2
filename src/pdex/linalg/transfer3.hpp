#pragma once
// Grid transfers of transfer.hpp on 3D grids, any sizes, an axis coarsened or not: the trilinear hat
// weight of a coarse cell, the product of transfer.hpp's weight per axis (an axis not coarsened weighs its
// one cell under the hat). Restriction is the hat-weighted mean of the interior fine cells under a coarse
// cell's hat (renormalized near a side); prolongation interpolates trilinearly from the eight nearest
// coarse centres, whose ghosts (those outside along two or three axes included: fill_ghosts_3d) hold
// the homogeneous boundary images.
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "pdex/core/executor.hpp"
#include "pdex/core/parallel.hpp"
#include "pdex/grid/boundary.hpp"
#include "pdex/grid/field_view.hpp"
#include "pdex/linalg/transfer.hpp"

namespace pdex {

namespace detail {
// Whether coarse cell k's hat lies whole inside the fine cells of an axis halved: fine cells 2k - 1 ..
// 2k + 2 under weights 1/4, 3/4, 3/4, 1/4 (their sum 2), the candidates 2k - 2 and 2k + 3 beside them
// of weight 0.
PDEX_HD inline bool halved_inside(const AxisMap& m, int k) {
  return m.ratio == 0.5 && m.first_under(k) == 2 * k - 2 && m.last_under(k) == 2 * k + 3;
}

struct AxisMaps3 {
  AxisMap x, y, z;
  template <class T, class U>
  static AxisMaps3 between(const FieldView<T>& fine, const FieldView<U>& coarse, unsigned open = 0) {
    return {axis_map(coarse.nx, fine.nx, open, 0), axis_map(coarse.ny, fine.ny, open, 1), axis_map(coarse.nz, fine.nz, open, 2)};
  }
};

// Whether the coarse field halves the fine one exactly along every axis.
template <class T, class U>
PDEX_HD inline bool halves_every_axis(const FieldView<T>& fine, const FieldView<U>& coarse) {
  return fine.nx == 2 * coarse.nx && fine.ny == 2 * coarse.ny && fine.nz == 2 * coarse.nz;
}

// The coarse cells lo .. hi - 1 of an axis whose hats lie inside on it (halved_inside), a run.
inline void inside_run(const AxisMap& m, int n, int& lo, int& hi) {
  lo = 0, hi = n;
  while (lo < hi && !halved_inside(m, lo)) ++lo;
  while (hi > lo && !halved_inside(m, hi - 1)) --hi;
}

// The weights of fine cells 2k - 1 .. 2k + 2 under coarse cell k's hat along an axis halved, inside.
PDEX_HD constexpr double hat_tap(int a) { return a == 0 || a == 3 ? 0.25 : 0.75; }

// The x sum of a fine row's four cells under a hat inside, from the first.
template <class T>
PDEX_HD inline double row_part(const T* row) {
  double part = 0;
#pragma unroll
  for (int a = 0; a < 4; ++a) part += hat_tap(a) * double(row[a]);
  return part;
}

// sum += the terms of fine plane e (0 .. 3) of a hat inside, its rows' x sums `parts`.
PDEX_HD inline void add_plane(double& sum, int e, const double (&parts)[4]) {
#pragma unroll
  for (int b = 0; b < 4; ++b) sum += hat_tap(e) * hat_tap(b) * parts[b];
}

// restrict3 of component c at a coarse cell whose hat lies inside on every axis halved: the general
// sum's operations in its order without the taps of weight 0 (which add nothing), unrolled (64 loads,
// where the general loops make 216 with their weights in local memory).
template <class T>
PDEX_HD inline T restrict_inside(const FieldView<const T>& fine, int c, int I, int J, int K) {
  double sum = 0;
#pragma unroll
  for (int e = 0; e < 4; ++e)
#pragma unroll
    for (int b = 0; b < 4; ++b) sum += hat_tap(e) * hat_tap(b) * row_part(fine.comp(c) + fine.offset(2 * I - 1, 2 * J - 1 + b, 2 * K - 1 + e));
  return T(sum / (2.0 * 2.0 * 2.0));
}

// restrict3 of components c0 .. c1 - 1 at any coarse cell (I, J, K): the hat-weighted mean of the
// interior fine cells under it, into coarse_b.
template <class T>
PDEX_HD inline void restrict_cell(const FieldView<const T>& fine, const FieldView<T>& coarse_b, const AxisMaps3& m, int I, int J,
                                  int K, int c0, int c1) {
  if (halved_inside(m.x, I) && halved_inside(m.y, J) && halved_inside(m.z, K)) {
    for (int c = c0; c < c1; ++c) coarse_b(c, I, J, K) = restrict_inside(fine, c, I, J, K);
    return;
  }
  double wx[max_under] = {}, wy[max_under] = {}, wz[max_under] = {};  // zeros: GCC cannot see weights() fill them
  const int i0 = m.x.weights(I, wx), j0 = m.y.weights(J, wy), k0 = m.z.weights(K, wz);
  const int ni = m.x.count(I), nj = m.y.count(J), nk = m.z.count(K);
  double sx = 0, sy = 0, sz = 0;
  for (int a = 0; a < ni; ++a) sx += wx[a];
  for (int b = 0; b < nj; ++b) sy += wy[b];
  for (int e = 0; e < nk; ++e) sz += wz[e];
  for (int c = c0; c < c1; ++c) {
    double sum = 0;
    for (int e = 0; e < nk; ++e)
      for (int b = 0; b < nj; ++b) {
        const T* row = fine.comp(c) + fine.offset(i0, j0 + b, k0 + e);
        double part = 0;
        for (int a = 0; a < ni; ++a) part += wx[a] * double(row[a]);
        sum += wz[e] * wy[b] * part;
      }
    coarse_b(c, I, J, K) = T(sum / (sx * sy * sz));
  }
}

// The interpolation in x and y between coarse cells s, s + 1 and the two `pitch` above them, at weights
// tx and ty of the upper ones: one plane's part of every 3D prolongation (the same operations, so bits).
template <class T>
PDEX_HD inline double bilinear(const T* s, int64_t pitch, double tx, double ty) {
  return (1 - ty) * ((1 - tx) * double(s[0]) + tx * double(s[1])) + ty * ((1 - tx) * double(s[pitch]) + tx * double(s[pitch + 1]));
}

// fine(c, i, j, k) + the trilinear interpolation of coarse at the fine cell, with its images.
template <class T>
PDEX_HD inline void add_prolonged3(const FieldView<const T>& coarse, const FieldView<T>& fine, const FieldBoundary& bc,
                                   const AxisMaps3& m, int i, int j, int k) {
  double tx, ty, tz;
  const int I = lower_of(m.x.coarse_coord(i), tx), J = lower_of(m.y.coarse_coord(j), ty), K = lower_of(m.z.coarse_coord(k), tz);
  const int64_t o = fine.offset(i, j, k), p = coarse.pitch, q = coarse.plane;
  for (int c = 0; c < fine.ncomp; ++c) {
    const T* a = coarse.comp(c) + coarse.offset(I, J, K);
    const T v = fine.comp(c)[o] + T((1 - tz) * bilinear(a, p, tx, ty) + tz * bilinear(a + q, p, tx, ty));
    fine.comp(c)[o] = v;
    push_cell_images(fine, bc, c, i, j, k, v);
  }
}

// restrict3 on a host: row by row, the cells of a row whose hats lie inside by restrict_inside without
// testing each, the rest by restrict_cell.
template <class Exec, class T>
void host_restrict3(const Exec& ex, FieldView<const T> fine, FieldView<T> coarse_b, unsigned open) {
  const AxisMaps3 m = AxisMaps3::between(fine, coarse_b, open);
  const int nx = coarse_b.nx, ny = coarse_b.ny;
  int lo, hi;
  inside_run(m.x, nx, lo, hi);
  for_each_row(ex, 0, ny * coarse_b.nz, [&](int R) {
    const int J = R % ny, K = R / ny;
    const bool inside = halved_inside(m.y, J) && halved_inside(m.z, K);
    const int a = inside ? lo : nx, b = inside ? hi : nx;
    for (int I = 0; I < a; ++I) restrict_cell(fine, coarse_b, m, I, J, K, 0, fine.ncomp);
    for (int c = 0; c < fine.ncomp; ++c)
      for (int I = a; I < b; ++I) coarse_b(c, I, J, K) = restrict_inside(fine, c, I, J, K);
    for (int I = b; I < nx; ++I) restrict_cell(fine, coarse_b, m, I, J, K, 0, fine.ncomp);
  });
}

// prolong_add3 on a host where every axis halves exactly: row by row, a row's cells away from the sides
// by parity in stride-2 loops (an even cell lies between coarse cells I - 1 and I at weights 1/4 and
// 3/4, an odd one between I and I + 1 at 3/4 and 1/4), which vectorize; cells with images by
// add_prolonged3. The same operations a cell, so its bits.
template <class Exec, class T>
void host_prolong_add3(const Exec& ex, FieldView<const T> coarse, FieldView<T> fine, const FieldBoundary& bc) {
  const AxisMaps3 m = AxisMaps3::between(fine, coarse);
  const int nx = fine.nx, ny = fine.ny, g = fine.ghost;
  for_each_row(ex, 0, ny * fine.nz, [&](int r) {
    const int j = r % ny, k = r / ny;
    const int lo = std::max(g, 1), hi = (j < g || j >= ny - g || near_z_side(fine, k)) ? lo : std::max(lo, nx - g);
    for (int i = 0; i < lo; ++i) add_prolonged3(coarse, fine, bc, m, i, j, k);
    for (int i = hi; i < nx; ++i) add_prolonged3(coarse, fine, bc, m, i, j, k);
    double ty, tz;
    const int J = lower_of(m.y.coarse_coord(j), ty), K = lower_of(m.z.coarse_coord(k), tz);
    const int64_t p = coarse.pitch, q = coarse.plane;
    for (int c = 0; c < fine.ncomp; ++c) {
      const T* a = coarse.comp(c) + coarse.offset(0, J, K);
      T* f = fine.comp(c) + fine.offset(0, j, k);
      const auto cells = [&](int first, double tx) {
#pragma omp simd
        for (int i = first; i < hi; i += 2) {
          const T* s = a + (i - 1) / 2;
          f[i] = f[i] + T((1 - tz) * bilinear(s, p, tx, ty) + tz * bilinear(s + q, p, tx, ty));
        }
      };
      cells(lo + (lo & 1), 0.75);
      cells(lo + 1 - (lo & 1), 0.25);
    }
  });
}
}  // namespace detail

// On CUDA where every axis is halved exactly, threads walk up columns of cells (cuda/transfer3_walk.cu);
// on a host the transfers go by rows (detail::host_restrict3, host_prolong_add3): the same values bit
// for bit as the cell-by-cell loops below.
template <class T>
void restrict3_walk(const Cuda& ex, FieldView<const T> fine, FieldView<T> coarse_b, unsigned open);
template <class T>
void prolong_add3_walk(const Cuda& ex, FieldView<const T> coarse, FieldView<T> fine, const FieldBoundary& fine_bc);

// restrict3 a coarse cell at a time, on any executor.
template <class Exec, class T>
void restrict3_cells(const Exec& ex, FieldView<const T> fine, FieldView<T> coarse_b, unsigned open = 0) {
  const detail::AxisMaps3 m = detail::AxisMaps3::between(fine, coarse_b, open);
  const int nyc = coarse_b.ny;
  for_each_cell(ex, coarse_b.interior_rows(), [=] PDEX_HD(int I, int R) {
    detail::restrict_cell(fine, coarse_b, m, I, R % nyc, R / nyc, 0, fine.ncomp);
  });
}

// coarse_b = R fine (every component); coarse_b's ghosts are left as they were. `open`: the sides shared
// with other blocks, whose ghosts fine holds (transfer.hpp).
template <class Exec, class T>
void restrict3(const Exec& ex, FieldView<const T> fine, FieldView<T> coarse_b, unsigned open = 0) {
  if constexpr (Exec::space == MemorySpace::host) return detail::host_restrict3(ex, fine, coarse_b, open);
  else if (detail::halves_every_axis(fine, coarse_b)) return restrict3_walk(ex, fine, coarse_b, open);
  restrict3_cells(ex, fine, coarse_b, open);
}

// fine += P coarse over box `box` of fine's cells, with fine's boundary images; coarse's ghosts must hold
// its images (fill_ghosts).
template <class Exec, class T>
void prolong_add3(const Exec& ex, FieldView<const T> coarse, FieldView<T> fine, const FieldBoundary& fine_bc, const CellBox& box) {
  const detail::AxisMaps3 m = detail::AxisMaps3::between(fine, coarse);
  const int ny = fine.ny;
  for_each_box_cell(ex, box, ny, [=] PDEX_HD(int i, int r) { detail::add_prolonged3(coarse, fine, fine_bc, m, i, r % ny, r / ny); });
}

// The same over every cell.
template <class Exec, class T>
void prolong_add3(const Exec& ex, FieldView<const T> coarse, FieldView<T> fine, const FieldBoundary& fine_bc) {
  if (detail::halves_every_axis(fine, coarse)) {
    if constexpr (std::is_same_v<Exec, Cuda>) return prolong_add3_walk(ex, coarse, fine, fine_bc);
    else if constexpr (Exec::space == MemorySpace::host) return detail::host_prolong_add3(ex, coarse, fine, fine_bc);
  }
  prolong_add3(ex, coarse, fine, fine_bc, whole_box(fine.extents()));
}

}  // namespace pdex
