#pragma once
// Geometric multigrid for Helmholtz-type operators (helmholtz.hpp) on cell-centred grids of any size:
// V or W cycles, red-black SOR smoothing (on a GPU from one field into a scratch one and back, two sweeps
// a launch and one pass over memory: rb_sweep_pair_into), hat-weighted (full-weighting) restriction, bilinear
// prolongation (transfer.hpp), the operator rediscretized on every level, and an exact-enough solve on
// the coarsest level (one cell, or a few for elongated grids) by lexicographic Gauss-Seidel in one launch;
// where the operator's identity part dominates a level (a theta step's, at coarse spacings), the
// hierarchy stops there and a few sweeps solve it (sweeps_solve).
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "pdex/core/graph_cache.hpp"
#include "pdex/grid/field.hpp"
#include "pdex/grid/field_reductions.hpp"
#include "pdex/linalg/grid_ops.hpp"
#include "pdex/linalg/helmholtz.hpp"
#include "pdex/linalg/relaxation.hpp"
#include "pdex/linalg/transfer.hpp"

namespace pdex {

struct MultigridSettings {
  int gamma = 1;          // 1: V cycle, 2: W cycle
  int pre = 2, post = 2;  // smoothing sweeps before and after the coarse correction
  // A preconditioner for CG must be a symmetric operator: post-smoothing then sweeps the colours in
  // the reverse order, without over-relaxation. Otherwise both smoothings sweep red then black,
  // over-relaxed by smooth_omega (Yavneh's red-black SOR smoothing): measured on 2D Poisson, V(2,2)
  // cuts the residual 0.045 per cycle instead of 0.15 (docs/solvers.md).
  bool symmetric = false;
  double smooth_omega = 1.2;
};

// The coarse problem, solved in one launch by a single thread: the coarsest grid has a handful of
// cells, and launches, not arithmetic, would dominate a parallel solve there. Each update waits for
// the last (a dependent chain of memory accesses on the GPU), so the grid is coarsened down to one cell
// where it can be, which one sweep solves exactly. For a singular problem the right-hand side's mean is
// removed first (the coarse system is then consistent), and an unknown with a zero diagonal (a lone
// cell with no Dirichlet side and no identity part: pure null space) stays 0.
template <class Exec, class T>
void coarse_solve(const Exec& ex, const Helmholtz<T>& op, FieldView<T> x, FieldView<const T> b,
                  const FieldBoundary& bc, int sweeps, unsigned singular_mask) {
  for_each_cell(ex, Range2{0, 1, 0, 1}, [=] PDEX_HD(int, int) {
    const FieldView<const T> xc{x.data, x.nx, x.ny, x.ghost, x.ncomp, x.pitch, x.comp_stride, x.xoff};
    for (int c = 0; c < x.ncomp; ++c) {
      T shift = T(0);
      if (singular_mask & (1u << c)) {
        double s = 0;
        for (int j = 0; j < x.ny; ++j)
          for (int i = 0; i < x.nx; ++i) s += double(b(c, i, j));
        shift = T(s / (double(x.nx) * x.ny));
      }
      for (int k = 0; k < sweeps; ++k)
        for (int j = 0; j < x.ny; ++j)
          for (int i = 0; i < x.nx; ++i) {
            const T d = op.diag(i, j, c, x.offset(i, j));
            if (d == T(0)) continue;
            const T v = x(c, i, j) + (b(c, i, j) - shift - op.apply(xc, i, j, c)) / d;
            x(c, i, j) = v;
            push_ghosts(x, bc, c, i, j, v);
          }
    }
  });
}

// r = b - A x (no norm: nothing waits for the host inside a cycle).
template <class Exec, class T>
void residual_field(const Exec& ex, const Helmholtz<T>& op, FieldView<const T> x, FieldView<const T> b,
                    FieldView<T> r) {
  for_each_cell(ex, x.interior(), [=] PDEX_HD(int i, int j) {
    for (int c = 0; c < x.ncomp; ++c) r(c, i, j) = b(c, i, j) - op.apply(x, i, j, c);
  });
}

// Every component of f = the single-component array src of f's layout.
template <class Exec, class T>
void spread(const Exec& ex, const T* src, FieldView<T> f) {
  for_each_cell(ex, f.interior(), [=] PDEX_HD(int i, int j) {
    for (int k = 0; k < f.ncomp; ++k) f(k, i, j) = src[f.offset(i, j)];
  });
}

template <class Exec, class T>
class Multigrid {
 public:
  // The fine level's operator `op` (its d pointers, if any, index fields of layout `fine_layout`),
  // conditions `bc` and component count.
  Multigrid(const Exec& ex, const Grid2& grid, const Field<T>& fine_layout, const Helmholtz<T>& op,
            const FieldBoundary& bc, int ncomp, MultigridSettings s)
      : ex_(ex), settings_(s) {
    fine_r_ = fine_layout.like(Exec::space);
    if (sweeps_into<Exec>(fine_layout)) fine_tmp_ = fine_layout.like(Exec::space);
    fine_op_ = op;
    fine_bc_ = bc;
    const FieldBoundary hbc = homogeneous(bc);
    for (int c = 0; c < ncomp; ++c)
      if (has_constant_null_space(double(op.alpha), bc, c)) singular_mask_ |= 1u << c;
    Grid2 g = grid;
    const T* prev_d[max_solver_components] = {op.d[0], op.d[1]};
    double dmax[max_solver_components] = {1, 1};
    for (int c = 0; c < ncomp; ++c)
      if (op.d[c]) {
        FieldView<const T> d = fine_layout.cview();  // a one-component field of the fine layout
        d.data = op.d[c];
        d.ncomp = 1;
        dmax[c] = double(field_max(ex, d, 0));
      }
    truncated_ = sweeps_solve(op, g, dmax, ncomp);
    for (Grid2 fine_grid = g; !truncated_ && coarsen(g); fine_grid = g) {
      auto lv = std::make_unique<Level>();
      lv->x = Field<T>(g, ncomp, 1, Exec::space);
      lv->b = lv->x.like(Exec::space);
      lv->r = lv->x.like(Exec::space);
      if (sweeps_into<Exec>(lv->x)) lv->tmp = lv->x.like(Exec::space);
      lv->bc = hbc;
      lv->op = op;
      lv->op.h = Spacing<T>::make(g.dx, g.dy, lv->x.view().pitch);
      lv->op.nx = g.nx;
      lv->op.ny = g.ny;
      coarsen_coefficients(*lv, fine_grid, prev_d, ncomp);
      for (int c = 0; c < ncomp; ++c) prev_d[c] = lv->op.d[c];
      levels_.push_back(std::move(lv));
      truncated_ = sweeps_solve(op, g, dmax, ncomp);
    }
  }

  int levels() const { return int(levels_.size()) + 1; }

  // One cycle for A x = b on the fine level; x's ghosts hold its boundary images on entry and on exit.
  // The cycle waits for nothing, so CUDA replays it as one graph per (x, b).
  void cycle(FieldView<T> x, FieldView<const T> b) {
    graph_.run(ex_, x.data, b.data, [&] { cycle_at(0, x, b); });
  }

 private:
  struct Level {
    Field<T> x, b, r;  // correction, right-hand side, residual
    Field<T> tmp;      // the smoothers' other field, on the GPU (sweeps_into)
    Field<T> d[max_solver_components];  // restricted diffusivity multipliers, where they vary
    Helmholtz<T> op;
    FieldBoundary bc;
  };

  // Whether a level's system is solved well enough by a few sweeps: where its identity part dominates
  // (a theta step's operator at coarse spacings), no coarser level would pay for its launches. With
  // off-diagonal sum / diagonal q <= 1/8 in every component, each sweep cuts the error at least 8-fold.
  static bool sweeps_solve(const Helmholtz<T>& op, const Grid2& g, const double dmax[], int ncomp) {
    if (!(double(op.alpha) > 0)) return false;
    const double lap = 2 / (g.dx * g.dx) + 2 / (g.dy * g.dy);
    for (int c = 0; c < ncomp; ++c) {
      const double off = double(op.beta[c]) * dmax[c] * lap;
      if (8 * off > double(op.alpha) + off) return false;
    }
    return true;
  }

  // Halves an axis (rounding up) while it has more than one cell and is not already the coarser one.
  static bool coarsen(Grid2& g) {
    const bool cx = g.nx > 2 && g.dx <= 1.5 * g.dy, cy = g.ny > 2 && g.dy <= 1.5 * g.dx;
    if (!cx && !cy) return false;
    const double w = g.width(), h = g.height();
    if (cx) g.nx = (g.nx + 1) / 2;
    if (cy) g.ny = (g.ny + 1) / 2;
    g.dx = w / g.nx;
    g.dy = h / g.ny;
    return true;
  }

  // Each component's diffusivity multiplier, restricted like a residual (a one-component field has the
  // state's offsets: rows are laid out alike whatever the component count).
  void coarsen_coefficients(Level& lv, const Grid2& fine_grid, const T* const prev_d[], int ncomp) {
    for (int c = 0; c < ncomp; ++c) {
      if (!prev_d[c]) continue;
      Field<T> fine(fine_grid, 1, 1, Exec::space), scratch(lv.x.grid(), 1, 1, Exec::space);
      lv.d[c] = scratch.like(Exec::space);
      spread(ex_, prev_d[c], fine.view());
      restrict_residual(ex_, fine.cview(), lv.d[c].view(), scratch.view(), lv.bc);
      lv.op.d[c] = lv.d[c].cview().data;
    }
  }


  // n red-black sweeps of `from`, which is x or the level's tmp: in place, or where the level has a tmp,
  // from one field into the other, two a launch (rb_sweep_pair_into) and an odd one alone
  // (rb_sweep_into). Returns the field that holds the result.
  FieldView<T> smooth(const Helmholtz<T>& op, FieldView<T> from, FieldView<T> other, FieldView<const T> b,
                      const FieldBoundary& bc, int n, bool post) {
    const bool reverse = post && settings_.symmetric;
    const T omega = settings_.symmetric ? T(1) : T(settings_.smooth_omega);
    if (!other.data) {
      for (int k = 0; k < n; ++k) rb_sweep(ex_, op, from, b, bc, omega, reverse, false);
      return from;
    }
    for (int k = 0; k < n; k += 2) {
      if (k + 2 <= n) rb_sweep_pair_into(ex_, op, as_const(from), b, other, bc, omega, reverse);
      else rb_sweep_into(ex_, op, as_const(from), b, other, bc, omega, reverse, false);
      std::swap(from, other);
    }
    return from;
  }

  // On a level with a tmp, V(2,2) smooths x into tmp, corrects tmp, and smooths it back into x.
  void cycle_at(std::size_t l, FieldView<T> x, FieldView<const T> b) {
    const Helmholtz<T>& op = l == 0 ? fine_op_ : levels_[l - 1]->op;
    const FieldBoundary& bc = l == 0 ? fine_bc_ : levels_[l - 1]->bc;
    FieldView<T> tmp = l == 0 ? fine_tmp_.view() : levels_[l - 1]->tmp.view();
    FieldView<T> s = x;
    if (l == levels_.size()) {
      const int cells = x.nx * x.ny;
      if (truncated_) s = smooth(op, x, tmp, b, bc, truncated_sweeps, false);
      else coarse_solve(ex_, op, x, b, bc, cells <= 4 ? 10 : 4 * cells, singular_mask_);
    } else {
      s = smooth(op, x, tmp, b, bc, settings_.pre, false);
      FieldView<T> r = l == 0 ? fine_r_.view() : levels_[l - 1]->r.view();
      residual_field(ex_, op, as_const(s), b, r);
      Level& next = *levels_[l];
      restrict_residual(ex_, as_const(r), next.b.view(), next.x.view(), next.bc);
      for (int k = 0; k < settings_.gamma; ++k) cycle_at(l + 1, next.x.view(), next.b.cview());
      prolong_add(ex_, next.x.cview(), s, bc);
      s = smooth(op, s, s.data == x.data ? tmp : x, b, bc, settings_.post, true);
    }
    if (s.data != x.data) {  // an odd count of sweeps in all
      copy_interior(ex_, as_const(s), x);
      fill_ghosts(ex_, x, bc);
    }
  }

  Exec ex_;
  MultigridSettings settings_;
  Field<T> fine_r_, fine_tmp_;
  Helmholtz<T> fine_op_;
  FieldBoundary fine_bc_;
  unsigned singular_mask_ = 0;
  std::vector<std::unique_ptr<Level>> levels_;
  bool truncated_ = false;  // the coarsest level is solved by sweeps (sweeps_solve), not coarse_solve
  static constexpr int truncated_sweeps = 4;
  GraphCache<Exec> graph_;
};

}  // namespace pdex
