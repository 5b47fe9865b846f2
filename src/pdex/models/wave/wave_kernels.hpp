#pragma once
// The wave equation's kernel bodies (seed 001 sec. 44.4), written once for every executor.
#include <cmath>
#include <cstdint>

#include "pdex/core/parallel.hpp"
#include "pdex/grid/block_step.hpp"
#include "pdex/grid/boundary.hpp"
#include "pdex/grid/field_view.hpp"
#include "pdex/grid/stencil.hpp"

namespace pdex {

// Eq. 44-5: u_next = 2 u - u_prev + (c dt)^2 lap u at the cells of box b; s2 = (c dt)^2. Writes u_next's
// boundary images. Cells are walked by interior rows (FieldView::interior_rows()), a 3D field's planes one
// after another.
template <class Exec, class T>
void wave_explicit_step(const Exec& ex, FieldView<const T> u, FieldView<const T> prev, FieldView<T> next,
                        const FieldBoundary& bc, Spacing<T> h, T s2, const CellBox& b) {
  const bool volume = u.nz > 1;
  for_each_box_cell(ex, b, u.ny, [=] PDEX_HD(int i, int r) {
    const int64_t o = u.row_offset(i, r);
    const T v = T(2) * u.comp(0)[o] - prev.comp(0)[o] + s2 * lap_any(u.comp(0), o, h, volume);
    next.comp(0)[o] = v;
    push_row_images(next, bc, 0, i, r, v);
  });
}

// Eq. 44-7 as the trapezoidal rule on (u_t = w, w_t = c^2 lap u), k = (c dt)^2 / 4:
//   (I - k lap) u_next = 2 u - u_prev + k (2 lap u + lap u_prev).
// Writes that right-hand side to b and the extrapolation 2 u - u_prev, the solver's first guess, to next.
template <class Exec, class T>
void wave_cn_rhs(const Exec& ex, FieldView<const T> u, FieldView<const T> prev, FieldView<T> b, FieldView<T> next,
                 Spacing<T> h, T k) {
  const bool volume = u.nz > 1;
  for_each_cell(ex, u.interior_rows(), [=] PDEX_HD(int i, int r) {
    const int64_t o = u.row_offset(i, r);
    const T guess = T(2) * u.comp(0)[o] - prev.comp(0)[o];
    b.comp(0)[o] = guess + k * (T(2) * lap_any(u.comp(0), o, h, volume) + lap_any(prev.comp(0), o, h, volume));
    next.comp(0)[o] = guess;
  });
}

// The state one step before t = 0 from u0 and the velocity w0, to second order:
// u(-dt) = u0 - dt w0 + (c dt)^2 / 2 lap u0.
template <class Exec, class T>
void wave_start(const Exec& ex, FieldView<const T> u0, FieldView<const T> w0, FieldView<T> prev, Spacing<T> h, T dt,
                T s2) {
  const bool volume = u0.nz > 1;
  for_each_cell(ex, u0.interior_rows(), [=] PDEX_HD(int i, int r) {
    const int64_t o = u0.row_offset(i, r);
    prev.comp(0)[o] = u0.comp(0)[o] - dt * w0.comp(0)[o] + T(0.5) * s2 * lap_any(u0.comp(0), o, h, volume);
  });
}

// A drop: a Gaussian dent of `depth` and radius r (cells) centred on cell (ci, cj, ck), added to u (ck = 0
// on a 2D grid).
template <class Exec, class T>
void wave_drop(const Exec& ex, FieldView<T> u, int ci, int cj, int ck, T r, T depth) {
  const T inv_r2 = T(1) / (r * r);
  for_each_cell(ex, u.interior_rows(), [=] PDEX_HD(int i, int row) {
    const int j = row % u.ny, k = row / u.ny;
    const T d2 = T((i - ci) * (i - ci) + (j - cj) * (j - cj) + (k - ck) * (k - ck));
    u.data[u.row_offset(i, row)] -= depth * std::exp(-d2 * inv_r2);
  });
}

}  // namespace pdex
