#pragma once
// Forward Euler, seed 000 eqs. (9)-(10): one fused pass per step reads the state, evaluates the
// right-hand side, applies the model's limiter (clamping), writes the new state and its ghost images.
#include "pdex/core/parallel.hpp"
#include "pdex/grid/boundary.hpp"
#include "pdex/grid/field_view.hpp"
#include "pdex/grid/members.hpp"

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
    update<MayBeEdge>(i, j, out, j);
  }
  // The update of cell (i, j), whose ghost images go to `own`, the run the cell belongs to (a member of
  // a stacked ensemble, grid/members.hpp), where the cell is in row `row`.
  template <bool MayBeEdge>
  PDEX_HD void update(int i, int j, const FieldView<T>& own, int row) const {
    T r[Rhs::ncomp];
    rhs(in, i, j, r);
    const int64_t o = in.offset(i, j);
    const bool edge = MayBeEdge && near_boundary(own, i, row);
    for (int c = 0; c < Rhs::ncomp; ++c) {
      const T val = rhs.limit(c, in.comp(c)[o] + dt * r[c]);
      out.comp(c)[o] = val;
      if (edge) push_ghosts(own, bc, c, i, row, val);
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

// One step of every member of a stacked ensemble, in one pass: the rows between members are ghosts and
// skipped, and each member's edge cells push their images within the member's rows. With `uniform`
// (every parameter one number within each member), a cell reads its member's parameters at the member's
// first cell, where the cells of a member all read them (cached), instead of its own per-cell copies.
template <class Exec, class T, class Rhs>
void euler_step(const Exec& ex, const Rhs& rhs, FieldView<const T> in, FieldView<T> out, const FieldBoundary& bc,
                T dt, const Members& members, bool uniform) {
  if constexpr (!Rhs::tensor) {
    if (uniform) {
      return for_each_cell(ex, in.interior(), [=] PDEX_HD(int i, int j) {
        const int m = members.member(j), row = j - members.row(m, 0);
        if (row >= members.ny) return;
        const auto own = rhs.at(in.offset(0, members.row(m, 0)));
        const EulerCell<T, decltype(own)> cell{own, in, out, bc, dt};
        cell.template update<true>(i, j, members.view(out, m), row);
      });
    }
  }
  const EulerCell<T, Rhs> cell{rhs, in, out, bc, dt};
  for_each_cell(ex, in.interior(), [=] PDEX_HD(int i, int j) {
    const int m = members.member(j), row = j - members.row(m, 0);
    if (row < members.ny) cell.template update<true>(i, j, members.view(out, m), row);
  });
}

}  // namespace pdex
