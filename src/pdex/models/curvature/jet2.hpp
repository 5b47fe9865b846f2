#pragma once
// Truncated bivariate Taylor series ("jets") of total degree D at a point: c[(m, n)] holds
// d^m/dx^m d^n/dy^n f / (m! n!). Arithmetic on jets differentiates exactly, so the forcing terms of a
// manufactured solution (which need up to fourth derivatives of a nonlinear expression, Willmore flow)
// are computed exactly rather than by hand-derived formulas. Device-usable.
#include <cmath>

#include "pdex/core/macros.hpp"

namespace pdex {

template <class T, int D>
struct Jet2 {
  static constexpr int size = (D + 1) * (D + 2) / 2;
  T c[size] = {};

  // Coefficients are ordered by total degree, so products and quotients can be built degree by degree.
  PDEX_HD static constexpr int at(int m, int n) { return (m + n) * (m + n + 1) / 2 + n; }
  PDEX_HD T operator()(int m, int n) const { return c[at(m, n)]; }
  PDEX_HD T value() const { return c[0]; }

  PDEX_HD static Jet2 constant(T v) {
    Jet2 r;
    r.c[0] = v;
    return r;
  }
};

template <class T, int D>
PDEX_HD Jet2<T, D> operator+(Jet2<T, D> a, const Jet2<T, D>& b) {
  for (int k = 0; k < a.size; ++k) a.c[k] += b.c[k];
  return a;
}
template <class T, int D>
PDEX_HD Jet2<T, D> operator-(Jet2<T, D> a, const Jet2<T, D>& b) {
  for (int k = 0; k < a.size; ++k) a.c[k] -= b.c[k];
  return a;
}
template <class T, int D>
PDEX_HD Jet2<T, D> operator*(T s, Jet2<T, D> a) {
  for (int k = 0; k < a.size; ++k) a.c[k] *= s;
  return a;
}
template <class T, int D>
PDEX_HD Jet2<T, D> operator+(T s, Jet2<T, D> a) {
  a.c[0] += s;
  return a;
}

// The sum over splits (p, q) + (m - p, n - q) of a(p, q) b(m - p, n - q), leaving out the splits
// that use a(0, 0) when skip_a0 and those that use b(0, 0) when skip_b0.
template <class T, int D>
PDEX_HD T cauchy(const Jet2<T, D>& a, const Jet2<T, D>& b, int m, int n, bool skip_a0, bool skip_b0) {
  T s = T(0);
  for (int p = 0; p <= m; ++p)
    for (int q = 0; q <= n; ++q) {
      if ((skip_a0 && p == 0 && q == 0) || (skip_b0 && p == m && q == n)) continue;
      s += a(p, q) * b(m - p, n - q);
    }
  return s;
}

template <class T, int D>
PDEX_HD Jet2<T, D> operator*(const Jet2<T, D>& a, const Jet2<T, D>& b) {
  Jet2<T, D> r;
  for (int g = 0; g <= D; ++g)
    for (int n = 0; n <= g; ++n) r.c[r.at(g - n, n)] = cauchy(a, b, g - n, n, false, false);
  return r;
}

// r = a / b from r b = a, degree by degree.
template <class T, int D>
PDEX_HD Jet2<T, D> operator/(const Jet2<T, D>& a, const Jet2<T, D>& b) {
  Jet2<T, D> r;
  for (int g = 0; g <= D; ++g)
    for (int n = 0; n <= g; ++n) {
      const int m = g - n;
      r.c[r.at(m, n)] = (a(m, n) - cauchy(b, r, m, n, true, false)) / b.c[0];
    }
  return r;
}

// r = sqrt(a) from r r = a, degree by degree.
template <class T, int D>
PDEX_HD Jet2<T, D> jet_sqrt(const Jet2<T, D>& a) {
  Jet2<T, D> r;
  r.c[0] = std::sqrt(a.c[0]);
  for (int g = 1; g <= D; ++g)
    for (int n = 0; n <= g; ++n) {
      const int m = g - n;
      r.c[r.at(m, n)] = (a(m, n) - cauchy(r, r, m, n, true, true)) / (T(2) * r.c[0]);
    }
  return r;
}

// d/dx and d/dy; the top degree becomes unknown and is set to zero (callers read lower degrees only).
template <class T, int D>
PDEX_HD Jet2<T, D> d_dx(const Jet2<T, D>& a) {
  Jet2<T, D> r;
  for (int g = 0; g < D; ++g)
    for (int n = 0; n <= g; ++n) r.c[r.at(g - n, n)] = T(g - n + 1) * a(g - n + 1, n);
  return r;
}
template <class T, int D>
PDEX_HD Jet2<T, D> d_dy(const Jet2<T, D>& a) {
  Jet2<T, D> r;
  for (int g = 0; g < D; ++g)
    for (int n = 0; n <= g; ++n) r.c[r.at(g - n, n)] = T(n + 1) * a(g - n, n + 1);
  return r;
}

}  // namespace pdex
