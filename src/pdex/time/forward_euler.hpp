#pragma once
// Forward Euler, seed 000 eqs. (9)-(10): one fused pass per step reads the state, evaluates the
// right-hand side, applies the model's limiter (clamping), writes the new state and its ghost images.
#include <algorithm>

#include "pdex/core/parallel.hpp"
#include "pdex/grid/boundary.hpp"
#include "pdex/grid/field_view.hpp"
#include "pdex/grid/members.hpp"

namespace pdex {

// One cell of the step; MayBeEdge = false lets host loops over the inner cells drop the ghost test and
// vectorize. Forced inline: left out of line, GCC called the update once a cell from the simd loop of
// for_each_cell_split, and the host's one-pass step ran at a tenth of its rate.
template <class T, class Rhs>
struct EulerCell {
  Rhs rhs;
  FieldView<const T> in;
  FieldView<T> out;
  FieldBoundary bc;
  T dt;

  template <bool MayBeEdge>
  PDEX_HD PDEX_FORCEINLINE void apply(int i, int j) const {
    update<MayBeEdge>(rhs, i, j, out, j);
  }
  // The update of cell (i, j) by the right-hand side r, its ghost images pushed into `own`, the run the
  // cell belongs to (a member of a stacked ensemble, grid/members.hpp), where the cell is in row `row`.
  template <bool MayBeEdge, class R>
  PDEX_HD PDEX_FORCEINLINE void update(const R& r, int i, int j, const FieldView<T>& own, int row) const {
    T f[Rhs::ncomp];
    r(in, i, j, f);
    const int64_t o = in.offset(i, j);
    const bool edge = MayBeEdge && near_boundary(own, i, row);
    for (int c = 0; c < Rhs::ncomp; ++c) {
      const T val = r.limit(c, in.comp(c)[o] + dt * f[c]);
      out.comp(c)[o] = val;
      if (edge) push_ghosts(own, bc, c, i, row, val);
    }
  }
};

// The step's updates of the cells of r (a block's border, or its interior while the halo exchange runs:
// ArdEuler over ranks); cells by r's edges take the edge test.
template <class Exec, class T, class Rhs>
void euler_step_cells(const Exec& ex, const Rhs& rhs, FieldView<const T> in, FieldView<T> out, const FieldBoundary& bc,
                      T dt, Range2 r) {
  const EulerCell<T, Rhs> cell{rhs, in, out, bc, dt};
  for_each_cell_split(
      ex, r, in.ghost, [=] PDEX_HD(int i, int j) { cell.template apply<false>(i, j); },
      [=] PDEX_HD(int i, int j) { cell.template apply<true>(i, j); });
}

template <class Exec, class T, class Rhs>
void euler_step(const Exec& ex, const Rhs& rhs, FieldView<const T> in, FieldView<T> out, const FieldBoundary& bc,
                T dt) {
  euler_step_cells(ex, rhs, in, out, bc, dt, in.interior());
}

// One step of a 3D field, in one pass over its planes' rows, stacked as the rows of one 2D field (the
// ghost rows between two planes skipped): the right-hand side reads row J = k (ny + 2 ghost) + j as cell
// (i, j) of plane k, since planes lie that many rows apart. Each cell pushes its x and y images within its
// plane, and, in the first and last `ghost` planes, its z images into the ghost planes. On the host a
// row's inner cells skip the edge test (and vectorize) unless the row lies at an edge of its plane or in a
// plane at a z side.
template <class T, class Rhs>
struct EulerCell3D {
  EulerCell<T, Rhs> cell;
  Members planes;  // one member a plane

  // Cell i of stacked row J, which is not a ghost row between two planes.
  template <bool MayBeEdge>
  PDEX_HD void apply(int i, int J) const {
    const int k = planes.member(J), row = J - planes.row(k, 0);
    cell.template update<MayBeEdge>(cell.rhs, i, J, cell.out.in_plane(k), row);
    if (MayBeEdge) push_z(i, row, k);
  }
  // The images of cell i of stacked row J, its new value written: within its plane, and across z.
  PDEX_HD void push(int i, int J) const {
    const int k = planes.member(J), row = J - planes.row(k, 0);
    const FieldView<T>& out = cell.out;
    const int64_t o = out.offset(i, row, k);
    for (int c = 0; c < Rhs::ncomp; ++c) push_cell_images(out, cell.bc, c, i, row, k, out.comp(c)[o]);
  }
  PDEX_HD void push_z(int i, int row, int k) const {
    const FieldView<T>& out = cell.out;
    if (!near_z_side(out, k)) return;
    const int64_t o = out.offset(i, row, k);
    for (int c = 0; c < Rhs::ncomp; ++c) push_z_images(out, cell.bc, c, i, row, k, out.comp(c)[o]);
  }
};

// Rows q0 .. q1 - 1 of a box of a 3D step on the host (q: the box's plane * rows + its row from j0, k0),
// cells i0 .. i1 - 1 of each: a row's cells in one loop without edge tests (it vectorizes), then the
// images of the cells that have them (short rows, a 3D grid's, would otherwise pay an edge test and a
// loop each side). The cell is captured by value once a run of rows: by reference, its views would be
// reloaded at every cell; once a row, its copy (the boundary conditions: over a kilobyte) cost more than
// the row's loads. Flattened: in OpenMP's outlined loop GCC called the right-hand side out of line.
template <class T, class Rhs>
[[gnu::flatten]] void euler_rows_3d(const EulerCell3D<T, Rhs>& cell, int q0, int q1, int rows, int j0, int k0, int i0, int i1) {
  const auto inner = [=](int i, int r) { cell.template apply<false>(i, r); };
  const auto push = [=](int i, int r) { cell.push(i, r); };
  const FieldView<T>& out = cell.cell.out;
  const int nx = out.nx, ny = out.ny, g = out.ghost;
  for (int q = q0; q < q1; ++q) {
    const int k = k0 + q / rows, row = j0 + q % rows, J = cell.planes.row(k, row);
    for_row_cells(i0, i1, J, inner);
    if (near_z_side(out, k) || row < g || row >= ny - g) {
      for_row_cells(i0, i1, J, push);
      continue;
    }
    for (int i = i0; i < std::min(g, i1); ++i) push(i, J);
    for (int i = std::max({g, nx - g, i0}); i < i1; ++i) push(i, J);
  }
}

// The step's updates of the cells of a box of a 3D field (x: [lo[0], hi[0]), y and z alike): the whole
// field, a block's border, or its interior while the halo exchange runs. On the device a thread a cell
// (two-species isotropic runs walk columns instead: time/cuda/euler_columns.cuh).
template <class Exec, class T, class Rhs>
void euler_step_3d_cells(const Exec& ex, const Rhs& rhs, FieldView<const T> in, FieldView<T> out, const FieldBoundary& bc,
                         T dt, const int (&lo)[3], const int (&hi)[3]) {
  const EulerCell3D<T, Rhs> cell{{rhs, in, out, bc, dt}, Members{in.nz, in.ny, in.ghost}};
  const Members planes = cell.planes;
  const int i0 = lo[0], i1 = hi[0], j0 = lo[1], k0 = lo[2], rows = hi[1] - lo[1];
  const int count = rows * (hi[2] - lo[2]);  // the box's rows, q = its plane * rows + its row
  if constexpr (Exec::space == MemorySpace::host) {
    for_each_row_run(ex, 0, count, [&](int q0, int q1) { euler_rows_3d(cell, q0, q1, rows, j0, k0, i0, i1); });
  } else {
    for_each_cell(ex, Range2{i0, i1, 0, count}, [=] PDEX_HD(int i, int q) {
      cell.template apply<true>(i, planes.row(k0 + q / rows, j0 + q % rows));
    });
  }
}

// One step of every member of a stacked ensemble, in one pass: the rows between members are ghosts and
// skipped, and each member's edge cells push their images within the member's rows. Member m's cells use
// the right-hand side member_rhs(m). On the host a row of a member is split as a single run's is (its
// inner cells without the edge test, so that they vectorize); on the device every cell takes the test.
template <class Exec, class T, class Rhs, class MemberRhs>
void ensemble_euler(const Exec& ex, const EulerCell<T, Rhs>& cell, const Members& members, MemberRhs member_rhs) {
  const int nx = cell.in.nx, g = cell.in.ghost;
  if constexpr (Exec::space == MemorySpace::host) {
    for_each_row(ex, 0, members.rows(), [&](int j) {
      const int m = members.member(j), row = j - members.row(m, 0);
      if (row >= members.ny) return;
      const auto rhs = member_rhs(m);
      const FieldView<T> own = members.view(cell.out, m);
      const auto inner = [=](int i, int jj) { cell.template update<false>(rhs, i, jj, own, row); };
      const auto edge = [=](int i, int jj) { cell.template update<true>(rhs, i, jj, own, row); };
      if (row < g || row >= members.ny - g) return for_row_cells(0, nx, j, edge);
      for_row_cells(0, g, j, edge);
      for_row_cells(g, nx - g, j, inner);
      for_row_cells(nx - g, nx, j, edge);
    });
  } else {
    for_each_cell(ex, Range2{0, nx, 0, members.rows()}, [=] PDEX_HD(int i, int j) {
      const int m = members.member(j), row = j - members.row(m, 0);
      if (row < members.ny) cell.template update<true>(member_rhs(m), i, j, members.view(cell.out, m), row);
    });
  }
}

// The right-hand side of member m of a stacked ensemble where every parameter is one number within each
// member: read once, at the member's first cell, instead of per-cell copies (on the device: the same few
// addresses for all of a member's cells, cached).
template <class T, class Rhs>
struct MemberFrozenRhs {
  Rhs rhs;
  FieldView<const T> in;
  Members members;
  PDEX_HD auto operator()(int m) const { return rhs.at(in.offset(0, members.row(m, 0))); }
};

// Every member's right-hand side is the run's (its parameters read per cell).
template <class Rhs>
struct SharedRhs {
  Rhs rhs;
  PDEX_HD const Rhs& operator()(int) const { return rhs; }
};

// Calls f(member_rhs) with the members' right-hand sides, frozen per member where `uniform` allows.
template <class T, class Rhs, class F>
void with_member_rhs(const Rhs& rhs, FieldView<const T> in, const Members& members, bool uniform, F f) {
  if constexpr (!Rhs::tensor) {
    if (uniform) return f(MemberFrozenRhs<T, Rhs>{rhs, in, members});
  }
  f(SharedRhs<Rhs>{rhs});
}

// Forward Euler on a stacked ensemble, by the generic schedule.
template <class Exec, class T, class Rhs>
void euler_step(const Exec& ex, const Rhs& rhs, FieldView<const T> in, FieldView<T> out, const FieldBoundary& bc,
                T dt, const Members& members, bool uniform) {
  const EulerCell<T, Rhs> cell{rhs, in, out, bc, dt};
  with_member_rhs(rhs, in, members, uniform, [&](auto member_rhs) { ensemble_euler(ex, cell, members, member_rhs); });
}

}  // namespace pdex
