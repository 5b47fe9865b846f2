#pragma once
// Brusselator (Prigogine and Lefever 1968).
#include <cstdint>
#include <type_traits>

#include "pdex/core/macros.hpp"
#include "pdex/models/ard/param.hpp"
#include "pdex/models/ard/reactions.hpp"

namespace pdex {

template <class T, class P>
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

// Its parameters by name; `p(name)` uploads one (ArdBase).
template <class T, class P, class F>
Brusselator<T, P> make_reaction(std::type_identity<Brusselator<T, P>>, F&& p) {
  return {p("a"), p("b")};
}

}  // namespace pdex
