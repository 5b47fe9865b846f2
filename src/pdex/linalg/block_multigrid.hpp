#pragma once
// Multigrid on a block of a grid split among MPI ranks (grid/blocks.hpp): one process's cycle
// (multigrid.hpp, multigrid3.hpp: the same hierarchy, smoothing, transfers and coarse solve) with its fine
// levels distributed and its coarse levels gathered.
// A level is distributed while every block has an even count of cells along each axis split among the
// ranks: the blocks of the next level are then exact halves, red-black colours are the whole grid's, and
// the transfers beside a shared side read the neighbour's cells from the ghosts (transfer.hpp's open
// sides). Smoothing sweeps colour by colour with an exchange after each (block_sweeps.hpp); the residual is
// exchanged before its restriction, the corrected field after its prolongation. Those exchanges overlap
// work on the block's interior (block_step.hpp): the cells beside the sent sides first, the rest while
// their slabs travel; in 3D the coarse correction's own exchange before the prolongation does not.
// The first level that does not split so, or has gather_cells cells or fewer, is gathered onto every rank
// (agglomeration), which runs one process's multigrid from there (Multigrid or Multigrid3 on the level's
// whole grid) and takes its block of the correction, ghosts included: a few hundred cells cost less to
// solve on every rank than the latency of exchanges between blocks of a few cells.
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "pdex/grid/field.hpp"
#include "pdex/grid/fill_ghosts.hpp"
#include "pdex/grid/halo.hpp"
#include "pdex/linalg/block_sweeps.hpp"
#include "pdex/linalg/grid_ops.hpp"
#include "pdex/linalg/multigrid.hpp"
#include "pdex/linalg/multigrid3.hpp"
#include "pdex/linalg/transfer.hpp"
#include "pdex/linalg/transfer3.hpp"

namespace pdex {

// part (interior and one ring of ghosts) = the cells of `whole` from global index `first` on: a block's
// part of a gathered field, its ghosts the neighbours' cells or the whole field's boundary images.
template <class Exec, class T>
void take_block(const Exec& ex, FieldView<const T> whole, std::array<int, 3> first, FieldView<T> part) {
  const int fx = first[0], fy = first[1], fz = first[2];
  const int gz = part.nz > 1 ? 1 : 0, rows = part.ny + 2;
  for_each_cell(ex, Range2{-1, part.nx + 1, 0, rows * (part.nz + 2 * gz)}, [=] PDEX_HD(int i, int r) {
    const int j = r % rows - 1, k = r / rows - gz;
    for (int c = 0; c < part.ncomp; ++c) part(c, i, j, k) = whole(c, fx + i, fy + j, fz + k);
  });
}

// Op: Helmholtz<T> or Helmholtz3<T>, with or without a tensor.
template <class Exec, class T, class Op>
class BlockMultigrid final : public MultigridCycle<T> {
 public:
  using Serial = MultigridOf<Exec, T, Op>;  // one process's multigrid, whose rules the levels follow

  // The block's fine level: the operator `op` (its coefficient pointers index fields of `layout`, their
  // ghosts holding the neighbours' values), the block's conditions `bc`, `halo` its exchange.
  BlockMultigrid(const Exec& ex, const Field<T>& layout, const Op& op, const FieldBoundary& bc, int ncomp,
                 MultigridSettings s, HaloExchange& halo)
      : ex_(ex), settings_(s), halo_(halo), open_(halo.shared_sides()), ncomp_(ncomp) {
    auto fine = std::make_unique<Level>();
    fine->block = layout.grid();
    fine->whole = fine->block;
    const Extents2 w = halo.whole();
    fine->whole.nx = w.nx, fine->whole.ny = w.ny, fine->whole.nz = w.nz;
    fine->first = halo.first();
    fine->op = op;
    fine->bc = bc;
    fine->r = layout.like(Exec::space);
    const auto scale = scale_over_ranks(layout, op);
    fine->omega = smoothing_weight(*fine, scale);
    levels_.push_back(std::move(fine));
    for (;;) {
      const Level& l = *levels_.back();
      if (!splits(l)) break;
      truncated_ = Serial::sweeps_solve(op, l.whole, scale, ncomp);
      if (truncated_) return;
      Grid2 g = l.whole;
      if (l.whole.cells() <= gather_cells || !Serial::coarsen(g)) break;
      levels_.push_back(coarser(l, g));
      levels_.back()->omega = smoothing_weight(*levels_.back(), scale);
    }
    gather_below(*levels_.back());
  }

  int levels() const override { return int(levels_.size()) + (gathered_ ? gathered_->mg->levels() - 1 : 0); }

  void cycle(FieldView<T> x, FieldView<const T> b) override { cycle_at(0, x, b); }
  // Full multigrid is refused over ranks (LinearSolver): a cycle from x.
  void fmg(FieldView<T> x, FieldView<const T> b) override { cycle_at(0, x, b); }

 private:
  // The whole grids of levels with this many cells or fewer are gathered.
  static constexpr int64_t gather_cells = 1024;

  struct Level {
    Grid2 whole, block;                     // the level's whole grid and this rank's block of it
    std::array<int, 3> first{};             // the block's first cell in the whole grid
    Op op;
    FieldBoundary bc;
    Field<T> x, b, r;                       // correction, right-hand side, residual (level 0: r only)
    Field<T> d[max_solver_components], m;   // restricted coefficients (Op::tensor(): m)
    Field<T> dg;                            // a 3D tensor operator's diagonal (keep_diagonal)
    double omega = 1;                       // its smoothing weight
  };

  // The gathered level: its whole fields on every rank and one process's multigrid on them.
  struct Gathered {
    FieldBoundary bc;
    Field<T> x, b, d[max_solver_components], m, dg;
    std::unique_ptr<Serial> mg;
  };

  bool cut(int axis) const { return open_ >> (2 * axis) & 3u; }

  // Whether every rank's block of level l has an even count of cells along the split axes.
  bool splits(const Level& l) {
    const int n[3] = {l.block.nx, l.block.ny, l.block.nz};
    bool odd = false;
    for (int a = 0; a < 3; ++a) odd = odd || (cut(a) && n[a] % 2);
    return halo_.sum_over_ranks(odd ? 1.0 : 0.0) == 0;
  }

  // Serial::scale_of over the whole grid: the largest over the ranks, so that every rank truncates alike.
  auto scale_over_ranks(const Field<T>& layout, const Op& op) {
    auto s = Serial::scale_of(ex_, op, layout, ncomp_);
    s.each([&](double& v) { v = halo_.max_over_ranks(v); });
    return s;
  }

  static Spacing<T> spacing(const Grid2& g, FieldView<const T> f) {
    if constexpr (Op::volume())
      return Spacing<T>::make(g.dx, g.dy, f.pitch, g.dz, f.plane);
    else
      return Spacing<T>::make(g.dx, g.dy, f.pitch);
  }

  // The level below l, whose whole grid is g: along a split axis the block's half (splits(l) holds), along
  // the others the whole axis.
  std::unique_ptr<Level> coarser(const Level& l, const Grid2& g) {
    auto c = std::make_unique<Level>();
    c->whole = c->block = g;
    const int whole[3] = {l.whole.nx, l.whole.ny, l.whole.nz}, halved[3] = {g.nx, g.ny, g.nz};
    int n[3] = {g.nx, g.ny, g.nz};
    for (int a = 0; a < 3; ++a) {
      if (!cut(a)) continue;
      const int k = halved[a] == whole[a] ? 1 : 2;
      n[a] = (a == 0 ? l.block.nx : a == 1 ? l.block.ny : l.block.nz) / k;
      c->first[a] = l.first[a] / k;
    }
    c->block.nx = n[0], c->block.ny = n[1], c->block.nz = n[2];
    c->x = Field<T>(c->block, ncomp_, 1, Exec::space);
    c->b = c->x.like(Exec::space);
    c->r = c->x.like(Exec::space);
    const FieldBoundary finer_bc = levels_.size() == 1 ? homogeneous(l.bc) : l.bc;
    c->bc = finer_bc.respaced(g.dx / l.whole.dx, g.dy / l.whole.dy, g.dz / l.whole.dz);  // Robin sides' ghosts change with h
    c->op = l.op;
    set_sides(c->op, c->bc, ncomp_);
    c->op.h = spacing(g, c->x.cview());
    c->op.extents = c->block.extents();
    restrict_coefficients(l, *c);
    keep_diagonal(ex_, c->op, c->x, c->dg);
    return c;
  }

  // fine restricted into coarse (its ghosts left as they were); coarse_x is zeroed (a 2D grid's).
  void restrict_into(FieldView<const T> fine, FieldView<T> coarse, FieldView<T> coarse_x, const FieldBoundary& bc) {
    if constexpr (Op::volume()) {
      restrict3(ex_, fine, coarse, open_);
      fill_all(ex_, coarse_x, T(0));
    } else {
      restrict_residual(ex_, fine, coarse, coarse_x, bc, open_);
    }
  }

  // A coefficient field of level l (n components) restricted to level c, its ghosts its images beside the
  // grid's sides and the neighbours' cells beside the shared ones (the operator reads across them).
  Field<T> restricted(const Level& l, const Level& c, const T* data, int n, int64_t stride, const FieldBoundary& ghosts) {
    Field<T> to(c.block, n, 1, Exec::space), scratch = to.like(Exec::space);
    restrict_into(fields_at(l.r.cview(), data, n, stride), to.view(), scratch.view(), ghosts);
    fill_ghosts(ex_, to.view(), ghosts);
    halo_.exchange(to.view(), ghosts, Exec::space);
    return to;
  }

  void restrict_coefficients(const Level& l, Level& c) {
    take_coefficients(l.op, ncomp_, l.r.cview().comp_stride, c.bc, c.d, c.m, c.op,
                      [&](const T* data, int n, int64_t stride, const FieldBoundary& ghosts) {
                        return restricted(l, c, data, n, stride, ghosts);
                      });
  }

  // A coefficient field of level l gathered into the level's whole grid, with its images.
  Field<T> gathered(const Level& l, const T* data, int n, int64_t stride, const FieldBoundary& ghosts) {
    Field<T> out(l.whole, n, 1, Exec::space);
    halo_.gather(fields_at(l.r.cview(), data, n, stride), l.first, out.view(), Exec::space);
    fill_ghosts(ex_, out.view(), ghosts);
    return out;
  }

  // One process's multigrid on level l's whole grid, with the whole grid's conditions and coefficients.
  void gather_below(const Level& l) {
    auto g = std::make_unique<Gathered>();
    g->bc = halo_.whole_boundary(l.bc);
    g->x = Field<T>(l.whole, ncomp_, 1, Exec::space);
    g->b = g->x.like(Exec::space);
    Op op = l.op;
    op.extents = l.whole.extents();
    op.h = spacing(l.whole, g->x.cview());
    set_sides(op, g->bc, ncomp_);
    take_coefficients(l.op, ncomp_, l.r.cview().comp_stride, g->bc, g->d, g->m, op,
                      [&](const T* data, int n, int64_t stride, const FieldBoundary& ghosts) {
                        return gathered(l, data, n, stride, ghosts);
                      });
    keep_diagonal(ex_, op, g->x, g->dg);
    g->mg = std::make_unique<Serial>(ex_, l.whole, g->x, op, g->bc, ncomp_, settings_);
    gathered_ = std::move(g);
  }

  // Serial's weight on level l's whole grid.
  template <class Scale>
  double smoothing_weight(const Level& l, const Scale& s) const {
    if constexpr (Op::volume()) return Serial::smoothing_weight(l.op, l.whole, s, ncomp_);
    return settings_.smooth_omega;
  }

  // Serial's smoothing: red-black SOR over-relaxed, or Gauss-Seidel reversed after the correction where
  // the cycle preconditions CG (settings.symmetric).
  void smooth(const Level& l, FieldView<T> x, FieldView<const T> b, int n, bool post) {
    const T omega = settings_.symmetric ? T(1) : T(l.omega);
    for (int k = 0; k < n; ++k) sweep_colours(ex_, l.op, x, b, l.bc, omega, post && settings_.symmetric, false, halo_);
  }

  void cycle_at(std::size_t l, FieldView<T> x, FieldView<const T> b) {
    Level& lv = *levels_[l];
    if (l + 1 == levels_.size()) return bottom(lv, x, b);
    smooth(lv, x, b, settings_.pre, false);
    step_and_exchange(&halo_, block_parts(&halo_, x.extents(), x.ghost), lv.r.view(), lv.bc, Exec::space,
                      [&](const CellBox& box) { residual_field(ex_, lv.op, as_const(x), b, lv.r.view(), box); });
    Level& next = *levels_[l + 1];
    restrict_into(lv.r.cview(), next.b.view(), next.x.view(), next.bc);
    for (int k = 0; k < settings_.gamma; ++k) cycle_at(l + 1, next.x.view(), next.b.cview());
    if constexpr (Op::volume()) {
      // The trilinear prolongation reads ghosts outside along two or three axes too (Multigrid3's).
      fill_ghosts(ex_, next.x.view(), next.bc);
      halo_.exchange(next.x.view(), next.bc, Exec::space);
    }
    step_and_exchange(&halo_, block_parts(&halo_, x.extents(), x.ghost), x, lv.bc, Exec::space, [&](const CellBox& box) {
      if constexpr (Op::volume()) prolong_add3(ex_, next.x.cview(), x, lv.bc, box);
      else prolong_add(ex_, next.x.cview(), x, lv.bc, box);
    });
    smooth(lv, x, b, settings_.post, true);
  }

  // The coarsest distributed level: sweeps where they solve it, else the gathered level's cycle.
  void bottom(const Level& l, FieldView<T> x, FieldView<const T> b) {
    if (truncated_) return smooth(l, x, b, Serial::truncated_sweeps, false);
    Gathered& g = *gathered_;
    halo_.gather(b, l.first, g.b.view(), Exec::space);
    halo_.gather(as_const(x), l.first, g.x.view(), Exec::space);
    fill_ghosts(ex_, g.x.view(), g.bc);
    g.mg->cycle(g.x.view(), g.b.cview());
    take_block(ex_, g.x.cview(), l.first, x);
  }

  Exec ex_;
  MultigridSettings settings_;
  HaloExchange& halo_;
  unsigned open_ = 0;  // the block's sides shared with other blocks
  int ncomp_ = 1;
  std::vector<std::unique_ptr<Level>> levels_;
  bool truncated_ = false;  // the coarsest distributed level is solved by sweeps
  std::unique_ptr<Gathered> gathered_;
};

}  // namespace pdex
