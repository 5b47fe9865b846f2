#pragma once
// Forward Euler, seed 000 eqs. (9)-(10): one fused pass per step reads the state, evaluates the
// right-hand side, applies the model's limiter (clamping), writes the new state and its ghost images.
#include "pdex/core/parallel.hpp"
#include "pdex/grid/boundary.hpp"
#include "pdex/grid/field_view.hpp"

namespace pdex {

template <class Exec, class T, class Rhs>
void euler_step(const Exec& ex, const Rhs& rhs, FieldView<const T> in, FieldView<T> out, const FieldBoundary& bc,
                T dt) {
  for_each_cell(ex, in.interior(), [=] PDEX_HD(int i, int j) {
    T r[Rhs::ncomp];
    rhs(in, i, j, r);
    const int64_t o = in.offset(i, j);
    const bool edge = near_boundary(out, i, j);
    for (int c = 0; c < Rhs::ncomp; ++c) {
      const T val = rhs.limit(c, in.comp(c)[o] + dt * r[c]);
      out.comp(c)[o] = val;
      if (edge) push_ghosts(out, bc, c, i, j, val);
    }
  });
}

}  // namespace pdex
