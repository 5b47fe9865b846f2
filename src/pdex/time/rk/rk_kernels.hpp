#pragma once
// The pointwise kernels of an explicit Runge-Kutta step: a stage argument u + sum_m w_m k_m, and the
// new state u + sum_s b_s k_s fused with the local error max |sum_s e_s k_s| (seed 003 eqs. 28-29), so
// that a Merson step reads its stages once after the last right-hand side. The weights already hold tau.
#include <cstdint>
#include <limits>

#include "pdex/core/macros.hpp"
#include "pdex/grid/boundary.hpp"
#include "pdex/grid/field_view.hpp"
#include "pdex/time/rk/tableau.hpp"

namespace pdex {

// Stage fields (all of one layout, so one offset serves all) with their weights; only nonzero weights.
template <class T>
struct StageTerms {
  const T* k[max_stages];
  T w[max_stages];
  int n = 0;
  PDEX_HD T sum(int64_t at) const {
    T s = T(0);
    for (int m = 0; m < n; ++m) s += w[m] * k[m][at];
    return s;
  }
};

// out = u + sum; returns |err| (max over components) at the cell. Edge cells push their ghost images,
// so the result is ready for the next stencil without a ghost pass.
template <class T>
struct RkCombine {
  FieldView<const T> u;
  FieldView<T> out;
  FieldBoundary bc;
  StageTerms<T> terms, err;

  template <bool MayBeEdge>
  PDEX_HD T apply(int i, int j) const {
    const int64_t o = u.offset(i, j);
    const bool edge = MayBeEdge && near_boundary(out, i, j);
    T e = T(0);
    for (int c = 0; c < u.ncomp; ++c) {
      const int64_t at = o + c * u.comp_stride;
      const T v = u.data[at] + terms.sum(at);
      out.data[at] = v;
      if (edge) push_ghosts(out, bc, c, i, j, v);
      const T ec = err.sum(at), a = ec < T(0) ? -ec : ec;
      e = a == a ? (a > e ? a : e) : std::numeric_limits<T>::infinity();  // NaN must survive a Max reduction
    }
    return e;
  }
  PDEX_HD T operator()(int i, int j) const { return apply<true>(i, j); }
};

}  // namespace pdex
