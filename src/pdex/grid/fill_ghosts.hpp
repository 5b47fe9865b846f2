#pragma once
// Fills the ghost cells of a field from its interior, on any executor.
#include <algorithm>

#include "pdex/core/parallel.hpp"
#include "pdex/grid/boundary.hpp"
#include "pdex/grid/field.hpp"
#include "pdex/grid/members.hpp"

namespace pdex {

// The z images of a 3D field's cells in its first and last `ghost` planes.
template <class Exec, class T>
void fill_z_ghosts(const Exec& ex, FieldView<T> f, const FieldBoundary& bc) {
  const int low_end = std::min(f.ghost, f.nz), high_start = std::max(low_end, f.nz - f.ghost);
  for_each_cell(ex, f.interior(), [=] PDEX_HD(int i, int j) {
    for (int c = 0; c < f.ncomp; ++c) {
      for (int k = 0; k < low_end; ++k) push_z_images(f, bc, c, i, j, k, f(c, i, j, k));
      for (int k = high_start; k < f.nz; ++k) push_z_images(f, bc, c, i, j, k, f(c, i, j, k));
    }
  });
}

// A 3D field's ghosts: the z images of its first and last planes, then the x and y images of every
// plane's cells, the ghost planes' included, so that a ghost outside along two or three axes is the image
// of an image, as a 2D corner is (multigrid's trilinear prolongation reads them). A launch per strip, its
// rows those of every plane.
template <class Exec, class T>
void fill_ghosts_3d(const Exec& ex, FieldView<T> f, const FieldBoundary& bc) {
  fill_z_ghosts(ex, f, bc);
  Range2 inner, strips[4];
  split_ranges(f.interior(), f.ghost, inner, strips);
  const int planes = f.nz + 2 * f.ghost, g = f.ghost;
  for (const Range2& s : strips) {
    const int rows = s.j1 - s.j0;
    if (rows <= 0 || s.i1 <= s.i0) continue;
    for_each_cell(ex, Range2{s.i0, s.i1, 0, rows * planes}, [=] PDEX_HD(int i, int q) {
      const int j = s.j0 + q % rows;
      const FieldView<T> p = f.in_plane(q / rows - g);
      for (int c = 0; c < p.ncomp; ++c) push_ghosts(p, bc, c, i, j, p(c, i, j));
    });
  }
}

// Every ghost cell of a field (of a 3D one: fill_ghosts_3d).
template <class Exec, class T>
void fill_ghosts(const Exec& ex, FieldView<T> f, const FieldBoundary& bc) {
  if (f.nz > 1) return fill_ghosts_3d(ex, f, bc);
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

// Offsets of ghost images given per cell along some sides (a side's value that varies along it): null
// where the side's own value holds. An x side's has ny values (its interior rows), a y side's nx + 2 ghost
// (its whole rows, x ghosts included).
template <class T>
struct SideOffsets {
  const T* at[4] = {};
};

namespace detail {
// A ghost from its image `mirror` (or, across a periodic side, the cell `across`) by side s's rule.
template <class T>
PDEX_HD inline T side_ghost(const SideBc& s, const T* offsets, int position, T mirror, T across) {
  if (s.kind == BcKind::periodic) return across;
  const GhostImage<T> r = affine_image<T>(s, 0);
  return r.a * mirror + (offsets ? offsets[position] : r.b);
}
}  // namespace detail

// Every ghost of component c, with the offsets `o` on the sides that have them: the x sides along the
// interior rows first, then whole rows of y ghosts, as fill_ghosts leaves them. Touches the ghosts only.
template <class Exec, class T>
void fill_ghosts(const Exec& ex, FieldView<T> f, const FieldBoundary& bc, int c, SideOffsets<T> o) {
  const SideBc sl = bc.side[left][c], sr = bc.side[right][c], sb = bc.side[bottom][c], st = bc.side[top][c];
  const int g = f.ghost, nx = f.nx, ny = f.ny;
  for_each_cell(ex, Range2{0, std::min(g, nx), 0, ny}, [=] PDEX_HD(int k, int j) {
    f(c, -1 - k, j) = detail::side_ghost(sl, o.at[left], j, f(c, k, j), f(c, nx - 1 - k, j));
    f(c, nx + k, j) = detail::side_ghost(sr, o.at[right], j, f(c, nx - 1 - k, j), f(c, k, j));
  });
  for_each_cell(ex, Range2{-g, nx + g, 0, std::min(g, ny)}, [=] PDEX_HD(int i, int k) {
    f(c, i, -1 - k) = detail::side_ghost(sb, o.at[bottom], i + g, f(c, i, k), f(c, i, ny - 1 - k));
    f(c, i, ny + k) = detail::side_ghost(st, o.at[top], i + g, f(c, i, ny - 1 - k), f(c, i, k));
  });
}

// The ghosts of every member of a stacked field, each within its own rows. Launches per member: for
// set-up and for values written from outside, not for time steps.
template <class Exec, class T>
void fill_ghosts(const Exec& ex, Field<T>& f, const FieldBoundary& bc, const Members& members) {
  if (members.count <= 1) return fill_ghosts(ex, f.view(), bc);
  for (int m = 0; m < members.count; ++m) fill_ghosts(ex, members.view(f.view(), m), bc);
}

}  // namespace pdex
