#pragma once
// Fills every ghost cell of a field from its interior, on any executor.
#include <algorithm>

#include "pdex/core/parallel.hpp"
#include "pdex/grid/boundary.hpp"
#include "pdex/grid/field.hpp"

namespace pdex {

// The cells within `ghost` of a side, as four disjoint strips (bottom rows, top rows, left and right
// columns of the remaining rows).
inline void boundary_strips(int nx, int ny, int g, Range2 out[4]) {
  const int yb = std::min(g, ny), yt = std::max(yb, ny - g);
  const int xl = std::min(g, nx), xr = std::max(xl, nx - g);
  out[0] = Range2{0, nx, 0, yb};
  out[1] = Range2{0, nx, yt, ny};
  out[2] = Range2{0, xl, yb, yt};
  out[3] = Range2{xr, nx, yb, yt};
}

template <class Exec, class T>
void fill_ghosts(const Exec& ex, FieldView<T> f, const FieldBoundary& bc) {
  Range2 strips[4];
  boundary_strips(f.nx, f.ny, f.ghost, strips);
  for (const Range2& r : strips)
    for_each_cell(ex, r, [=] PDEX_HD(int i, int j) {
      for (int c = 0; c < f.ncomp; ++c) push_ghosts(f, bc, c, i, j, f(c, i, j));
    });
}

template <class Exec, class T>
void fill_ghosts(const Exec& ex, Field<T>& f, const FieldBoundary& bc) {
  fill_ghosts(ex, f.view(), bc);
}

}  // namespace pdex
