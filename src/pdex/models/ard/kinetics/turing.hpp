#pragma once
// Turing's morphogen kinetics, seed 000 eqs. (3)-(4).
#include <cstdint>
#include <type_traits>

#include "pdex/core/macros.hpp"
#include "pdex/models/ard/param.hpp"
#include "pdex/models/ard/reactions.hpp"

namespace pdex {

template <class T, class P>
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

// Its parameters by name; `p(name)` uploads one (ArdBase).
template <class T, class P, class F>
Turing<T, P> make_reaction(std::type_identity<Turing<T, P>>, F&& p) {
  return {p("alpha"), p("beta"), p("s")};
}

}  // namespace pdex
