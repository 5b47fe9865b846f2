#pragma once
// Reaction kinetics f(u, v), g(u, v) of the two-species models. Each is a parameter struct plus a
// device function; every parameter may vary per cell. Equations as in docs/models.md. map(f) gives the
// same kinetics with every parameter passed through f (ArdRhs::at reads them all at one cell).
#include <cstdint>

#include "pdex/core/macros.hpp"
#include "pdex/models/ard/param.hpp"

namespace pdex {

// Turing's morphogen kinetics, seed 000 eqs. (3)-(4).
template <class T, class P = Param<T>>
struct Turing {
  P alpha, beta, s;
  template <class Fn>
  PDEX_HD auto map(Fn f) const -> Turing<T, decltype(f(alpha))> {
    return {f(alpha), f(beta), f(s)};
  }
  PDEX_HD void operator()(T u, T v, int64_t o, T& fu, T& fv) const {
    const T uv = u * v, rate = s.at(o);
    fu = rate * (uv - u - alpha.at(o));  // eq. (3)
    fv = rate * (beta.at(o) - uv);       // eq. (4)
  }
};

// Gray-Scott (Pearson 1993): u the substrate, v the autocatalyst.
template <class T, class P = Param<T>>
struct GrayScott {
  P F, k;
  template <class Fn>
  PDEX_HD auto map(Fn f) const -> GrayScott<T, decltype(f(F))> {
    return {f(F), f(k)};
  }
  PDEX_HD void operator()(T u, T v, int64_t o, T& fu, T& fv) const {
    const T uvv = u * v * v, feed = F.at(o);
    fu = -uvv + feed * (T(1) - u);
    fv = uvv - (feed + k.at(o)) * v;
  }
};

// FitzHugh-Nagumo (FitzHugh 1961): u the fast voltage-like variable, v the slow recovery variable.
template <class T, class P = Param<T>>
struct FitzHughNagumo {
  P a, b, eps;
  template <class Fn>
  PDEX_HD auto map(Fn f) const -> FitzHughNagumo<T, decltype(f(a))> {
    return {f(a), f(b), f(eps)};
  }
  PDEX_HD void operator()(T u, T v, int64_t o, T& fu, T& fv) const {
    fu = u - u * u * u / T(3) - v;
    fv = eps.at(o) * (u + a.at(o) - b.at(o) * v);
  }
};

// Brusselator (Prigogine and Lefever 1968).
template <class T, class P = Param<T>>
struct Brusselator {
  P a, b;
  template <class Fn>
  PDEX_HD auto map(Fn f) const -> Brusselator<T, decltype(f(a))> {
    return {f(a), f(b)};
  }
  PDEX_HD void operator()(T u, T v, int64_t o, T& fu, T& fv) const {
    const T uuv = u * u * v, bb = b.at(o);
    fu = a.at(o) - (bb + T(1)) * u + uuv;
    fv = bb * u - uuv;
  }
};

// Schnakenberg (1979), in Murray's scaling with the reaction strength gamma.
template <class T, class P = Param<T>>
struct Schnakenberg {
  P a, b, gamma;
  template <class Fn>
  PDEX_HD auto map(Fn f) const -> Schnakenberg<T, decltype(f(a))> {
    return {f(a), f(b), f(gamma)};
  }
  PDEX_HD void operator()(T u, T v, int64_t o, T& fu, T& fv) const {
    const T uuv = u * u * v, g = gamma.at(o);
    fu = g * (a.at(o) - u + uuv);
    fv = g * (b.at(o) - uuv);
  }
};

}  // namespace pdex
