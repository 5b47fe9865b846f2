#pragma once
// Fills every ghost cell of a field from its interior, on any executor.
#include <algorithm>

#include "pdex/core/parallel.hpp"
#include "pdex/grid/boundary.hpp"
#include "pdex/grid/field.hpp"
#include "pdex/grid/members.hpp"

namespace pdex {

template <class Exec, class T>
void fill_ghosts(const Exec& ex, FieldView<T> f, const FieldBoundary& bc) {
  Range2 inner, strips[4];
  split_ranges(f.interior(), f.ghost, inner, strips);
  for (const Range2& r : strips)
    for_each_cell(ex, r, [=] PDEX_HD(int i, int j) {
      for (int c = 0; c < f.ncomp; ++c) push_ghosts(f, bc, c, i, j, f(c, i, j));
    });
}

template <class Exec, class T>
void fill_ghosts(const Exec& ex, Field<T>& f, const FieldBoundary& bc) {
  fill_ghosts(ex, f.view(), bc);
}

// The ghosts of every member of a stacked field, each within its own rows. Launches per member: for
// set-up and for values written from outside, not for time steps.
template <class Exec, class T>
void fill_ghosts(const Exec& ex, Field<T>& f, const FieldBoundary& bc, const Members& members) {
  if (members.count <= 1) return fill_ghosts(ex, f.view(), bc);
  for (int m = 0; m < members.count; ++m) fill_ghosts(ex, members.view(f.view(), m), bc);
}

}  // namespace pdex
