#pragma once
// The wave equation's kernel bodies (seed 001 sec. 44.4), written once for every executor.
#include <cmath>
#include <cstdint>

#include "pdex/core/parallel.hpp"
#include "pdex/grid/boundary.hpp"
#include "pdex/grid/field_view.hpp"
#include "pdex/grid/stencil.hpp"

namespace pdex {

// Eq. 44-5: u_next = 2 u - u_prev + (c dt)^2 lap u; s2 = (c dt)^2. Writes u_next's boundary images.
template <class Exec, class T>
void wave_explicit_step(const Exec& ex, FieldView<const T> u, FieldView<const T> prev, FieldView<T> next,
                        const FieldBoundary& bc, Spacing<T> h, T s2) {
  for_each_cell(ex, u.interior(), [=] PDEX_HD(int i, int j) {
    const int64_t o = u.offset(i, j);
    const T v = T(2) * u.comp(0)[o] - prev.comp(0)[o] + s2 * lap(u.comp(0), o, h);
    next.comp(0)[o] = v;
    if (near_boundary(next, i, j)) push_ghosts(next, bc, 0, i, j, v);
  });
}

// Eq. 44-7 as the trapezoidal rule on (u_t = w, w_t = c^2 lap u), k = (c dt)^2 / 4:
//   (I - k lap) u_next = 2 u - u_prev + k (2 lap u + lap u_prev).
// Writes that right-hand side to b and the extrapolation 2 u - u_prev, the solver's first guess, to next.
template <class Exec, class T>
void wave_cn_rhs(const Exec& ex, FieldView<const T> u, FieldView<const T> prev, FieldView<T> b, FieldView<T> next,
                 Spacing<T> h, T k) {
  for_each_cell(ex, u.interior(), [=] PDEX_HD(int i, int j) {
    const int64_t o = u.offset(i, j);
    const T guess = T(2) * u.comp(0)[o] - prev.comp(0)[o];
    b.comp(0)[o] = guess + k * (T(2) * lap(u.comp(0), o, h) + lap(prev.comp(0), o, h));
    next.comp(0)[o] = guess;
  });
}

// The state one step before t = 0 from u0 and the velocity w0, to second order:
// u(-dt) = u0 - dt w0 + (c dt)^2 / 2 lap u0.
template <class Exec, class T>
void wave_start(const Exec& ex, FieldView<const T> u0, FieldView<const T> w0, FieldView<T> prev, Spacing<T> h, T dt,
                T s2) {
  for_each_cell(ex, u0.interior(), [=] PDEX_HD(int i, int j) {
    const int64_t o = u0.offset(i, j);
    prev.comp(0)[o] = u0.comp(0)[o] - dt * w0.comp(0)[o] + T(0.5) * s2 * lap(u0.comp(0), o, h);
  });
}

// A drop: a Gaussian dent of `depth` and radius r (cells) at cell (ci, cj), added to u.
template <class Exec, class T>
void wave_drop(const Exec& ex, FieldView<T> u, int ci, int cj, T r, T depth) {
  const T inv_r2 = T(1) / (r * r);
  for_each_cell(ex, u.interior(), [=] PDEX_HD(int i, int j) {
    const T d2 = T((i - ci) * (i - ci) + (j - cj) * (j - cj));
    u(0, i, j) -= depth * std::exp(-d2 * inv_r2);
  });
}

}  // namespace pdex
