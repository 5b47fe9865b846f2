#pragma once
// Geometric multigrid for Helmholtz-type operators (helmholtz.hpp) on cell-centred grids of any size:
// V or W cycles, red-black SOR smoothing (on a GPU from one field into a scratch one and back, two sweeps
// a launch and one pass over memory: rb_sweep_pair_into), hat-weighted (full-weighting) restriction, bilinear
// prolongation (transfer.hpp), the operator rediscretized on every level, and on the coarsest level
// (256 cells or fewer) red-black SOR sweeps at the near-optimal omega that cut its error a
// thousandfold, in one block on a GPU (sor_sweeps; a tensor's hierarchy goes down to one cell, or a few
// for elongated grids, solved by lexicographic Gauss-Seidel in one launch: coarse_solve); where the operator's identity part dominates a level (a theta step's, at coarse spacings), the
// hierarchy stops there and a few sweeps solve it (sweeps_solve). A tensor operator (anisotropic
// diffusion) is rediscretized from its tensor and multipliers restricted like residuals, and smoothed by
// four-colour Gauss-Seidel in place (rb_sweeps).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "pdex/core/graph_cache.hpp"
#include "pdex/grid/field.hpp"
#include "pdex/grid/field_reductions.hpp"
#include "pdex/grid/fill_ghosts.hpp"
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
  // over-relaxed by smooth_omega (Yavneh's red-black SOR smoothing), which cuts the residual of 2D
  // Poisson far more per V(2,2) cycle (docs/solvers.md).
  bool symmetric = false;
  double smooth_omega = 1.2;
};

// What a solver takes of a multigrid: its cycles (Multigrid and Multigrid3 on one process, BlockMultigrid
// on a block of a grid split among MPI ranks).
template <class T>
class MultigridCycle {
 public:
  virtual ~MultigridCycle() = default;
  virtual int levels() const = 0;
  // One cycle for A x = b on the fine level; x's ghosts hold its boundary images on entry and on exit.
  virtual void cycle(FieldView<T> x, FieldView<const T> b) = 0;
  // Full multigrid for A x = b from scratch (x's values are not used): b restricted down every level,
  // the coarsest level solved with the problem's own conditions, then each finer level started from the
  // coarser level's solution, interpolated, and given one cycle. Its error is then within a small
  // factor of the discretization's (docs/solvers.md, "Full multigrid").
  virtual void fmg(FieldView<T> x, FieldView<const T> b) = 0;
};

// The coarse problem, solved in one launch by a single thread: the coarsest grid has a handful of
// cells, and launches, not arithmetic, would dominate a parallel solve there. Each update waits for
// the last (a dependent chain of memory accesses on the GPU), so the grid is coarsened down to one cell
// where it can be, which one sweep solves exactly. For a singular problem the right-hand side's mean is
// removed first (the coarse system is then consistent), and an unknown with a zero diagonal (a lone
// cell with no Dirichlet side and no identity part: pure null space) stays 0. Any grid: the cells are
// walked by interior rows (grid_ops.hpp), which both operators take (Multigrid3's coarsest level too).
template <class Exec, class T, class Op>
void coarse_solve(const Exec& ex, const Op& op, FieldView<T> x, FieldView<const T> b,
                  const FieldBoundary& bc, int sweeps, unsigned singular_mask) {
  for_each_cell(ex, Range2{0, 1, 0, 1}, [=] PDEX_HD(int, int) {
    const FieldView<const T> xc = as_const(x);
    const int rows = x.ny * x.nz;
    for (int c = 0; c < x.ncomp; ++c) {
      T shift = T(0);
      if (singular_mask & (1u << c)) {
        double s = 0;
        for (int r = 0; r < rows; ++r)
          for (int i = 0; i < x.nx; ++i) s += double(b.comp(c)[b.row_offset(i, r)]);
        shift = T(s / double(x.extents().cells()));
      }
      for (int k = 0; k < sweeps; ++k)
        for (int r = 0; r < rows; ++r)
          for (int i = 0; i < x.nx; ++i) {
            const int64_t o = x.row_offset(i, r);
            const T d = op.diag(i, r, c, o);
            if (d == T(0)) continue;
            const T v = x.comp(c)[o] + (b.comp(c)[o] - shift - op.apply(xc, i, r, c)) / d;
            x.comp(c)[o] = v;
            push_row_images(x, bc, c, i, r, v);
          }
    }
  });
}

// r = b - A x over box `box` (no norm: nothing waits for the host inside a cycle); any grid (grid_ops.hpp's
// rows).
template <class Exec, class T, class Op>
void residual_field(const Exec& ex, const Op& op, FieldView<const T> x, FieldView<const T> b, FieldView<T> r,
                    const CellBox& box) {
  for_each_box_cell(ex, box, x.ny, [=] PDEX_HD(int i, int j) {
    const int64_t o = x.row_offset(i, j);
    for (int c = 0; c < x.ncomp; ++c) r.comp(c)[o] = residual_at(op, x, b, i, j, c, o);
  });
}

// The same over every cell.
template <class Exec, class T, class Op>
void residual_field(const Exec& ex, const Op& op, FieldView<const T> x, FieldView<const T> b, FieldView<T> r) {
  residual_field(ex, op, x, b, r, whole_box(x.extents()));
}

// A coarser level's coefficient fields from those of the finer operator `finer`: each component's
// diffusivity multiplier and a tensor's entries (6 in 3D, 3 in 2D), each made by make(data, n, stride,
// ghosts) (a restriction, or a gather onto every rank) with the ghosts a coefficient field has (the
// tensor's fluxes read them); `op`, the coarser operator, takes them. `d_stride`: the multipliers'
// component stride, that of the finer level's fields.
template <class Op, class T, class Make>
void take_coefficients(const Op& finer, int ncomp, int64_t d_stride, const FieldBoundary& bc, Field<T> (&d)[max_solver_components],
                       Field<T>& m, Op& op, Make make) {
  for (int c = 0; c < ncomp; ++c) {
    if (!finer.d[c]) continue;
    d[c] = make(finer.d[c], 1, d_stride, coefficient_boundary(bc, 1));
    op.d[c] = d[c].cview().data;
  }
  if constexpr (Op::tensor()) {
    constexpr int entries = Op::volume() ? 6 : 3;
    m = make(finer.m, entries, finer.m_stride, tensor_boundary(bc, entries));
    op.m = m.cview().data;
    op.m_stride = m.cview().comp_stride;
  }
}

// The n components at `data`, `stride` apart, with the rows and planes of `layout` (a coefficient field
// laid out as a level's fields).
template <class T>
FieldView<const T> fields_at(FieldView<const T> layout, const T* data, int n, int64_t stride) {
  layout.data = data;
  layout.ncomp = n;
  layout.comp_stride = stride;
  return layout;
}

// Op: Helmholtz<T>, or Helmholtz<T, true> for a diffusion tensor.
template <class Exec, class T, class Op = Helmholtz<T>>
class Multigrid final : public MultigridCycle<T> {
 public:
  // The fine level's operator `op` (its d pointers, if any, index fields of layout `fine_layout`),
  // conditions `bc` and component count.
  Multigrid(const Exec& ex, const Grid2& grid, const Field<T>& fine_layout, const Op& op,
            const FieldBoundary& bc, int ncomp, MultigridSettings s)
      : ex_(ex), settings_(s) {
    fine_r_ = fine_layout.like(Exec::space);
    if (out_of_place(fine_layout)) fine_tmp_ = fine_layout.like(Exec::space);
    fine_op_ = op;
    fine_bc_ = bc;
    for (int c = 0; c < ncomp; ++c)
      if (has_constant_null_space(double(op.alpha), bc, c)) singular_mask_ |= 1u << c;
    Grid2 g = grid;
    const Scale scale = scale_of(ex, op, fine_layout, ncomp);
    FieldView<const T> prev = fine_layout.cview();  // the finer level's layout
    truncated_ = sweeps_solve(op, g, scale, ncomp);
    double finer_dx = g.dx, finer_dy = g.dy;
    while (!truncated_ && !coarse_enough(g) && coarsen(g)) {
      auto lv = std::make_unique<Level>();
      lv->x = Field<T>(g, ncomp, 1, Exec::space);
      lv->b = lv->x.like(Exec::space);
      lv->r = lv->x.like(Exec::space);
      if (out_of_place(lv->x)) lv->tmp = lv->x.like(Exec::space);
      const Op& finer = levels_.empty() ? op : levels_.back()->op;
      const FieldBoundary& finer_data = levels_.empty() ? bc : levels_.back()->data_bc;
      lv->data_bc = finer_data.respaced(g.dx / finer_dx, g.dy / finer_dy);  // Robin sides' ghosts change with h
      lv->bc = homogeneous(lv->data_bc);
      finer_dx = g.dx, finer_dy = g.dy;
      lv->op = finer;
      set_sides(lv->op, lv->bc, ncomp);
      lv->op.h = Spacing<T>::make(g.dx, g.dy, lv->x.view().pitch);
      lv->op.extents = g.extents();
      coarsen_coefficients(*lv, prev, finer, ncomp);
      prev = lv->x.cview();
      levels_.push_back(std::move(lv));
      truncated_ = sweeps_solve(op, g, scale, ncomp);
    }
    if (!truncated_ && coarse_enough(g)) {
      coarse_omega_ = sor_omega(levels_.empty() ? op : levels_.back()->op, ncomp);
      coarse_sweeps_ = sor_sweeps(coarse_omega_);
    }
  }

  int levels() const override { return int(levels_.size()) + 1; }

  // The cycle waits for nothing, so CUDA replays it as one graph per (x, b).
  void cycle(FieldView<T> x, FieldView<const T> b) override {
    graph_.run(ex_, x.data, b.data, [&] { cycle_at(0, x, b); });
  }

  void fmg(FieldView<T> x, FieldView<const T> b) override {
    fmg_graph_.run(ex_, x.data, b.data, [&] { fmg_at(x, b); });
  }

  // The hierarchy's rules, which BlockMultigrid follows on the whole grid of a block.
  // The largest diffusivity multiplier of each component and the largest |entries| of the tensor: bounds
  // of every level's coefficients (restriction averages).
  struct Scale {
    double d[max_solver_components] = {1, 1};
    double xx = 1, xy = 0, yy = 1;
    template <class F>
    void each(F f) {
      for (double& v : d) f(v);
      for (double* e : {&xx, &xy, &yy}) f(*e);
    }
  };
  static Scale scale_of(const Exec& ex, const Op& op, const Field<T>& layout, int ncomp) {
    Scale s;
    auto largest = [&](const T* data, int64_t stride, int k) {
      FieldView<const T> f = layout.cview();  // component k of a field with the layout's rows
      f.data = data + k * stride;
      f.ncomp = 1;
      return std::max(double(field_max(ex, f, 0)), -double(field_min(ex, f, 0)));
    };
    for (int c = 0; c < ncomp; ++c)
      if (op.d[c]) s.d[c] = largest(op.d[c], 0, 0);
    if constexpr (Op::tensor()) {
      s.xx = largest(op.m, op.m_stride, 0);
      s.xy = largest(op.m, op.m_stride, 1);
      s.yy = largest(op.m, op.m_stride, 2);
    }
    return s;
  }

  // Whether a level's system is solved well enough by a few sweeps: where its identity part dominates
  // (a theta step's operator at coarse spacings), no coarser level would pay for its launches. With
  // off-diagonal sum / diagonal q <= 1/8 in every component, each sweep cuts the error at least 8-fold.
  // The tensor's bound counts its cross terms and takes alpha alone for the diagonal.
  static bool sweeps_solve(const Op& op, const Grid2& g, const Scale& s, int ncomp) {
    if (!(double(op.alpha) > 0)) return false;
    const double ix2 = 1 / (g.dx * g.dx), iy2 = 1 / (g.dy * g.dy);
    const double per_d = op.tensor() ? 2 * s.xx * ix2 + 2 * s.yy * iy2 + 4 * s.xy / (g.dx * g.dy) : 2 * ix2 + 2 * iy2;
    for (int c = 0; c < ncomp; ++c) {
      const double off = double(op.beta[c]) * s.d[c] * per_d;
      if (8 * off > double(op.alpha) + (op.tensor() ? 0 : off)) return false;
    }
    return true;
  }

  // Halves an axis (rounding up) while it has more than one cell and is not already the coarser one.
  static bool coarsen(Grid2& g) {
    const bool cx = g.nx > 2 && g.dx <= 1.5 * g.dy, cy = g.ny > 2 && g.dy <= 1.5 * g.dx;
    if (!cx && !cy) return false;
    g = g.halved(cx, cy);
    return true;
  }

  static constexpr int truncated_sweeps = 4;  // the sweeps that solve a level sweeps_solve accepts

 private:
  struct Level {
    Field<T> x, b, r;  // correction, right-hand side, residual
    Field<T> tmp;      // the smoothers' other field, on the GPU (out_of_place)
    Field<T> d[max_solver_components];  // restricted diffusivity multipliers, where they vary
    Field<T> m;                         // the restricted tensor (Op::tensor())
    Op op;
    FieldBoundary data_bc;  // the problem's own conditions on this level (full multigrid's)
    FieldBoundary bc;       // homogeneous(data_bc): a correction's
  };

  // Out-of-place smoothing (two fields, the GPU's tiles) serves five-point operators.
  static bool out_of_place(const Field<T>& layout) {
    return !Op::tensor() && sweeps_into<Exec>(layout);
  }

  // Five-point operators stop coarsening at coarse_cells or fewer, where SOR sweeps (sor_sweeps) solve
  // in one block on a GPU: each level below would cost about as much as that level's sweeps, a few
  // launches of a few microseconds every level. A tensor's go down to coarse_solve.
  static constexpr int coarse_cells = 256;
  static bool coarse_enough(const Grid2& g) { return !Op::tensor() && g.cells() <= coarse_cells; }

  // Red-black sweeps at the near-optimal omega that cut the coarsest level's error a thousandfold
  // (SOR's rate is omega - 1 there): 19 for Poisson on 16 x 16, Dirichlet sides. A coarse correction a
  // thousand times more accurate than a cycle's tenfold cut leaves the cycle's rate as it was.
  static int sor_sweeps(double omega) {
    const double rate = omega - 1;
    if (!(rate > 0)) return 4;
    return std::clamp(int(std::ceil(std::log(1e-3) / std::log(rate))), 4, 100);
  }

  // Each component's diffusivity multiplier and the tensor of the finer level's operator `finer` (fields
  // with the rows of `fine`: rows are laid out alike whatever the component count), restricted like a
  // residual, with the ghosts a coefficient field has (the tensor's fluxes read them).
  void coarsen_coefficients(Level& lv, FieldView<const T> fine, const Op& finer, int ncomp) {
    take_coefficients(finer, ncomp, fine.comp_stride, lv.bc, lv.d, lv.m, lv.op,
                      [&](const T* data, int n, int64_t stride, const FieldBoundary& ghosts) {
                        Field<T> to(lv.x.grid(), n, 1, Exec::space), scratch = to.like(Exec::space);
                        restrict_residual(ex_, fields_at(fine, data, n, stride), to.view(), scratch.view(), ghosts);
                        fill_ghosts(ex_, to.view(), ghosts);
                        return to;
                      });
  }


  // n red-black sweeps of `from`, which is x or the level's tmp: in place, or where the level has a tmp,
  // from one field into the other, two a launch (rb_sweep_pair_into) and an odd one alone
  // (rb_sweep_into). Returns the field that holds the result.
  FieldView<T> smooth(const Op& op, FieldView<T> from, FieldView<T> other, FieldView<const T> b,
                      const FieldBoundary& bc, int n, bool post) {
    const bool reverse = post && settings_.symmetric;
    const T omega = settings_.symmetric ? T(1) : T(settings_.smooth_omega);
    if (!other.data) {
      rb_sweeps(ex_, op, from, b, bc, omega, reverse, n, false);
      return from;
    }
    for (int k = 0; k < n; k += 2) {
      if (k + 2 <= n) rb_sweep_pair_into(ex_, op, as_const(from), b, other, bc, omega, reverse);
      else rb_sweep_into(ex_, op, as_const(from), b, other, bc, omega, reverse, false);
      std::swap(from, other);
    }
    return from;
  }

  // The coarsest level's SOR sweeps, in place. A preconditioner's (symmetric) sweep as many colour orders
  // backward as forward: a palindrome of colours, so that the cycle stays a symmetric operator.
  void coarse_sor(const Op& op, FieldView<T> x, FieldView<const T> b, const FieldBoundary& bc) {
    const T omega = T(coarse_omega_);
    if (!settings_.symmetric) {
      rb_sweeps(ex_, op, x, b, bc, omega, false, coarse_sweeps_, false);
      return;
    }
    const int half = (coarse_sweeps_ + 1) / 2;
    rb_sweeps(ex_, op, x, b, bc, omega, false, half, false);
    rb_sweeps(ex_, op, x, b, bc, omega, true, half, false);
  }

  // What the cycle reads of level l (0: the fine grid).
  struct LevelParts {
    const Op& op;
    const FieldBoundary& bc;
    FieldView<T> r, tmp;
  };
  LevelParts parts(std::size_t l) {
    if (l == 0) return {fine_op_, fine_bc_, fine_r_.view(), fine_tmp_.view()};
    Level& lv = *levels_[l - 1];
    return {lv.op, lv.bc, lv.r.view(), lv.tmp.view()};
  }

  // On a level with a tmp, V(2,2) smooths x into tmp, corrects tmp, and smooths it back into x.
  // `data`: the level's own conditions, where full multigrid solves its problem, not a correction.
  void cycle_at(std::size_t l, FieldView<T> x, FieldView<const T> b, const FieldBoundary* data = nullptr) {
    const LevelParts p = parts(l);
    const Op& op = p.op;
    const FieldBoundary& bc = data ? *data : p.bc;
    FieldView<T> tmp = p.tmp;
    FieldView<T> s = x;
    if (l == levels_.size()) {
      const int cells = int(x.extents().cells());
      if (truncated_) s = smooth(op, x, tmp, b, bc, truncated_sweeps, false);
      else if (coarse_sweeps_) coarse_sor(op, x, b, bc);
      else coarse_solve(ex_, op, x, b, bc, cells <= 4 ? 10 : 4 * cells, singular_mask_);
    } else {
      s = smooth(op, x, tmp, b, bc, settings_.pre, false);
      residual_field(ex_, op, as_const(s), b, p.r);
      Level& next = *levels_[l];
      restrict_residual(ex_, as_const(p.r), next.b.view(), next.x.view(), next.bc);
      for (int k = 0; k < settings_.gamma; ++k) cycle_at(l + 1, next.x.view(), next.b.cview());
      prolong_add(ex_, next.x.cview(), s, bc);
      s = smooth(op, s, s.data == x.data ? tmp : x, b, bc, settings_.post, true);
    }
    if (s.data != x.data) {  // an odd count of sweeps in all
      copy_interior(ex_, as_const(s), x);
      fill_ghosts(ex_, x, bc);
    }
  }

  // MultigridCycle::fmg (restrict_residual zeroes each level's x, with its images under data_bc). A
  // singular problem's levels keep its null space apart: V cycles only.
  void fmg_at(FieldView<T> x, FieldView<const T> b) {
    if (levels_.empty() || singular_mask_) return cycle_at(0, x, b);
    FieldView<const T> finer = b;
    for (auto& lv : levels_) {
      restrict_residual(ex_, finer, lv->b.view(), lv->x.view(), lv->data_bc);
      finer = lv->b.cview();
    }
    for (std::size_t l = levels_.size(); l > 0; --l) {
      Level& lv = *levels_[l - 1];
      if (l < levels_.size()) prolong_add(ex_, levels_[l]->x.cview(), lv.x.view(), lv.data_bc);
      cycle_at(l, lv.x.view(), lv.b.cview(), &lv.data_bc);
    }
    fill_all(ex_, x, T(0));
    prolong_add(ex_, levels_[0]->x.cview(), x, fine_bc_);
    cycle_at(0, x, b);
  }

  Exec ex_;
  MultigridSettings settings_;
  Field<T> fine_r_, fine_tmp_;
  Op fine_op_;
  FieldBoundary fine_bc_;
  unsigned singular_mask_ = 0;
  std::vector<std::unique_ptr<Level>> levels_;
  bool truncated_ = false;  // the coarsest level is solved by sweeps (sweeps_solve), not coarse_solve
  double coarse_omega_ = 1;  // SOR on the coarsest level, coarse_sweeps_ sweeps (0: coarse_solve)
  int coarse_sweeps_ = 0;
  GraphCache<Exec> graph_, fmg_graph_;
};

}  // namespace pdex
