#pragma once
// Grid transfers of transfer.hpp on 3D grids, any sizes, an axis coarsened or not: the trilinear hat
// weight of a coarse cell, the product of transfer.hpp's weight per axis (an axis not coarsened weighs its
// one cell under the hat). Restriction is the hat-weighted mean of the interior fine cells under a coarse
// cell's hat (renormalized near a side); prolongation interpolates trilinearly from the eight nearest
// coarse centres, whose ghosts (those outside along two or three axes included: fill_ghosts_3d) hold
// the homogeneous boundary images.
#include <cstdint>

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

// restrict3 at a coarse cell whose hat lies inside on every axis halved: the general sum's operations in
// its order without the taps of weight 0 (which add nothing), unrolled (64 loads, where the general
// loops make 216 with their weights in local memory).
template <class T>
PDEX_HD inline void restrict_inside(const FieldView<const T>& fine, const FieldView<T>& coarse_b, int I, int J, int K) {
  constexpr double w[4] = {0.25, 0.75, 0.75, 0.25};
  for (int c = 0; c < fine.ncomp; ++c) {
    double sum = 0;
#pragma unroll
    for (int e = 0; e < 4; ++e)
#pragma unroll
      for (int b = 0; b < 4; ++b) {
        const T* row = fine.comp(c) + fine.offset(2 * I - 1, 2 * J - 1 + b, 2 * K - 1 + e);
        double part = 0;
#pragma unroll
        for (int a = 0; a < 4; ++a) part += w[a] * double(row[a]);
        sum += w[e] * w[b] * part;
      }
    coarse_b(c, I, J, K) = T(sum / (2.0 * 2.0 * 2.0));
  }
}
}  // namespace detail

// coarse_b = R fine (every component); coarse_b's ghosts are left as they were. `open`: the sides shared
// with other blocks, whose ghosts fine holds (transfer.hpp).
template <class Exec, class T>
void restrict3(const Exec& ex, FieldView<const T> fine, FieldView<T> coarse_b, unsigned open = 0) {
  const detail::AxisMaps3 m = detail::AxisMaps3::between(fine, coarse_b, open);
  const int nyc = coarse_b.ny;
  for_each_cell(ex, coarse_b.interior_rows(), [=] PDEX_HD(int I, int R) {
    const int J = R % nyc, K = R / nyc;
    if (detail::halved_inside(m.x, I) && detail::halved_inside(m.y, J) && detail::halved_inside(m.z, K))
      return detail::restrict_inside(fine, coarse_b, I, J, K);
    double wx[detail::max_under], wy[detail::max_under], wz[detail::max_under];
    const int i0 = m.x.weights(I, wx), j0 = m.y.weights(J, wy), k0 = m.z.weights(K, wz);
    const int ni = m.x.count(I), nj = m.y.count(J), nk = m.z.count(K);
    double sx = 0, sy = 0, sz = 0;
    for (int a = 0; a < ni; ++a) sx += wx[a];
    for (int b = 0; b < nj; ++b) sy += wy[b];
    for (int e = 0; e < nk; ++e) sz += wz[e];
    for (int c = 0; c < fine.ncomp; ++c) {
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
  });
}

// fine += P coarse over box `box` of fine's cells, with fine's boundary images; coarse's ghosts must hold
// its images (fill_ghosts).
template <class Exec, class T>
void prolong_add3(const Exec& ex, FieldView<const T> coarse, FieldView<T> fine, const FieldBoundary& fine_bc, const CellBox& box) {
  const detail::AxisMaps3 m = detail::AxisMaps3::between(fine, coarse);
  const int ny = fine.ny;
  for_each_box_cell(ex, box, ny, [=] PDEX_HD(int i, int r) {
    const int j = r % ny, k = r / ny;
    double tx, ty, tz;
    const int I = detail::lower_of(m.x.coarse_coord(i), tx), J = detail::lower_of(m.y.coarse_coord(j), ty),
              K = detail::lower_of(m.z.coarse_coord(k), tz);
    const int64_t o = fine.offset(i, j, k), p = coarse.pitch, q = coarse.plane;
    for (int c = 0; c < fine.ncomp; ++c) {
      const T* a = coarse.comp(c) + coarse.offset(I, J, K);
      auto bilinear = [&](const T* s) {
        return (1 - ty) * ((1 - tx) * double(s[0]) + tx * double(s[1])) + ty * ((1 - tx) * double(s[p]) + tx * double(s[p + 1]));
      };
      const T v = fine.comp(c)[o] + T((1 - tz) * bilinear(a) + tz * bilinear(a + q));
      fine.comp(c)[o] = v;
      push_cell_images(fine, fine_bc, c, i, j, k, v);
    }
  });
}

// The same over every cell.
template <class Exec, class T>
void prolong_add3(const Exec& ex, FieldView<const T> coarse, FieldView<T> fine, const FieldBoundary& fine_bc) {
  prolong_add3(ex, coarse, fine, fine_bc, whole_box(fine.extents()));
}

}  // namespace pdex
