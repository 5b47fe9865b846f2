#pragma once
// Cyclic competition of N species (May and Leonard 1975 for N = 3: rock-paper-scissors): species i
// grows logistically and is suppressed by species i+1 with weight alpha, by species i-1 with beta, and
// by any other with weight 1. With alpha + beta = 2 the total S = sum u_i grows as S(1 - S) exactly.
#include <cstdint>
#include <type_traits>

#include "pdex/core/macros.hpp"
#include "pdex/models/ard/param.hpp"
#include "pdex/models/ard/reactions.hpp"

namespace pdex {

template <class T, int N, class P>
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

// Its parameters by name; `p(name)` uploads one (ArdBase).
template <class T, int N, class P, class F>
CyclicCompetition<T, N, P> make_reaction(std::type_identity<CyclicCompetition<T, N, P>>, F&& p) {
  return {p("alpha"), p("beta")};
}

}  // namespace pdex
