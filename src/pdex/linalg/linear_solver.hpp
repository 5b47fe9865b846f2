#pragma once
// One object per linear system shape: it owns the workspace (allocated at set-up, never in a step
// loop: DESIGN principle 2) and solves A x = b by the configured method, A a Helmholtz-type operator.
// Relaxation follows seed 000 sec. 3.2.3: the largest change is tested every `check_every` sweeps, then
// the L2 residual; every component is relaxed in lock step.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "pdex/core/error.hpp"
#include "pdex/grid/field.hpp"
#include "pdex/grid/fill_ghosts.hpp"
#include "pdex/grid/halo.hpp"
#include "pdex/linalg/block_multigrid.hpp"
#include "pdex/linalg/block_sweeps.hpp"
#include "pdex/linalg/grid_ops.hpp"
#include "pdex/linalg/helmholtz.hpp"
#include "pdex/linalg/grid_system.hpp"
#include "pdex/linalg/krylov.hpp"
#include "pdex/linalg/multigrid.hpp"
#include "pdex/linalg/multigrid3.hpp"
#include "pdex/linalg/relaxation3.hpp"
#include "pdex/linalg/device_relaxation.hpp"
#include "pdex/linalg/relaxation.hpp"
#include "pdex/linalg/schedules.hpp"
#include "pdex/linalg/solver_settings.hpp"

namespace pdex {

// Op: Helmholtz<T>, or Helmholtz<T, true> for a diffusion tensor, or Helmholtz3<T> (Helmholtz3<T, true>)
// on a 3D grid (whose sweeps and multigrid are relaxation3.hpp's and Multigrid3: the device's tiled
// schedules are 2D).
template <class Exec, class T, class Op = Helmholtz<T>>
class LinearSolver {
 public:
  // `layout`: a field of the unknown's shape (grid, components, ghost width 1). `halo`: where the grid is
  // split among MPI ranks (grid/blocks.hpp), the block's exchange with the other ranks: the shared sides'
  // ghosts come from it, the products and tests are over the ranks. The relaxations then sweep colour by
  // colour with an exchange after each (sweep_colours); multigrid distributes its fine levels and gathers
  // its coarse ones (BlockMultigrid). Over ranks every rank constructs its solver alike: collectively.
  LinearSolver(const Exec& ex, const Field<T>& layout, const Op& op, const FieldBoundary& bc,
               const SolverSettings& s, HaloExchange* halo = nullptr)
      : ex_(ex), op_(op), bc_(bc), hbc_(homogeneous(bc)), s_(s), ncomp_(layout.components()), halo_(halo) {
    keep_diagonal(ex_, op_, layout, diag_);
    find_null_space();
    auto field = [&] { return layout.like(Exec::space); };
    if (singular_) b_copy_ = field();
    r_ = field();
    if (is_relaxation(s.method)) {
      set_up_relaxation(layout);
    } else if (s.method != SolverMethod::multigrid) {
      p_ = field();
      q_ = field();
      z_ = field();
      if (s.method == SolverMethod::bicgstab) {
        rhat_ = field();
        s_vec_ = field();
        shat_ = field();
        t_ = field();
      }
    }
    if (halo_ && s.fmg && s.method == SolverMethod::multigrid)
      throw InputError("solver.fmg: full multigrid runs with one process; set solver.fmg = false to run over ranks");
    if (s.method == SolverMethod::multigrid || preconditioner() == Preconditioner::multigrid) mg_ = make_multigrid(layout);
  }

  double omega() const { return omega_; }
  const Op& op() const { return op_; }
  const SolverSettings& settings() const { return s_; }
  int multigrid_levels() const { return mg_ ? mg_->levels() : 0; }

  // Solves A x = b, x holding the initial guess (its ghosts need not be filled). b is not changed.
  // With fixed multigrid cycles (settings.cycles) nothing waits for the host unless `measure` asks for
  // the residual reached.
  SolveStats solve(FieldView<T> x, FieldView<const T> b, bool measure = true) {
    const auto t0 = std::chrono::steady_clock::now();
    b_ = b;
    if (singular_) {  // a consistent right-hand side: without its mean
      copy_interior(ex_, b, b_copy_.view());
      for (int c = 0; c < ncomp_; ++c) remove_mean(ex_, b_copy_.view(), c);
      b_ = b_copy_.cview();
    }
    const bool fixed = s_.method == SolverMethod::multigrid && s_.cycles > 0;
    if ((!fixed || measure) && !run_) set_bnorm();
    fill_ghosts(ex_, x, bc_);
    exchange_halo(halo_, x, bc_, Exec::space);
    SolveStats st;
    switch (s_.method) {
      case SolverMethod::jacobi:
      case SolverMethod::weighted_jacobi:
      case SolverMethod::rbgs:
      case SolverMethod::sor: st = relax(x); break;
      case SolverMethod::cg:
      case SolverMethod::pcg:
      case SolverMethod::bicgstab: st = krylov(x); break;
      case SolverMethod::multigrid: st = fixed ? fixed_cycles(x, measure) : multigrid(x); break;
    }
    if (singular_) {
      for (int c = 0; c < ncomp_; ++c) remove_mean(ex_, x, c);
    }
    // Multigrid's cycles keep x's boundary images (Multigrid::cycle); the other methods, and removing
    // the mean, change the interior alone.
    if (singular_ || s_.method != SolverMethod::multigrid) fill_ghosts(ex_, x, bc_);
    exchange_halo(halo_, x, bc_, Exec::space);
    st.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return st;
  }

 private:
  using Schedules = LinalgSchedules<Exec>;
  friend class DeviceRelaxation<Exec, T>;  // relax() in the device's schedules, in its own file

  // A 2D grid's five-point operator: the one the device's tiled and queued sweeps take.
  static constexpr bool planar() { return !Op::tensor() && !Op::volume(); }

  Preconditioner preconditioner() const {
    if (s_.method == SolverMethod::cg) return Preconditioner::none;
    return s_.preconditioner;
  }

  // Multigrid as the method solves with the problem's conditions; as a preconditioner, for corrections.
  const FieldBoundary& multigrid_bc() const { return s_.method == SolverMethod::multigrid ? bc_ : hbc_; }
  MultigridSettings multigrid_settings() const {
    return MultigridSettings{s_.cycle_gamma, s_.pre, s_.post, s_.method == SolverMethod::pcg};
  }

  // A problem fixed only up to a constant is solved with b's mean removed. A block's shared sides are
  // placeholders: over ranks the problem is singular where no block has a fixing side, and is refused
  // (sum_over_ranks: every rank calls it).
  void find_null_space() {
    for (int c = 0; c < ncomp_; ++c)
      if (has_constant_null_space(double(op_.alpha), bc_, c)) singular_ = true;
    if (!halo_) return;
    if (halo_->sum_over_ranks(singular_ ? 0.0 : 1.0) == 0)
      throw InputError("a problem fixed only up to a constant (no Dirichlet side, no zeroth-order term) runs with one process");
    singular_ = false;
  }

  // The sweeps' schedule, field and weight. A block's sweeps are the generic ones (sweeps()).
  void set_up_relaxation(const Field<T>& layout) {
    if (halo_) {
      check_colours_split();
    } else {
      // The queued and out-of-place sweeps of a device take five points: a tensor's sweeps are the generic ones.
      queued_ = Schedules::queued_sweeps && planar() && (jacobi() || colours_close(layout.grid().extents(), ncomp_, bc_));
      into_ = !jacobi() && planar() && (queued_ || sweeps_into<Exec>(layout));
      run_ = Schedules::one_launch_relaxation && !Op::volume() && !queued_ && !jacobi();
    }
    if (jacobi() || into_) tmp_ = layout.like(Exec::space);
    device_ = DeviceRelaxation<Exec, T>(queued_ || run_);
    omega_ = s_.omega > 0 ? s_.omega
             : s_.method == SolverMethod::weighted_jacobi ? 0.8
             : s_.method == SolverMethod::sor             ? sor_weight()
                                                          : 1.0;
  }

  // SOR's weight: that of the whole grid's lowest mode, over ranks the same on every rank.
  double sor_weight() {
    if (!halo_) return sor_omega(op_, ncomp_);
    Op whole = op_;
    whole.extents = halo_->whole();
    set_sides(whole, halo_->whole_boundary(bc_), ncomp_);
    return sor_omega(whole, ncomp_);
  }

  // One process's hierarchy, or a block's (BlockMultigrid, its layout r_: the unknown's shape in Exec's space).
  std::unique_ptr<MultigridCycle<T>> make_multigrid(const Field<T>& layout) {
    const MultigridSettings ms = multigrid_settings();
    if (halo_) return std::make_unique<BlockMultigrid<Exec, T, Op>>(ex_, r_, op_, multigrid_bc(), ncomp_, ms, *halo_);
    return std::make_unique<MultigridOf<Exec, T, Op>>(ex_, layout.grid(), layout, op_, multigrid_bc(), ncomp_, ms);
  }

  void set_bnorm(double b_norm2) {
    bnorm_ = std::sqrt(b_norm2);
    if (bnorm_ == 0) bnorm_ = 1;  // then the residual test is absolute
  }
  void set_bnorm() { set_bnorm(sum_over_ranks(halo_, dot(ex_, b_, b_))); }

  double relative_residual(FieldView<const T> x) {
    return std::sqrt(sum_over_ranks(halo_, residual_norm2(ex_, op_, x, b_))) / bnorm_;
  }

  bool reached(double rel) const { return rel <= s_.tol; }

  // After a passed change test (or with none), the residual test where there is one, recorded in st;
  // true when the solve has converged.
  bool passed_residual_test(FieldView<const T> x, SolveStats& st) {
    if (s_.tol > 0) {
      st.residual = relative_residual(x);
      st.history.push_back(st.residual);
      if (!reached(st.residual)) return false;
    }
    st.converged = true;
    return true;
  }

  bool jacobi() const {
    return s_.method == SolverMethod::jacobi || s_.method == SolverMethod::weighted_jacobi;
  }

  SolveStats relax(FieldView<T> x) {
    if constexpr (Schedules::queued_sweeps && planar())
      if (queued_) return device_.queued(*this, x);
    if constexpr (Schedules::one_launch_relaxation && !Op::volume())
      if (run_) {
        if (std::optional<SolveStats> st = device_.one_launch(*this, x)) return *st;
        run_ = false;  // the device takes no cooperative launch
        set_bnorm();
      }
    SolveStats st;
    st.residual = std::nan("");
    FieldView<T> cur = x, other = jacobi() || into_ ? tmp_.view() : x;
    const T w = T(omega_);
    const int every = std::max(1, s_.check_every);
    while (st.iterations < s_.max_iter) {
      const int n = std::min(every, s_.max_iter - st.iterations);  // the sweeps up to the next test
      const T change = sweeps(cur, other, w, n);
      st.iterations += n;
      st.change = max_over_ranks(halo_, double(change));
      if (s_.change_tol > 0 && st.change >= s_.change_tol) continue;
      if (passed_residual_test(as_const(cur), st)) break;
    }
    if (cur.data != x.data) copy_all(cur, x);
    return st;
  }

  // n sweeps, the last one measured (its largest change). Out of place (Jacobi, a device's red-black
  // sweeps into the other field), cur and other swap after each; a block's are exchanged after each
  // sweep, or colour (block_sweeps.hpp; a block's sweeps are never into_).
  T sweeps(FieldView<T>& cur, FieldView<T>& other, T w, int n) {
    if (!jacobi() && !into_ && !halo_) return rb_sweeps(ex_, op_, cur, b_, bc_, w, false, n, true);
    T change = T(0);
    for (int k = 0; k < n; ++k) {
      const bool measure = k == n - 1;
      if (!jacobi() && !into_) {
        change = sweep_colours(ex_, op_, cur, b_, bc_, w, false, measure, *halo_);
        continue;
      }
      if (halo_) change = jacobi_block_sweep(ex_, op_, as_const(cur), b_, other, bc_, w, measure, *halo_);
      else if (jacobi()) change = jacobi_sweep(ex_, op_, as_const(cur), b_, other, bc_, w, measure);
      else change = rb_sweep_into(ex_, op_, as_const(cur), b_, other, bc_, w, false, measure);
      std::swap(cur, other);
    }
    return change;
  }

  // Red-black colours agree across the ranks where every block starts at an even index and, in place,
  // a colour's sweep must not push an image of a cell into a ghost that a cell of the same colour reads
  // (a block's shared sides are periodic placeholders until the exchange): every block even along the
  // axes that have such sides. blocks.hpp splits even lengths so; the ranks refuse alike otherwise.
  void check_colours_split() {
    if (jacobi()) return;
    const Extents2 n = op_.extents;
    const int count[3] = {n.nx, n.ny, n.nz};
    bool odd = false;
    for (int side = 0; side < (n.is_3d() ? 6 : 4); ++side)
      for (int c = 0; c < ncomp_; ++c) odd = odd || (bc_.side[side][c].kind == BcKind::periodic && count[side / 2] % 2);
    if (halo_->sum_over_ranks(odd ? 1.0 : 0.0) > 0)
      throw InputError("over MPI ranks the Gauss-Seidel and SOR sweeps need an even number of cells along every axis that is "
                       "periodic or split among the ranks: make grid.nx, grid.ny (grid.nz) even there, or solve by "
                       "solver.method = \"multigrid\", \"cg\" or \"jacobi\"");
  }

  void copy_all(FieldView<T> from, FieldView<T> to) {
    copy_interior(ex_, as_const(from), to);
    fill_ghosts(ex_, to, bc_);
  }

  KrylovVectors<T> krylov_vectors() {
    return {r_.view(), p_.view(), q_.view(), z_.view(), rhat_.view(), s_vec_.view(), shat_.view(), t_.view()};
  }

  SolveStats krylov(FieldView<T> x) {
    GridSystem<Exec, T, Op> sys{ex_, op_, hbc_, preconditioner(), mg_.get(), halo_};
    const KrylovGoal goal{s_.tol, s_.max_iter, bnorm_};
    if (s_.method == SolverMethod::bicgstab) return pdex::bicgstab(ex_, sys, x, b_, krylov_vectors(), goal);
    return pdex::cg(ex_, sys, x, b_, krylov_vectors(), goal);
  }

  // The relative residual that rounding leaves: a sweep sets each cell to a value rounded by about eps |x|
  // / 4 (root mean square, over the binades of x), which the cell and its neighbours weigh by about
  // the diagonal d: |r| about eps |d x| / 4. Measured where multigrid's residual stops falling (f32
  // Poisson at 256^2, seed 002's pressure at 128^2 and 256^2): 0.9 to 1.1 times this. Where tol lies
  // below it (f32 Poisson on fine grids: it grows as 1 / h^2), no number of cycles reaches tol.
  double rounding_floor(FieldView<const T> x) {
    return double(std::numeric_limits<T>::epsilon()) / 4 * std::sqrt(sum_over_ranks(halo_, diagonal_norm2(ex_, op_, x))) / bnorm_;
  }

  // With settings.fmg the first cycle is full multigrid, from scratch. The first test comes after the
  // first cycle: a residual pass before it would cost a fifth of a cycle and, in time stepping, almost
  // never spares one. A cycle that does not halve the residual
  // (multigrid cuts it tenfold or more on the problems it suits) is tested against the rounding floor.
  // Two cycles in a row within twice the floor, and the solve has done what the precision allows: it
  // stops, converged, flagged at_floor. The second is not wasted: cycles at the floor still cut the
  // smooth error, which the residual no longer shows. More would spend cycles that gain little and make
  // f32 time steps slower than f64's, whose solves reach their tolerance in fewer cycles. A solve whose
  // residual stops falling above the floor stops too, unconverged.
  SolveStats multigrid(FieldView<T> x) {
    constexpr double floor_margin = 2;
    constexpr int floor_cycles = 2;
    SolveStats st;
    st.residual = std::numeric_limits<double>::infinity();
    double best = st.residual;
    int at_floor = 0;
    while (!reached(st.residual) && st.iterations < s_.max_iter && !st.stalled && !st.at_floor) {
      if (st.iterations == 0 && s_.fmg) mg_->fmg(x, b_);
      else mg_->cycle(x, b_);
      ++st.iterations;
      st.residual = relative_residual(as_const(x));
      st.history.push_back(st.residual);
      if (reached(st.residual)) break;
      if (!(st.residual < 0.5 * best)) {
        st.floor = rounding_floor(as_const(x));
        at_floor = st.residual <= floor_margin * st.floor ? at_floor + 1 : 0;
      } else {
        at_floor = 0;
      }
      st.at_floor = at_floor == floor_cycles;
      best = std::min(best, st.residual);
      st.stalled = !st.at_floor && residual_stalled(st.history);
    }
    st.converged = reached(st.residual) || st.at_floor;
    return st;
  }

  // Time stepping from a good initial guess: a set number of cycles, the residual measured on request.
  SolveStats fixed_cycles(FieldView<T> x, bool measure) {
    SolveStats st;
    for (; st.iterations < s_.cycles; ++st.iterations) mg_->cycle(x, b_);
    st.residual = measure ? relative_residual(as_const(x)) : std::nan("");
    if (measure) st.history.push_back(st.residual);
    st.converged = true;
    return st;
  }

  Exec ex_;
  Op op_;
  FieldBoundary bc_, hbc_;
  SolverSettings s_;
  int ncomp_ = 1;
  bool singular_ = false;
  bool into_ = false;  // red-black sweeps out of place, one pass each (rb_sweep_into)
  bool queued_ = false;  // sweeps queued with their tests on the device (DeviceRelaxation::queued)
  bool run_ = false;     // a solve's sweeps and tests in one launch on the device (DeviceRelaxation::one_launch)
  DeviceRelaxation<Exec, T> device_;
  double omega_ = 1, bnorm_ = 1;
  FieldView<const T> b_{};  // the right-hand side of the current solve
  Field<T> b_copy_, r_, tmp_, p_, q_, z_, rhat_, s_vec_, shat_, t_;
  Field<T> diag_;  // a 3D tensor operator's diagonal (keep_diagonal)
  std::unique_ptr<MultigridCycle<T>> mg_;
  HaloExchange* halo_ = nullptr;  // a block's exchange with the other ranks (the constructor's halo)
};

// Every executor's solvers, each operator and precision, are compiled once and taken from there by the
// models' units, which had each compiled them again (two thirds of a kinetics unit's code): the host
// executors' in linear_solver_serial.cpp and linear_solver_openmp.cpp, the CUDA executor's in
// engine_cuda.cu (cuda/linear_solvers_cuda.cuh).
#define PDEX_LINEAR_SOLVERS(how, Exec)                         \
  how LinearSolver<Exec, float, Helmholtz<float, false>>;      \
  how LinearSolver<Exec, float, Helmholtz<float, true>>;       \
  how LinearSolver<Exec, float, Helmholtz3<float, false>>;     \
  how LinearSolver<Exec, float, Helmholtz3<float, true>>;      \
  how LinearSolver<Exec, double, Helmholtz<double, false>>;    \
  how LinearSolver<Exec, double, Helmholtz<double, true>>;     \
  how LinearSolver<Exec, double, Helmholtz3<double, false>>;   \
  how LinearSolver<Exec, double, Helmholtz3<double, true>>;
PDEX_LINEAR_SOLVERS(extern template class, Serial)
PDEX_LINEAR_SOLVERS(extern template class, OpenMP)

}  // namespace pdex
