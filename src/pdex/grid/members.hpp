#pragma once
// The members of an ensemble (runs of one model with other parameter values) stacked in one field, so
// that one launch advances them all (DESIGN principle 7). Member m owns rows m * period() .. m * period()
// + ny - 1 of the stacked field; the 2 * ghost rows between two members are the ghosts of the one below
// and of the one above. A kernel over the stacked field skips those rows and pushes each member's ghosts
// within its own rows (view()), so that no member ever reads another's values.
#include <cstdint>

#include "pdex/core/macros.hpp"
#include "pdex/grid/field_view.hpp"
#include "pdex/grid/grid.hpp"

namespace pdex {

struct Members {
  int count = 1;  // 1: a single run, the stacked field is the run's own
  int ny = 0;     // rows of one member
  int ghost = 0;  // ghost rows on each side of a member

  PDEX_HD int period() const { return ny + 2 * ghost; }
  // The stacked field's rows: the members and the ghost rows between them.
  PDEX_HD int rows() const { return count * period() - 2 * ghost; }
  PDEX_HD int member(int j) const { return j / period(); }
  // Member m as a field of its own: the same memory, its rows and its ghosts only.
  template <class T>
  PDEX_HD FieldView<T> view(const FieldView<T>& stacked, int m) const {
    FieldView<T> v = stacked;
    v.data += int64_t(m) * period() * stacked.pitch;
    v.ny = ny;
    return v;
  }
  // The stacked grid of members on grid g.
  Grid2 stacked(const Grid2& g) const {
    Grid2 s = g;
    s.ny = rows();
    return s;
  }
  // Row j of member m in the stacked grid.
  PDEX_HD int row(int m, int j) const { return m * period() + j; }
};

}  // namespace pdex
