#pragma once
// The manufactured solution of the verification (docs/curvature.md; seed 003 Section 5 uses eq. 30,
// whose text is not readable in our copy):
//   phi(t, x, y) = A cos(pi t) cos(kx (x - xc)) cos(ky (y - yc))
// on a rectangle centred at (xc, yc) with half-widths Lx, Ly. With k = pi / L it satisfies the Neumann
// conditions (eqs. 9, 14: every derived scalar is even about each side); with k = pi / (2L) the Dirichlet
// conditions phi = 0, w = 0 (eqs. 8, 13). The forcing F = phi_t - (the flow's operator applied to phi)
// is evaluated exactly with Taylor jets (jet2.hpp), in the run's precision, inside the kernels.
#include <cmath>

#include "pdex/core/macros.hpp"
#include "pdex/models/curvature/jet2.hpp"

namespace pdex {

template <class T>
struct Manufactured {
  T amp, kx, ky, xc, yc;

  static constexpr T pi = T(3.14159265358979323846);

  PDEX_HD T phi(T t, T x, T y) const {
    return amp * std::cos(pi * t) * std::cos(kx * (x - xc)) * std::cos(ky * (y - yc));
  }
  PDEX_HD T phi_t(T t, T x, T y) const {
    return -pi * amp * std::sin(pi * t) * std::cos(kx * (x - xc)) * std::cos(ky * (y - yc));
  }

  // Taylor coefficients k^m cos^(m)(k s) / m! of cos(k s), m = 0..D.
  template <int D>
  PDEX_HD static void cos_series(T k, T s, T* out) {
    const T c = std::cos(k * s), si = std::sin(k * s);
    T scale = T(1);
    for (int m = 0; m <= D; ++m) {
      const int r = m % 4;
      out[m] = scale * (r == 0 ? c : r == 1 ? -si : r == 2 ? -c : si);
      scale *= k / T(m + 1);
    }
  }

  template <int D>
  PDEX_HD Jet2<T, D> jet(T t, T x, T y) const {
    T cx[D + 1], cy[D + 1];
    cos_series<D>(kx, x - xc, cx);
    cos_series<D>(ky, y - yc, cy);
    const T a = amp * std::cos(pi * t);
    Jet2<T, D> j;
    for (int g = 0; g <= D; ++g)
      for (int n = 0; n <= g; ++n) j.c[j.at(g - n, n)] = a * cx[g - n] * cy[n];
    return j;
  }

  // F of eq. 6: phi_t - Q div(grad phi / Q).
  PDEX_HD T mean_curvature_forcing(T t, T x, T y) const {
    const Jet2<T, 2> p = jet<2>(t, x, y);
    return phi_t(t, x, y) - w_of(p).value();
  }

  // F of eq. 10: phi_t + Q div((1/Q)(I - grad phi (x) grad phi / Q^2) grad w - w^2 / (2 Q^3) grad phi).
  PDEX_HD T willmore_forcing(T t, T x, T y) const {
    const Jet2<T, 4> p = jet<4>(t, x, y);
    const Jet2<T, 4> px = d_dx(p), py = d_dy(p), q = q_of(px, py), w = q * (d_dx(px / q) + d_dy(py / q));
    const Jet2<T, 4> wx = d_dx(w), wy = d_dy(w), q2 = q * q;
    const Jet2<T, 4> g = (px * wx + py * wy) / q2, c = (T(0.5) * (w * w)) / (q2 * q);
    const Jet2<T, 4> vx = (wx - px * g) / q - c * px, vy = (wy - py * g) / q - c * py;
    return phi_t(t, x, y) + q.value() * (d_dx(vx) + d_dy(vy)).value();
  }

 private:
  template <int D>
  PDEX_HD static Jet2<T, D> q_of(const Jet2<T, D>& px, const Jet2<T, D>& py) {
    return jet_sqrt(T(1) + (px * px + py * py));
  }
  // w = Q div(grad phi / Q) = Q H, eq. 11.
  template <int D>
  PDEX_HD static Jet2<T, D> w_of(const Jet2<T, D>& p) {
    const Jet2<T, D> px = d_dx(p), py = d_dy(p), q = q_of(px, py);
    return q * (d_dx(px / q) + d_dy(py / q));
  }
};

}  // namespace pdex
