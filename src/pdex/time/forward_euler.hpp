#pragma once
// Forward Euler, seed 000 eqs. (9)-(10): one fused pass per step reads the state, evaluates the
// right-hand side, applies the model's limiter (clamping), writes the new state and its ghost images.
#include "pdex/core/parallel.hpp"
#include "pdex/grid/boundary.hpp"
#include "pdex/grid/field_view.hpp"

namespace pdex {

// One cell of the step; MayBeEdge = false lets host loops over the inner cells drop the ghost test and
// vectorize.
template <class T, class Rhs>
struct EulerCell {
  Rhs rhs;
  FieldView<const T> in;
  FieldView<T> out;
  FieldBoundary bc;
  T dt;

  template <bool MayBeEdge>
  PDEX_HD void apply(int i, int j) const {
    T r[Rhs::ncomp];
    rhs(in, i, j, r);
    const int64_t o = in.offset(i, j);
    const bool edge = MayBeEdge && near_boundary(out, i, j);
    for (int c = 0; c < Rhs::ncomp; ++c) {
      const T val = rhs.limit(c, in.comp(c)[o] + dt * r[c]);
      out.comp(c)[o] = val;
      if (edge) push_ghosts(out, bc, c, i, j, val);
    }
  }
};

template <class Exec, class T, class Rhs>
void euler_step(const Exec& ex, const Rhs& rhs, FieldView<const T> in, FieldView<T> out, const FieldBoundary& bc,
                T dt) {
  const EulerCell<T, Rhs> cell{rhs, in, out, bc, dt};
  for_each_cell_split(
      ex, in.interior(), in.ghost, [=] PDEX_HD(int i, int j) { cell.template apply<false>(i, j); },
      [=] PDEX_HD(int i, int j) { cell.template apply<true>(i, j); });
}

}  // namespace pdex
