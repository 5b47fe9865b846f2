#pragma once
// Reaction kinetics of the advection-reaction-diffusion models: f(u) for the `ncomp` species of a cell,
// f[c] from u[c]. Each is a parameter struct plus a device function; every parameter may vary per cell.
// Equations as in docs/models.md. map(f) gives the same kinetics with every parameter passed through f
// (ArdRhs::at reads them all at one cell).
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
  static constexpr int ncomp = 2;
  PDEX_HD void operator()(const T* x, int64_t o, T* f) const {
    const T u = x[0], v = x[1], uv = u * v, rate = s.at(o);
    f[0] = rate * (uv - u - alpha.at(o));  // eq. (3)
    f[1] = rate * (beta.at(o) - uv);       // eq. (4)
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
  static constexpr int ncomp = 2;
  PDEX_HD void operator()(const T* x, int64_t o, T* f) const {
    const T u = x[0], v = x[1], uvv = u * v * v, feed = F.at(o);
    f[0] = -uvv + feed * (T(1) - u);
    f[1] = uvv - (feed + k.at(o)) * v;
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
  static constexpr int ncomp = 2;
  PDEX_HD void operator()(const T* x, int64_t o, T* f) const {
    const T u = x[0], v = x[1];
    f[0] = u - u * u * u / T(3) - v;
    f[1] = eps.at(o) * (u + a.at(o) - b.at(o) * v);
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
  static constexpr int ncomp = 2;
  PDEX_HD void operator()(const T* x, int64_t o, T* f) const {
    const T u = x[0], v = x[1], uuv = u * u * v, bb = b.at(o);
    f[0] = a.at(o) - (bb + T(1)) * u + uuv;
    f[1] = bb * u - uuv;
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
  static constexpr int ncomp = 2;
  PDEX_HD void operator()(const T* x, int64_t o, T* f) const {
    const T u = x[0], v = x[1], uuv = u * u * v, g = gamma.at(o);
    f[0] = g * (a.at(o) - u + uuv);
    f[1] = g * (b.at(o) - uuv);
  }
};

// Fisher-KPP (Fisher 1937; Kolmogorov, Petrovsky and Piskunov 1937): one species with logistic growth,
// whose fronts travel at 2 sqrt(D r).
template <class T, class P = Param<T>>
struct FisherKpp {
  P r;
  template <class Fn>
  PDEX_HD auto map(Fn f) const -> FisherKpp<T, decltype(f(r))> {
    return {f(r)};
  }
  static constexpr int ncomp = 1;
  PDEX_HD void operator()(const T* x, int64_t o, T* f) const { f[0] = r.at(o) * x[0] * (T(1) - x[0]); }
};

// Cyclic competition of N species (May and Leonard 1975 for N = 3: rock-paper-scissors): species i
// grows logistically and is suppressed by species i+1 with weight alpha, by species i-1 with beta, and
// by any other with weight 1. With alpha + beta = 2 the total S = sum u_i grows as S(1 - S) exactly.
template <class T, int N, class P = Param<T>>
struct CyclicCompetition {
  P alpha, beta;
  template <class Fn>
  PDEX_HD auto map(Fn f) const -> CyclicCompetition<T, N, decltype(f(alpha))> {
    return {f(alpha), f(beta)};
  }
  static constexpr int ncomp = N;
  PDEX_HD void operator()(const T* x, int64_t o, T* f) const {
    T total = T(0);
#pragma unroll
    for (int c = 0; c < N; ++c) total += x[c];
    const T a = alpha.at(o) - T(1), b = beta.at(o) - T(1);
#pragma unroll
    for (int c = 0; c < N; ++c)
      f[c] = x[c] * (T(1) - total - a * x[(c + 1) % N] - b * x[(c + N - 1) % N]);
  }
};
template <class T, class P = Param<T>>
using MayLeonard = CyclicCompetition<T, 3, P>;
template <class T, class P = Param<T>>
using CyclicCompetition4 = CyclicCompetition<T, 4, P>;

}  // namespace pdex

// Every built-in kinetics: its name in configurations and its type, for the engine's dispatch
// (ard_stepper_impl.hpp) and its translation units (a kinetics' host kernels are compiled in one of
// their own, ard_kinetics.cpp, listed again in src/CMakeLists.txt).
#define PDEX_ARD_KINETICS(X)                                                                         \
  X("turing", Turing) X("gray_scott", GrayScott) X("fitzhugh_nagumo", FitzHughNagumo)                \
  X("brusselator", Brusselator) X("schnakenberg", Schnakenberg) X("fisher_kpp", FisherKpp)            \
  X("may_leonard", MayLeonard) X("cyclic_competition_4", CyclicCompetition4)
