#pragma once
// Geometric multigrid on 3D grids (helmholtz3.hpp's operator), any sizes: multigrid.hpp's cycle with
// red-black SOR smoothing (relaxation3.hpp: in place, or on the GPU's large levels out of place in
// tiles, pairs through the level's residual field), trilinear hat-weighted restriction and trilinear
// prolongation (transfer3.hpp), the operator rediscretized on every level (per-cell diffusivities and a
// tensor's six entries restricted like residuals; a tensor's smoothing takes eight colours). An axis is halved while it has more than two cells and is not already much coarser
// than the finest axis left to coarsen, so the hierarchy goes down to a few cells, solved by lexicographic
// Gauss-Seidel in one launch (multigrid.hpp's coarse_solve); where the operator's identity part dominates
// a level (a theta step's at coarse spacings), the hierarchy stops there and a few sweeps solve it.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "pdex/core/graph_cache.hpp"
#include "pdex/grid/field.hpp"
#include "pdex/grid/field_reductions.hpp"
#include "pdex/grid/fill_ghosts.hpp"
#include "pdex/linalg/grid_ops.hpp"
#include "pdex/linalg/helmholtz3.hpp"
#include "pdex/linalg/multigrid.hpp"
#include "pdex/linalg/relaxation3.hpp"
#include "pdex/linalg/schedules.hpp"
#include "pdex/linalg/transfer3.hpp"

namespace pdex {

// coarse_b = R (b - A x) on CUDA where every axis is halved exactly: one launch that makes the residual
// a plane of a block's tile at a time in shared memory and restricts it from there (cuda/transfer3_walk.cu),
// never storing it: residual_field's then restrict3's bits, one pass over x and b.
template <class T, bool Tensor>
void restrict_residual3_walk(const Cuda& ex, const Helmholtz3<T, Tensor>& op, FieldView<const T> x, FieldView<const T> b,
                             FieldView<T> coarse_b);

// coarse_b = R (b - A x); elsewhere through r, the fine residual's field. x's ghosts must hold its images.
template <class Exec, class T, bool Tensor>
void restrict_residual3(const Exec& ex, const Helmholtz3<T, Tensor>& op, FieldView<const T> x, FieldView<const T> b,
                        FieldView<T> r, FieldView<T> coarse_b) {
  if constexpr (std::is_same_v<Exec, Cuda>)
    if (detail::halves_every_axis(x, coarse_b)) return restrict_residual3_walk(ex, op, x, b, coarse_b);
  residual_field(ex, op, x, b, r);
  restrict3(ex, as_const(r), coarse_b);
}

template <class Exec, class T, bool Tensor = false>
class Multigrid3 final : public MultigridCycle<T> {
 public:
  using Op = Helmholtz3<T, Tensor>;

  Multigrid3(const Exec& ex, const Grid2& grid, const Field<T>& fine_layout, const Op& op, const FieldBoundary& bc,
             int ncomp, MultigridSettings s)
      : ex_(ex), settings_(s), fine_op_(op), fine_bc_(bc) {
    fine_r_ = fine_layout.like(Exec::space);
    fine_tiles_ = tiled(fine_layout, bc, ncomp);
    for (int c = 0; c < ncomp; ++c)
      if (has_constant_null_space(double(op.alpha), bc, c)) singular_mask_ |= 1u << c;
    const Scale scale = scale_of(ex, op, fine_layout, ncomp);
    fine_omega_ = smoothing_weight(op, grid, scale, ncomp);
    Grid2 g = grid;
    FieldView<const T> prev = fine_layout.cview();
    truncated_ = sweeps_solve(op, g, scale, ncomp);
    while (!truncated_ && coarsen(g)) {
      auto lv = std::make_unique<Level>();
      lv->x = Field<T>(g, ncomp, 1, Exec::space);
      lv->b = lv->x.like(Exec::space);
      lv->r = lv->x.like(Exec::space);
      const Op& finer = levels_.empty() ? op : levels_.back()->op;
      const Grid2 finer_grid = levels_.empty() ? grid : levels_.back()->x.grid();
      const FieldBoundary& finer_data = levels_.empty() ? bc : levels_.back()->data_bc;
      lv->data_bc = finer_data.respaced(g.dx / finer_grid.dx, g.dy / finer_grid.dy, g.dz / finer_grid.dz);
      lv->bc = homogeneous(lv->data_bc);
      lv->op = finer;
      lv->op.h = Spacing<T>::make(g.dx, g.dy, lv->x.view().pitch, g.dz, lv->x.view().plane);
      lv->op.extents = g.extents();
      set_sides(lv->op, lv->bc, ncomp);
      coarsen_coefficients(*lv, prev, finer, ncomp);
      keep_diagonal(ex_, lv->op, lv->x, lv->dg);
      lv->tiles = tiled(lv->x, lv->bc, ncomp);
      lv->omega = smoothing_weight(op, g, scale, ncomp);
      prev = lv->x.cview();
      levels_.push_back(std::move(lv));
      truncated_ = sweeps_solve(op, g, scale, ncomp);
    }
  }

  int levels() const override { return int(levels_.size()) + 1; }

  void cycle(FieldView<T> x, FieldView<const T> b) override {
    graph_.run(ex_, x.data, b.data, [&] { cycle_at(0, x, b); });
  }

  void fmg(FieldView<T> x, FieldView<const T> b) override {
    fmg_graph_.run(ex_, x.data, b.data, [&] { fmg_at(x, b); });
  }

  // The hierarchy's rules, which BlockMultigrid follows on the whole grid of a block.
  // Red-black SOR's smoothing weights on 3D grids: poisson_omega where a level's operator is the
  // Laplacian alone (measured: a V(2,2) cycle cuts Poisson's residual 30-40-fold, where 1.15 cut it
  // tenfold), smooth_omega (Yavneh's) where an identity part weighs (over-relaxing a diagonally dominant
  // level slows its smoothing: at 1.35, theta steps took up to twice the cycles).
  static constexpr double smooth_omega = 1.15, poisson_omega = 1.35;
  static constexpr int truncated_sweeps = 4;

  // The largest diffusivity multiplier and the largest |entries| of the tensor (xx, xy, yy, xz, yz, zz):
  // bounds of every level's coefficients (restriction averages).
  struct Scale {
    double d = 1;
    double m[6] = {1, 0, 1, 0, 0, 1};
    template <class F>
    void each(F f) {
      f(d);
      for (double& e : m) f(e);
    }
  };
  static Scale scale_of(const Exec& ex, const Op& op, const Field<T>& layout, int ncomp) {
    auto largest = [&](const T* data) {
      FieldView<const T> f = layout.cview();  // one field with the layout's rows and planes
      f.data = data;
      f.ncomp = 1;
      return std::max(double(field_max(ex, f, 0)), -double(field_min(ex, f, 0)));
    };
    Scale s;
    for (int c = 0; c < ncomp; ++c)
      if (op.d[c]) s.d = std::max(s.d, largest(op.d[c]));
    if constexpr (Tensor)
      for (int q = 0; q < 6; ++q) s.m[q] = largest(op.m + q * op.m_stride);
    return s;
  }

  // multigrid.hpp's sweeps_solve with the z axis (and a tensor's cross terms, alpha alone its diagonal).
  static bool sweeps_solve(const Op& op, const Grid2& g, const Scale& s, int ncomp) {
    if (!(double(op.alpha) > 0)) return false;
    for (int c = 0; c < ncomp; ++c) {
      const double off = double(op.beta[c]) * off_diagonal(g, s);
      if (8 * off > double(op.alpha) + (Tensor ? 0 : off)) return false;
    }
    return true;
  }

  // poisson_omega where alpha is at most 1% of every component's diagonal, else smooth_omega (a
  // tensor's eight colours keep it).
  static double smoothing_weight(const Op& op, const Grid2& g, const Scale& s, int ncomp) {
    if constexpr (Tensor) {
      return smooth_omega;
    } else {
      for (int c = 0; c < ncomp; ++c)
        if (100 * double(op.alpha) > double(op.alpha) + double(op.beta[c]) * off_diagonal(g, s)) return smooth_omega;
      return poisson_omega;
    }
  }

  // The bound of a level's off-diagonal sum over beta (spacings g, the coefficients' bounds s).
  static double off_diagonal(const Grid2& g, const Scale& s) {
    const double ix = 1 / g.dx, iy = 1 / g.dy, iz = 1 / g.dz;
    const double* m = s.m;  // the identity without a tensor
    return s.d * (2 * (m[0] * ix * ix + m[2] * iy * iy + m[5] * iz * iz) + 4 * (m[1] * ix * iy + m[3] * ix * iz + m[4] * iy * iz));
  }

  static bool coarsen(Grid2& g) {
    const int n[3] = {g.nx, g.ny, g.nz};
    const double h[3] = {g.dx, g.dy, g.dz};
    double finest = 0;
    for (int a = 0; a < 3; ++a)
      if (n[a] > 2 && (finest == 0 || h[a] < finest)) finest = h[a];
    if (finest == 0) return false;
    bool halve[3];
    for (int a = 0; a < 3; ++a) halve[a] = n[a] > 2 && h[a] <= 1.5 * finest;
    g = g.halved(halve[0], halve[1], halve[2]);
    return true;
  }

 private:
  struct Level {
    Field<T> x, b, r;
    Field<T> d[max_solver_components];
    Field<T> m;   // the restricted tensor (Tensor)
    Field<T> dg;  // and the operator's diagonal
    Op op;
    FieldBoundary data_bc;  // the problem's own conditions on this level (full multigrid's)
    FieldBoundary bc;       // homogeneous(data_bc): a correction's
    bool tiles = false;  // its sweeps go out of place in tiles (tiled)
    double omega = smooth_omega;  // its smoothing weight (smoothing_weight)
  };

  // Whether a level's smoothing sweeps go out of place through its residual field, two launches of tiles
  // a pair (rb_sweep3_into): on executors with the schedule, for fields where the 2D smoothers do so
  // (sweeps_into) whose colours close; seven points only.
  static bool tiled(const Field<T>& layout, const FieldBoundary& bc, int ncomp) {
    return !Tensor && LinalgSchedules<Exec>::tiled_sweeps3 && sweeps_into<Exec>(layout) &&
           colours_close(layout.grid().extents(), ncomp, bc);
  }

  // Each component's diffusivity multiplier and the tensor of the finer level's operator (fields with the
  // rows and planes of `fine`), restricted, with the ghosts a coefficient field has.
  void coarsen_coefficients(Level& lv, FieldView<const T> fine, const Op& finer, int ncomp) {
    take_coefficients(finer, ncomp, fine.comp_stride, lv.bc, lv.d, lv.m, lv.op,
                      [&](const T* data, int n, int64_t stride, const FieldBoundary& ghosts) {
                        Field<T> to(lv.x.grid(), n, 1, Exec::space);
                        restrict3(ex_, fields_at(fine, data, n, stride), to.view());
                        fill_ghosts(ex_, to.view(), ghosts);
                        return to;
                      });
  }

  // What the cycle reads of level l (0: the fine grid).
  struct LevelParts {
    const Op& op;
    const FieldBoundary& bc;
    FieldView<T> r;
    bool tiles;
    double omega;
  };
  LevelParts parts(std::size_t l) {
    if (l == 0) return {fine_op_, fine_bc_, fine_r_.view(), fine_tiles_, fine_omega_};
    Level& lv = *levels_[l - 1];
    return {lv.op, lv.bc, lv.r.view(), lv.tiles, lv.omega};
  }

  // n red-black sweeps of a level's x (p: the level's parts) at the level's weight; on a tiled level
  // pairs of them go into its residual field and back (the same values as in place), an odd one last
  // in place.
  void smooth(const LevelParts& p, FieldView<T> x, FieldView<const T> b, const FieldBoundary& bc, int n, bool post) {
    const T omega = settings_.symmetric ? T(1) : T(p.omega);
    const bool reverse = post && settings_.symmetric;
    int k = 0;
    if constexpr (!Tensor)
      for (; p.tiles && k + 2 <= n; k += 2) {
        rb_sweep3_into(ex_, p.op, as_const(x), b, p.r, bc, omega, reverse);
        rb_sweep3_into(ex_, p.op, as_const(p.r), b, x, bc, omega, reverse);
      }
    rb_sweeps(ex_, p.op, x, b, bc, omega, reverse, n - k, false);
  }

  // A cycle on level l: for x's correction (its homogeneous conditions) or, under full multigrid, for
  // the level's own problem (`data`: its conditions).
  void cycle_at(std::size_t l, FieldView<T> x, FieldView<const T> b, const FieldBoundary* data = nullptr) {
    const LevelParts p = parts(l);
    const Op& op = p.op;
    const FieldBoundary& bc = data ? *data : p.bc;
    if (l == levels_.size()) {
      const int cells = int(x.extents().cells());
      if (truncated_) smooth(p, x, b, bc, truncated_sweeps, false);
      // A few cells, solved by one GPU thread (a chain of dependent loads): ten sweeps for 2 x 2 x 2 or
      // fewer, whose error each cuts several times; four a cell for more.
      else coarse_solve(ex_, op, x, b, bc, cells <= 8 ? 10 : 4 * cells, singular_mask_);
      return;
    }
    smooth(p, x, b, bc, settings_.pre, false);
    Level& next = *levels_[l];
    restrict_residual3(ex_, op, as_const(x), b, p.r, next.b.view());
    fill_all(ex_, next.x.view(), T(0));
    for (int k = 0; k < settings_.gamma; ++k) cycle_at(l + 1, next.x.view(), next.b.cview());
    add_coarser(l, x, bc, next.bc);
    smooth(p, x, b, bc, settings_.post, true);
  }

  // x += P (level l + 1's x, whose ghosts take their images under `coarse_bc`); x's images under bc.
  void add_coarser(std::size_t l, FieldView<T> x, const FieldBoundary& bc, const FieldBoundary& coarse_bc) {
    Level& next = *levels_[l];
    fill_ghosts(ex_, next.x.view(), coarse_bc);
    prolong_add3(ex_, next.x.cview(), x, bc);
  }

  // MultigridCycle::fmg. A singular problem's levels keep its null space apart: V cycles only.
  void fmg_at(FieldView<T> x, FieldView<const T> b) {
    if (levels_.empty() || singular_mask_) return cycle_at(0, x, b);
    FieldView<const T> finer = b;
    for (auto& lv : levels_) {
      restrict3(ex_, finer, lv->b.view());
      fill_all(ex_, lv->x.view(), T(0));
      finer = lv->b.cview();
    }
    fill_ghosts(ex_, levels_.back()->x.view(), levels_.back()->data_bc);
    for (std::size_t l = levels_.size(); l > 0; --l) {
      Level& lv = *levels_[l - 1];
      if (l < levels_.size()) add_coarser(l, lv.x.view(), lv.data_bc, levels_[l]->data_bc);
      cycle_at(l, lv.x.view(), lv.b.cview(), &lv.data_bc);
    }
    fill_all(ex_, x, T(0));
    add_coarser(0, x, fine_bc_, levels_[0]->data_bc);
    cycle_at(0, x, b);
  }

  Exec ex_;
  MultigridSettings settings_;
  Op fine_op_;
  FieldBoundary fine_bc_;
  Field<T> fine_r_;
  bool fine_tiles_ = false;
  double fine_omega_ = smooth_omega;
  unsigned singular_mask_ = 0;
  std::vector<std::unique_ptr<Level>> levels_;
  bool truncated_ = false;
  GraphCache<Exec> graph_, fmg_graph_;
};

// The multigrid that serves an operator: Multigrid for a 2D grid's, Multigrid3 for a 3D grid's.
template <class Exec, class T, class Op>
struct MultigridFor {
  using type = Multigrid<Exec, T, Op>;
};
template <class Exec, class T, bool Tensor>
struct MultigridFor<Exec, T, Helmholtz3<T, Tensor>> {
  using type = Multigrid3<Exec, T, Tensor>;
};
template <class Exec, class T, class Op>
using MultigridOf = typename MultigridFor<Exec, T, Op>::type;

}  // namespace pdex
