#pragma once
// Forward Euler on the host, `steps` steps a pass over memory (cache blocking). The rows go in chunks,
// a chunk to a thread: the thread advances the chunk's rows, and the steps - l rows each side of it that
// the later levels need, through levels l = 1 .. steps - 1 held in two scratch windows of its own (a few
// hundred KB, in cache), and writes only the last level to `out`. Every update is the one-pass step's,
// from the same values, so the result is bitwise that of `steps` steps one at a time; only the rows each
// side of a chunk are computed twice.
//
// A window holds a level's rows at their own offsets (its data pointer set back so that offset(i, j)
// lands in the window), which keeps the parameters a right-hand side reads at the same offsets as the
// state's. Across a periodic y axis a window row past the last row is that row wrapped: computed from
// the rows around the wrapped one, through views moved by whole periods. A block of a grid split among
// ranks along y holds its neighbours' rows in ghost rows `steps` deep beyond the sides it shares (`deep`:
// bit bottom, bit top): the levels reach into them as into a grid's own rows.
//
// The rows' updates are a Rows object's (the built-in models' EulerCell here, a text model's compiled
// stage in models/equations):
//   void level(FieldView<const T> in, FieldView<T> out, int j, int l) const;  row j of level l from `in`
//       (rows j - 1 .. j + 1 of level l - 1), into `out`, its ghost images not pushed
//   void last(FieldView<const T> in, int j) const;  row j of the last level, into the run's out with its
//       ghost images, as a one-pass step writes them
#include <algorithm>
#include <cstdint>
#include <vector>

#include "pdex/core/executor.hpp"
#include "pdex/core/parallel_host.hpp"
#include "pdex/grid/boundary.hpp"
#include "pdex/time/euler_blocked_shape.hpp"
#include "pdex/time/forward_euler.hpp"

namespace pdex {

namespace blocked_detail {

template <class T>
FieldView<T> moved(FieldView<T> v, int64_t rows) {
  v.data += rows * v.pitch;
  return v;
}

// A view of `like`'s layout whose rows first - 1 .. last live in `buf` (ghost rows included).
template <class T>
FieldView<T> window(std::vector<T>& buf, const FieldView<const T>& like, int first, int last) {
  const int64_t rows = last - first + 2;
  buf.resize(std::size_t(rows * like.pitch * like.ncomp));
  FieldView<T> w{buf.data(), like.nx, like.ny, like.ghost, like.ncomp, like.pitch, rows * like.pitch, like.xoff};
  w.data -= (int64_t(first) - 1 + like.ghost) * like.pitch;
  return w;
}

// The ghost that push_ghosts writes beside a cell of value `mirror` (across a periodic side: the cell
// beyond, `across`), by the same operations.
template <class T>
T pushed(const SideBc& s, T mirror, T across) {
  if (s.kind == BcKind::periodic) return T(1) * across + T(0);
  const detail::GhostImage<T> r = detail::affine_image<T>(s, 0);
  return r.a * mirror + r.b;
}

// The ghosts a stencil of the next level reads beside row jr of a window level d: the row's x ghosts and,
// beside a non-periodic y side, the ghost row.
template <class T>
void push_window_images(const FieldBoundary& bc, const FieldView<T>& d, int jr, bool y_periodic, unsigned deep) {
  const int ny = d.ny, nx = d.nx;
  for (int c = 0; c < d.ncomp; ++c) {
    d(c, -1, jr) = pushed(bc.side[left][c], d(c, 0, jr), d(c, nx - 1, jr));
    d(c, nx, jr) = pushed(bc.side[right][c], d(c, nx - 1, jr), d(c, 0, jr));
    const Side side = jr == 0 ? bottom : top;
    if (y_periodic || (jr != 0 && jr != ny - 1) || (deep >> side & 1u)) continue;
    const SideBc& s = bc.side[side][c];
    const int ghost_row = jr == 0 ? -1 : ny;
    for (int i = -1; i <= nx; ++i) d(c, i, ghost_row) = pushed(s, d(c, i, jr), d(c, i, jr));
  }
}

// Row j of window level l from the level below (`src`: a window holding rows j - 1 .. j + 1, or the
// state itself, whose rows are the wrapped ones), with the ghosts a stencil of the next level reads.
template <class T, class Rows>
void window_row(const Rows& rows, const FieldBoundary& bc, FieldView<const T> src, bool src_window, FieldView<T> dst, int j, int l,
                bool y_periodic, unsigned deep) {
  const int ny = src.ny;
  const int jr = y_periodic ? (j % ny + ny) % ny : j;
  const FieldView<T> d = moved(dst, int64_t(j) - jr);
  rows.level(src_window ? moved(src, int64_t(j) - jr) : src, d, jr, l);
  push_window_images(bc, d, jr, y_periodic, deep);
}

// Rows j0 .. j1 - 1 of the run's out, `steps` steps on from `in`, through the two windows w.
template <class T, class Rows>
void advance_chunk(const Rows& rows, FieldView<const T> in, const FieldBoundary& bc, int steps, int j0, int j1, bool yp, unsigned deep,
                   std::vector<T> (&w)[2]) {
  const int ny = in.ny;
  const bool below = yp || (deep >> bottom & 1u), above = yp || (deep >> top & 1u);
  FieldView<const T> src = in;
  for (int l = 1; l < steps; ++l) {
    const int reach = steps - l;
    const int lo = below ? j0 - reach : std::max(0, j0 - reach), hi = above ? j1 + reach : std::min(ny, j1 + reach);
    const FieldView<T> dst = window(w[l % 2], in, lo, hi);
    for (int j = lo; j < hi; ++j) window_row(rows, bc, src, l > 1, dst, j, l, yp, deep);
    src = as_const(dst);
  }
  for (int j = j0; j < j1; ++j) rows.last(src, j);
}

// The built-in models' rows: EulerCell's updates, each row one flattened function (GCC left the cell
// update and the right-hand side out of line otherwise, a call a cell and no vectors, where it inlines
// them into euler_step's loops).
template <class T, class Rhs>
struct CellRows {
  EulerCell<T, Rhs> step;

  [[gnu::flatten]] void level(FieldView<const T> in, FieldView<T> out, int j, int) const {
    EulerCell<T, Rhs> cell = step;
    cell.in = in;
    cell.out = out;
    // By value, as euler_step's cells: captured by reference, the views would be reloaded at every cell.
    for_row_cells(0, in.nx, j, [=](int i, int r) { cell.template update<false>(cell.rhs, i, r, cell.out, r); });
  }
  // As euler_step writes a row: the cells by a side push their images.
  [[gnu::flatten]] void last(FieldView<const T> in, int j) const {
    EulerCell<T, Rhs> cell = step;
    cell.in = in;
    const int nx = in.nx;
    const auto edge = [=](int i, int r) { cell.template apply<true>(i, r); };
    if (j == 0 || j == in.ny - 1) return for_row_cells(0, nx, j, edge);
    for_row_cells(0, 1, j, edge);
    for_row_cells(1, nx - 1, j, [=](int i, int r) { cell.template apply<false>(i, r); });
    for_row_cells(nx - 1, nx, j, edge);
  }
};

}  // namespace blocked_detail

// `steps` forward Euler steps from `in` in one pass over the rows, by `rows` (see above; host executors;
// a run that euler_blocked_takes). A block's `deep` sides (their conditions periodic, which there means
// another rank's rows) need `steps` ghost rows of `in` filled with the neighbours' rows.
template <class Exec, class T, class Rows>
  requires(Exec::space == MemorySpace::host)
void blocked_rows(const Exec& ex, const Rows& rows, FieldView<const T> in, const FieldBoundary& bc, int steps, unsigned deep = 0) {
  const bool yp = !deep && bc.side[bottom][0].kind == BcKind::periodic;
  const int chunks = (in.ny + blocked_chunk_rows - 1) / blocked_chunk_rows;
  for_each_row(ex, 0, chunks, [&](int k) {
    thread_local std::vector<T> w[2];
    const int j0 = k * blocked_chunk_rows, j1 = std::min(in.ny, j0 + blocked_chunk_rows);
    blocked_detail::advance_chunk(rows, in, bc, steps, j0, j1, yp, deep, w);
  });
}

// The same for a built-in model's right-hand side, from `in` to `out` (which must not overlap); `out`'s
// ghosts are written as a step writes them, those beyond a block's deep sides left to the exchange.
template <class Exec, class T, class Rhs>
  requires(Exec::space == MemorySpace::host)
void euler_blocked(const Exec& ex, const Rhs& rhs, FieldView<const T> in, FieldView<T> out, const FieldBoundary& bc,
                   T dt, int steps, unsigned deep = 0) {
  blocked_rows(ex, blocked_detail::CellRows<T, Rhs>{EulerCell<T, Rhs>{rhs, in, out, bc, dt}}, in, bc, steps, deep);
}

}  // namespace pdex
