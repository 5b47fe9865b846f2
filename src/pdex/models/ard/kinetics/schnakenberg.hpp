#pragma once
// Schnakenberg (1979), in Murray's scaling with the reaction strength gamma.
#include <cstdint>
#include <type_traits>

#include "pdex/core/macros.hpp"
#include "pdex/models/ard/param.hpp"
#include "pdex/models/ard/reactions.hpp"

namespace pdex {

template <class T, class P>
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

// Its parameters by name; `p(name)` uploads one (ArdBase).
template <class T, class P, class F>
Schnakenberg<T, P> make_reaction(std::type_identity<Schnakenberg<T, P>>, F&& p) {
  return {p("a"), p("b"), p("gamma")};
}

}  // namespace pdex
