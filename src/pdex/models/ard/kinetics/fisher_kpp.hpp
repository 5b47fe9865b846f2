#pragma once
// Fisher-KPP (Fisher 1937; Kolmogorov, Petrovsky and Piskunov 1937): one species with logistic growth,
// whose fronts travel at 2 sqrt(D r).
#include <cstdint>
#include <type_traits>

#include "pdex/core/macros.hpp"
#include "pdex/models/ard/param.hpp"
#include "pdex/models/ard/reactions.hpp"

namespace pdex {

template <class T, class P>
struct FisherKpp {
  P r;
  template <class Fn>
  PDEX_HD auto map(Fn f) const -> FisherKpp<T, decltype(f(r))> {
    return {f(r)};
  }
  static constexpr int ncomp = 1;
  PDEX_HD void operator()(const T* x, int64_t o, T* f) const { f[0] = r.at(o) * x[0] * (T(1) - x[0]); }
};

// Its parameters by name; `p(name)` uploads one (ArdBase).
template <class T, class P, class F>
FisherKpp<T, P> make_reaction(std::type_identity<FisherKpp<T, P>>, F&& p) {
  return {p("r")};
}

}  // namespace pdex
