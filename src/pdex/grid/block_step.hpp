#pragma once
// A step of a block of a grid split among ranks that overlaps its halo exchange (grid/halo.hpp): the
// cells beside the sides whose slabs are sent first, then the interior while those slabs travel. One
// grid's step (no exchange) takes all its cells at once.
#include "pdex/core/parallel.hpp"
#include "pdex/grid/halo.hpp"

namespace pdex {

// The cells of a stage or step: a grid's interior, or a part of a block's (split_border).
using CellBox = BorderSplit::Box;

// A grid's cells split for its steps: beside the sides sent where there is an exchange (`depth` cells
// deep: the ghost width), all of them as the interior otherwise.
inline BorderSplit block_parts(HaloExchange* halo, const Extents2& n, int depth) {
  return split_border(n, halo ? sent_sides(halo->shared_sides()) : 0u, depth);
}

// The result `out` of step(box) over every cell of `parts`, with its shared ghosts from the neighbours
// where there is an exchange: step(border box) for each, then the exchange with step(interior) meanwhile.
// step is never given an empty box (split_border makes no empty border box; a thin block's interior may be).
template <class T, class Step>
void step_and_exchange(HaloExchange* halo, const BorderSplit& parts, FieldView<T> out, const FieldBoundary& bc, MemorySpace space,
                       const Step& step) {
  for (int p = 0; p < parts.count; ++p) step(parts.border[p]);
  const auto interior = [&] {
    if (!parts.interior.empty()) step(parts.interior);
  };
  if (halo) halo->exchange(out, bc, space, interior);
  else interior();
}

// A box's rows numbered q = 0, 1, ...: row lo[1] + q % width of plane lo[2] + q / width.
struct BoxRows {
  int j0, k0, width;
  PDEX_HD int row(int q) const { return j0 + q % width; }
  PDEX_HD int plane(int q) const { return k0 + q / width; }
  // Row q as FieldView::interior_rows() numbers the rows of a field with ny rows a plane.
  PDEX_HD int flat(int q, int ny) const { return plane(q) * ny + row(q); }
};
inline BoxRows box_rows(const CellBox& b) { return {b.lo[1], b.lo[2], b.hi[1] - b.lo[1]}; }
// The range of (i, q) over box b's cells: i along x, q its rows (BoxRows).
inline Range2 box_range(const CellBox& b) { return {b.lo[0], b.hi[0], 0, (b.hi[1] - b.lo[1]) * (b.hi[2] - b.lo[2])}; }

// f(i, r) at every cell of box b, r its row in FieldView::interior_rows()' numbering (row r % ny of plane
// r / ny); a box of whole rows is one range of them.
template <class Exec, class F>
void for_each_box_cell(const Exec& ex, const CellBox& b, int ny, F f) {
  if (b.empty()) return;
  if (b.lo[1] == 0 && b.hi[1] == ny) return for_each_cell(ex, Range2{b.lo[0], b.hi[0], b.lo[2] * ny, b.hi[2] * ny}, f);
  const BoxRows rows = box_rows(b);
  for_each_cell(ex, box_range(b), [=] PDEX_HD(int i, int q) { f(i, rows.flat(q, ny)); });
}

// f(i, r) reduced by op over every cell of box b (for_each_box_cell's numbering); the identity where b is
// empty.
template <class V, class Exec, class F, class Op>
V reduce_box_cells(const Exec& ex, const CellBox& b, int ny, F f, Op op) {
  if (b.empty()) return Op::identity();
  if (b.lo[1] == 0 && b.hi[1] == ny) return reduce<V>(ex, Range2{b.lo[0], b.hi[0], b.lo[2] * ny, b.hi[2] * ny}, f, op);
  const BoxRows rows = box_rows(b);
  return reduce<V>(ex, box_range(b), [=] PDEX_HD(int i, int q) { return f(i, rows.flat(q, ny)); }, op);
}

}  // namespace pdex
