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
#include "pdex/linalg/grid_ops.hpp"
#include "pdex/linalg/helmholtz.hpp"
#include "pdex/linalg/grid_system.hpp"
#include "pdex/linalg/krylov.hpp"
#include "pdex/linalg/multigrid.hpp"
#include "pdex/linalg/relaxation.hpp"
#include "pdex/linalg/solver_settings.hpp"

namespace pdex {

// Op: Helmholtz<T>, or Helmholtz<T, true> for a diffusion tensor.
template <class Exec, class T, class Op = Helmholtz<T>>
class LinearSolver {
 public:
  // `layout`: a field of the unknown's shape (grid, components, ghost width 1).
  LinearSolver(const Exec& ex, const Field<T>& layout, const Op& op, const FieldBoundary& bc,
               const SolverSettings& s)
      : ex_(ex), op_(op), bc_(bc), hbc_(homogeneous(bc)), s_(s), ncomp_(layout.components()) {
    for (int c = 0; c < ncomp_; ++c)
      if (has_constant_null_space(double(op.alpha), bc, c)) singular_ = true;
    auto field = [&] { return layout.like(Exec::space); };
    if (singular_) b_copy_ = field();
    r_ = field();
    if (is_relaxation(s.method)) {
      // The queued and out-of-place sweeps of the GPU take five points: a tensor's sweeps are the generic ones.
      queued_ = Exec::backend == Backend::cuda && !Op::tensor() &&
                (jacobi() || colours_close(layout.grid().nx, layout.grid().ny, ncomp_, bc));
      into_ = !jacobi() && !Op::tensor() && (queued_ || sweeps_into<Exec>(layout));
      run_ = Exec::backend == Backend::cuda && !queued_ && !jacobi();
      if (jacobi() || into_) tmp_ = field();
      if (queued_ || run_) log_ = Buffer<SweepLog>(1, Exec::space);
      omega_ = s.omega > 0 ? s.omega
               : s.method == SolverMethod::weighted_jacobi ? 0.8
               : s.method == SolverMethod::sor             ? sor_omega(op, ncomp_)
                                                           : 1.0;
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
    if (s.method == SolverMethod::multigrid || preconditioner() == Preconditioner::multigrid) {
      const FieldBoundary& mg_bc = s.method == SolverMethod::multigrid ? bc_ : hbc_;
      mg_ = std::make_unique<Multigrid<Exec, T, Op>>(ex, layout.grid(), layout, op, mg_bc, ncomp_,
                                                 MultigridSettings{s.cycle_gamma, s.pre, s.post, s.method == SolverMethod::pcg});
    }
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
    st.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return st;
  }

 private:
  Preconditioner preconditioner() const {
    if (s_.method == SolverMethod::cg) return Preconditioner::none;
    return s_.preconditioner;
  }

  void set_bnorm(double b_norm2) {
    bnorm_ = std::sqrt(b_norm2);
    if (bnorm_ == 0) bnorm_ = 1;  // then the residual test is absolute
  }
  void set_bnorm() { set_bnorm(dot(ex_, b_, b_)); }

  double relative_residual(FieldView<const T> x) {
    return std::sqrt(residual_norm2(ex_, op_, x, b_)) / bnorm_;
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
#ifdef PDEX_HAVE_CUDA
    if constexpr (Exec::backend == Backend::cuda) {
      if constexpr (!Op::tensor())
        if (queued_) return relax_queued(x);
      if (run_) {
        if (std::optional<SolveStats> st = relax_run(x)) return *st;
        run_ = false;  // the GPU takes no cooperative launch
        set_bnorm();
      }
    }
#endif
    SolveStats st;
    st.residual = std::nan("");
    const bool jacobi = this->jacobi();
    FieldView<T> cur = x, other = jacobi || into_ ? tmp_.view() : x;
    const T w = T(omega_);
    const int every = std::max(1, s_.check_every);
    while (st.iterations < s_.max_iter) {
      const int n = std::min(every, s_.max_iter - st.iterations);  // the sweeps up to the next test
      T change = T(0);
      if (jacobi || into_) {
        for (int k = 0; k < n; ++k) {
          const bool measure = k == n - 1;
          change = jacobi ? jacobi_sweep(ex_, op_, as_const(cur), b_, other, bc_, w, measure)
                          : rb_sweep_into(ex_, op_, as_const(cur), b_, other, bc_, w, false, measure);
          std::swap(cur, other);
        }
      } else {
        change = rb_sweeps(ex_, op_, cur, b_, bc_, w, false, n, true);
      }
      st.iterations += n;
      st.change = double(change);
      if (s_.change_tol > 0 && st.change >= s_.change_tol) continue;
      if (passed_residual_test(as_const(cur), st)) break;
    }
    if (cur.data != x.data) copy_all(cur, x);
    return st;
  }

#ifdef PDEX_HAVE_CUDA  // SweepQueue and the queued sweeps: relaxation.hpp
  // relax() with the sweeps queued on the GPU, `tests` tests a queue, and the tests on the device
  // (SweepLog, queue_sweeps): the same sweeps and tests, and no host wait but one a queue, where the
  // host reads the log. The launches queued after a passed test do nothing. A queue that passes no test
  // doubles the next (up to SweepLog::max_tests; queue_sweeps puts no more than SweepLog::launched_tests
  // into a queue of launches); a solve starts with as many as the last took. With a
  // change test the host tests the residual after a passed one; without, the residual tests are queued
  // on the device too (after every change test, which then always passes).
  SolveStats relax_queued(FieldView<T> x) {
    SolveStats st;
    st.residual = std::nan("");
    FieldView<T> cur = x, other = tmp_.view();
    const int every = std::max(1, s_.check_every);
    const double below = s_.change_tol > 0 ? s_.change_tol : std::numeric_limits<double>::infinity();
    const bool on_device = s_.change_tol <= 0 && s_.tol > 0;  // the residual tests
    const double residual_below = on_device ? std::pow(s_.tol * bnorm_, 2) : 0;
    int tests = s_.change_tol > 0 || on_device ? queue_tests_ : 1, solve_tests = 0;
    while (st.iterations < s_.max_iter) {
      const SweepQueue q = queue_sweeps(ex_, op_, jacobi(), cur, other, b_, bc_, T(omega_), log_.data(), every,
                                        tests, s_.max_iter - st.iterations, below, residual_below);
      SweepLog got;
      read_sweep_log(ex_, log_.data(), q.tests, got);
      // The test that passed: recorded by the launch after it, or the last one, which none followed.
      const int last = q.tests - 1;
      int passed = int(got.stop) - 1;
      if (passed < 0 && (on_device ? got.residual2(last) < residual_below : got.change(last) < below)) passed = last;
      if (q.launches_run(passed) % 2) std::swap(cur, other);
      const int ran = passed < 0 ? q.tests : passed + 1;
      st.iterations += passed < 0 ? q.sweeps : std::min(ran * every, q.sweeps);
      solve_tests += ran;
      st.change = got.change(ran - 1);
      for (int t = 0; on_device && t < ran; ++t) st.history.push_back(std::sqrt(got.residual2(t)) / bnorm_);
      if (on_device) st.residual = st.history.back();
      if (passed < 0) {
        tests = std::min(2 * tests, SweepLog::max_tests);
        continue;
      }
      if (on_device) {
        st.converged = true;
        break;
      }
      if (passed_residual_test(as_const(cur), st)) break;
    }
    if (s_.change_tol > 0 || on_device) queue_tests_ = std::clamp(solve_tests, 1, SweepLog::max_tests);
    if (cur.data != x.data) copy_all(cur, x);
    return st;
  }

  // relax() in one cooperative launch of in-place sweeps, with the tests decided on the GPU
  // (relax_in_one_launch), for what relax_queued does not take: a tensor's four colours, and red-black
  // sweeps on periodic axes of odd length. The same sweeps and tests as relax()'s, |b| included, and one
  // host wait a launch (three a test in relax(): the change, |b|, the residual). A launch takes as many
  // tests as the last solve needed, doubling where they do not suffice; nullopt where the GPU takes no
  // cooperative launch.
  std::optional<SolveStats> relax_run(FieldView<T> x) {
    SolveStats st;
    st.residual = std::nan("");
    const int every = std::max(1, s_.check_every);
    const double below = s_.change_tol > 0 ? s_.change_tol : std::numeric_limits<double>::infinity();
    int tests = queue_tests_, solve_tests = 0;
    while (st.iterations < s_.max_iter) {
      const QueuePlan plan{every, tests, s_.max_iter - st.iterations};
      if (!relax_in_one_launch(ex_, op_, x, b_, bc_, T(omega_), log_.data(), plan, below, s_.tol))
        return std::nullopt;
      SweepLog got;
      read_sweep_log(ex_, log_.data(), tests, got);
      if (s_.tol > 0) set_bnorm(got.b_norm2());
      const int passed = int(got.stop) - 1;
      int ran = 0;
      for (int sweeps = 0; plan.more(sweeps, ran) && (passed < 0 || ran <= passed); ++ran) {
        const int n = plan.to_test(sweeps);
        sweeps += n;
        st.iterations += n;
        st.change = got.change(ran);
        const bool change_passed = std::isinf(below) || st.change < below;  // the kernel's rule
        if (s_.tol > 0 && change_passed) st.history.push_back(std::sqrt(got.residual2(ran)) / bnorm_);
      }
      solve_tests += ran;
      if (passed >= 0) {
        st.converged = true;
        break;
      }
      tests = std::min(2 * tests, SweepLog::max_tests);
    }
    if (!st.history.empty()) st.residual = st.history.back();
    queue_tests_ = std::clamp(solve_tests, 1, SweepLog::max_tests);
    return st;
  }
#endif

  void copy_all(FieldView<T> from, FieldView<T> to) {
    copy_interior(ex_, as_const(from), to);
    fill_ghosts(ex_, to, bc_);
  }

  KrylovVectors<T> krylov_vectors() {
    return {r_.view(), p_.view(), q_.view(), z_.view(), rhat_.view(), s_vec_.view(), shat_.view(), t_.view()};
  }

  SolveStats krylov(FieldView<T> x) {
    GridSystem<Exec, T, Op> sys{ex_, op_, hbc_, preconditioner(), mg_.get()};
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
    return double(std::numeric_limits<T>::epsilon()) / 4 * std::sqrt(diagonal_norm2(ex_, op_, x)) / bnorm_;
  }

  // The first test comes after the first cycle: a residual pass before it would cost a fifth of a
  // cycle and, in time stepping, almost never spares one. A cycle that does not halve the residual
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
      mg_->cycle(x, b_);
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
  bool queued_ = false;  // sweeps queued with their tests on the GPU (relax_queued)
  bool run_ = false;     // a solve's sweeps and tests in one launch on the GPU (relax_run)
  Buffer<SweepLog> log_;
  int queue_tests_ = 1;
  double omega_ = 1, bnorm_ = 1;
  FieldView<const T> b_{};  // the right-hand side of the current solve
  Field<T> b_copy_, r_, tmp_, p_, q_, z_, rhat_, s_vec_, shat_, t_;
  std::unique_ptr<Multigrid<Exec, T, Op>> mg_;
};

}  // namespace pdex
