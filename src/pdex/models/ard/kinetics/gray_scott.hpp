#pragma once
// Gray-Scott (Pearson 1993): u the substrate, v the autocatalyst.
#include <cstdint>
#include <type_traits>

#include "pdex/core/macros.hpp"
#include "pdex/models/ard/param.hpp"
#include "pdex/models/ard/reactions.hpp"

namespace pdex {

template <class T, class P>
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

// Its parameters by name; `p(name)` uploads one (ArdBase).
template <class T, class P, class F>
GrayScott<T, P> make_reaction(std::type_identity<GrayScott<T, P>>, F&& p) {
  return {p("F"), p("k")};
}

}  // namespace pdex
