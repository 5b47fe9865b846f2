#pragma once
// One driver for every explicit Runge-Kutta method of the method of lines (seed 003, Remark 3.3): the
// tableau is data, the right-hand side is the model's. A System provides
//   void prepare(const Exec&, double t, FieldView<const T> u) const   (work before the cells, e.g. an
//                                                                       auxiliary field; may be empty)
//   Cell cell(double t, FieldView<const T> u) const                    (f(t, u) at a cell: rk_kernels.hpp)
// for a stage argument u whose ghosts are filled, and optionally
//   Limit limiter() const                                               (applied to each new state: rk_kernels.hpp)
// or, where the right-hand side is compiled elsewhere (a text model's, at run time), instead of cell():
//   static constexpr bool runs_stages = true;
//   double stage(const Exec&, double t, FieldView<const T> u, const RkStores<T, Limit>&, bool reduce,
//                const CellBox&) const
//   void finish_stage(FieldView<T> out, double t_out) const
//   bool splits() const
// stage() runs the stage on a box of cells and, with reduce, returns their largest error estimate;
// finish_stage() ends a stage whose every cell is done (boundary values that change with time: t_out is
// the time of the state written); splits() says whether a block's stage may go box by box around its
// exchange (finish_stage then does nothing).
// All fields live in the executor's memory space and are allocated here, at set-up.
#include <algorithm>
#include <utility>

#include "pdex/core/parallel.hpp"
#include "pdex/grid/block_step.hpp"
#include "pdex/grid/boundary.hpp"
#include "pdex/grid/field.hpp"
#include "pdex/grid/halo.hpp"
#include "pdex/grid/members.hpp"
#include "pdex/time/rk/rk_kernels.hpp"
#include "pdex/time/rk/tableau.hpp"

namespace pdex {

// Free functions: nvcc refuses extended lambdas in private member functions.
template <class Exec, class T, class Cell, class Limit>
void rk_stage(const Exec& ex, const RkStage<T, Cell, Limit>& st, Range2 r) {
  // The edge functor is the stage itself (apply<true>), so that its launch hint reaches the GPU kernel.
  for_each_cell_split(ex, r, st.st.out.ghost, [=] PDEX_HD(int i, int j) { st.template apply<false>(i, j); }, st);
}

// k = f(t, u) on the interior of u.
template <class Exec, class T, class System>
void evaluate_rhs(const Exec& ex, const System& sys, double t, FieldView<const T> u, FieldView<T> k) {
  sys.prepare(ex, t, u);
  using Cell = decltype(sys.cell(t, u));
  for_each_cell(ex, u.interior(), RhsOnly<T, Cell>{sys.cell(t, u), k});
}

// Whether a cell functor takes the cells of a 3D grid (its stacked rows: RkStage::volume_cell).
template <class Cell>
constexpr bool takes_volumes() {
  if constexpr (requires { Cell::takes_volumes; }) return Cell::takes_volumes;
  else return false;
}

// f(i, j, k, J) at every cell (i, j) of plane k in box b of a 3D field, J its stacked row: the box's rows
// of every plane as one 2D range's, q = its plane * rows + its row. With reduce, the largest of f's
// values (at least 0).
template <class V, class Exec, class U, class F>
V volume_cells(const Exec& ex, const FieldView<U>& v, F f, bool reduce, const CellBox& b) {
  const Members planes{v.nz, v.ny, v.ghost};
  const BoxRows rows = box_rows(b);
  const auto cell = [=] PDEX_HD(int i, int q) {
    const int k = rows.plane(q), j = rows.row(q);
    return f(i, j, k, planes.row(k, j));
  };
  const Range2 r = box_range(b);
  if (reduce) return pdex::reduce<V>(ex, r, cell, Max<V>{});
  for_each_cell(ex, r, [=] PDEX_HD(int i, int q) { (void)cell(i, q); });
  return V(0);
}

// A stage on box b of a 3D field; with reduce, the largest error estimate.
template <class Exec, class T, class Cell, class Limit>
T volume_stage(const Exec& ex, const RkStage<T, Cell, Limit>& st, bool reduce, const CellBox& b) {
  return volume_cells<T>(ex, st.st.out, [=] PDEX_HD(int i, int j, int k, int J) { return st.volume_cell(i, j, k, J); }, reduce, b);
}

// k = f at every cell in box b of a 3D field (the host schedule's right-hand side).
template <class Exec, class T, class Cell>
void volume_rhs(const Exec& ex, FieldView<const T> u, const RhsOnly<T, Cell>& r, const CellBox& b) {
  volume_cells<T>(ex, u, [=] PDEX_HD(int i, int, int, int J) {
    r(i, J);
    return T(0);
  }, false, b);
}

// Whether stage s's k must be stored: a stage after the next one, the update or the error uses it (the
// next stage argument takes it from registers).
inline bool stage_stored(const Tableau& t, int s) {
  bool used = t.b[s] != 0 || t.e[s] != 0;
  for (int r = s + 2; r < t.stages; ++r) used |= t.a[r][s] != 0;
  return used && s + 1 < t.stages;
}

// Field values a step moves per cell besides what the right-hand sides read: stored stages, u and the
// earlier stages read, the next argument or the candidate written.
inline int combine_values_per_step(const Tableau& t) {
  int n = 0;
  for (int s = 0; s < t.stages; ++s) {
    n += stage_stored(t, s) + (s > 0) + 1;
    const double* w = s + 1 < t.stages ? t.a[s + 1] : t.b;
    for (int m = 0; m < s; ++m) n += w[m] != 0 || (s + 1 == t.stages && t.e[m] != 0);
  }
  return n;
}

template <class Exec, class T, class System>
class RungeKutta {
 public:
  // u0: the initial state with its ghosts filled, in Exec's space.
  RungeKutta(const Exec& ex, const Tableau& tab, System sys, Field<T>&& u0, const FieldBoundary& bc)
      : ex_(ex), tab_(tab), sys_(std::move(sys)), bc_(bc), u_(std::move(u0)), next_(u_.like(Exec::space)),
        parts_(split_border(u_.grid().extents(), 0u, 0)) {
    // Stage s < stages - 1 writes the next stage's argument into arg_[s % 2]: none for forward Euler.
    for (int a = 0; a < std::min(2, tab_.stages - 1); ++a) arg_[a] = u_.like(Exec::space);
    if (Exec::space == MemorySpace::host && !runs_stages) rhs_ = u_.like(Exec::space);
    for (int s = 0; s < tab_.stages; ++s)
      if (stage_stored(tab_, s)) k_[s] = u_.like(Exec::space);
  }

  const Tableau& tableau() const { return tab_; }
  Field<T>& state() { return u_; }
  const Field<T>& state() const { return u_; }

  // Computes the step of size tau from (t, state) into a candidate; returns its error estimate (eq. 28;
  // 0 for fixed-step methods). accept() makes the candidate the state.
  double attempt(double t, double tau) {
    FieldView<const T> at = u_.cview();
    for (int s = 0; s < tab_.stages; ++s) {
      const bool last = s + 1 == tab_.stages;
      const double e = stage(s, t + tab_.c[s] * tau, tau, at, t + (last ? 1.0 : tab_.c[s + 1]) * tau);
      if (last) return halo_ ? halo_->max_over_ranks(e) : e;
      at = arg_[s % 2].cview();
    }
    return 0.0;
  }

  // A block of a grid split among ranks (grid/halo.hpp): each stage's result gets its shared ghosts from
  // the neighbours, and the error estimate is the largest over the ranks.
  void exchange_with(HaloExchange* halo) {
    halo_ = halo;
    parts_ = block_parts(halo, u_.grid().extents(), u_.view().ghost);
  }

  void accept() { std::swap(u_, next_); }
  // The candidate's field, free between steps: a caller that writes the next state there itself (several
  // steps in one pass) makes it the state with accept().
  Field<T>& candidate() { return next_; }

  // f(t, state) alone into a scratch field (benchmarks of the right-hand side).
  void evaluate(double t) { evaluate_rhs(ex_, sys_, t, u_.cview(), next_.view()); }

 private:
  static constexpr bool runs_stages = requires { System::runs_stages; };

  // What each new state goes through: the system's limiter, or nothing.
  auto limiter() const {
    if constexpr (requires { sys_.limiter(); }) return sys_.limiter();
    else return NoLimit<T>{};
  }

  // Stage s at time ts from its argument `at`: stores k_s if needed and writes the next argument (or the
  // candidate, returning the error estimate for adaptive methods), the state at time t_out, with its
  // shared ghosts where the grid is split. A block computes its cells beside the shared sides first,
  // then its interior while their slabs travel (a stage that does not split: all, then the exchange).
  double stage(int s, double ts, double tau, FieldView<const T> at, double t_out) {
    const bool reduce = s + 1 == tab_.stages && tab_.adaptive();
    const FieldView<T> out = stage_out(s).view();
    if constexpr (!runs_stages) sys_.prepare(ex_, ts, at);
    double e = 0.0;
    const auto cells = [&](const CellBox& b) { e = std::max(e, stage_cells(s, ts, tau, at, reduce, b)); };
    if constexpr (runs_stages)
      if (!sys_.splits()) {
        cells(whole_box(u_.grid().extents()));
        sys_.finish_stage(out, t_out);
        exchange_halo(halo_, out, bc_, Exec::space);
        return e;
      }
    step_and_exchange(halo_, parts_, out, bc_, Exec::space, cells);
    return e;
  }

  // Stage s's cells in box b; with reduce, their largest error estimate.
  double stage_cells(int s, double ts, double tau, FieldView<const T> at, bool reduce, const CellBox& b) {
    if constexpr (runs_stages) {
      return sys_.stage(ex_, ts, at, stores(s, tau), reduce, b);
    } else if constexpr (Exec::space == MemorySpace::host) {
      using Cell = decltype(sys_.cell(ts, at));
      // Host schedule: the right-hand side as a loop of its own, which vectorizes (fused with the
      // combination, whose term count is known only at run time, it does not), then the combination.
      const RhsOnly<T, Cell> rhs{sys_.cell(ts, at), rhs_.view()};
      if constexpr (takes_volumes<Cell>())
        if (at.nz > 1) {
          volume_rhs(ex_, at, rhs, b);
          return combine(s, tau, reduce, LoadCell<T, Cell::ncomp>{rhs_.cview()}, b);
        }
      for_each_cell(ex_, Range2{b.lo[0], b.hi[0], b.lo[1], b.hi[1]}, rhs);
      return combine(s, tau, reduce, LoadCell<T, Cell::ncomp>{rhs_.cview()}, b);
    } else {
      return combine(s, tau, reduce, sys_.cell(ts, at), b);
    }
  }

  // Where stage s writes: the next stage's argument, or after the last stage the candidate.
  Field<T>& stage_out(int s) { return s + 1 == tab_.stages ? next_ : arg_[s % 2]; }

  // Stage s's stores: k_s if needed, and the next argument (or the candidate).
  auto stores(int s, double tau) {
    const bool last = s + 1 == tab_.stages;
    const double* w = last ? tab_.b : tab_.a[s + 1];
    return RkStores<T, decltype(limiter())>{u_.cview(), k_[s].view(), stage_out(s).view(),
                                            bc_, terms(w, s, tau), last ? terms(tab_.e, s, tau) : StageTerms<T>{},
                                            T(tau * w[s]), last ? T(tau * tab_.e[s]) : T(0), limiter(), last};
  }

  // The stage's kernel with the cell functor on box b; with reduce, the largest error estimate.
  template <class Cell>
  double combine(int s, double tau, bool reduce, const Cell& cell, const CellBox& b) {
    const RkStage<T, Cell, decltype(limiter())> st{cell, stores(s, tau)};
    if constexpr (takes_volumes<Cell>())
      if (u_.grid().is_3d()) return double(volume_stage(ex_, st, reduce, b));
    const Range2 r{b.lo[0], b.hi[0], b.lo[1], b.hi[1]};
    if (reduce) return double(max_of_cells<T>(ex_, r, st));
    rk_stage(ex_, st, r);
    return 0.0;
  }

  StageTerms<T> terms(const double* w, int count, double tau) const {
    StageTerms<T> t;
    for (int m = 0; m < count; ++m)
      if (w[m] != 0) {
        t.k[t.n] = k_[m].cview().data;
        t.w[t.n++] = T(tau * w[m]);
      }
    return t;
  }

  Exec ex_;
  Tableau tab_;
  System sys_;
  FieldBoundary bc_;
  Field<T> u_, next_, arg_[2];
  Field<T> rhs_;            // host schedule: the stage's right-hand side
  Field<T> k_[max_stages];  // only the stored stages are allocated
  HaloExchange* halo_ = nullptr;
  BorderSplit parts_;  // a block's cells beside its shared sides, and the rest (all of one grid's cells)
};

}  // namespace pdex
