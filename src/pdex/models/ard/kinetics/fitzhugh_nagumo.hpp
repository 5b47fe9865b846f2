#pragma once
// FitzHugh-Nagumo (FitzHugh 1961): u the fast voltage-like variable, v the slow recovery variable.
#include <cstdint>
#include <type_traits>

#include "pdex/core/macros.hpp"
#include "pdex/models/ard/param.hpp"
#include "pdex/models/ard/reactions.hpp"

namespace pdex {

template <class T, class P>
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

// Its parameters by name; `p(name)` uploads one (ArdBase).
template <class T, class P, class F>
FitzHughNagumo<T, P> make_reaction(std::type_identity<FitzHughNagumo<T, P>>, F&& p) {
  return {p("a"), p("b"), p("eps")};
}

}  // namespace pdex
