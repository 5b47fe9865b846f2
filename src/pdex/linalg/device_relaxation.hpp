#pragma once
// Relaxation on executors whose sweeps and their tests run queued on the device (LinalgSchedules): the
// queue of sweeps a solve takes, and LinearSolver's relax() in those schedules. The kernels are the
// backend's: cuda/sweeps_cuda.hpp declares CUDA's.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "pdex/core/buffer.hpp"
#include "pdex/linalg/relaxation.hpp"
#include "pdex/linalg/solver_settings.hpp"
#include "pdex/linalg/sweep_queue.hpp"

namespace pdex {

// Queues sweeps as a relaxation solve takes them (DeviceRelaxation::queued), ping-ponging between x
// (first read) and `other`: a change test after every `every`-th sweep and after sweep `max_sweeps` (the
// cap), until `tests` tests are queued or the cap is reached (QueuePlan). On small grids, where
// `resident`, the whole queue is one launch (resident_sweeps); else the runs of
// sweeps up to a test go fused_sweeps to a launch while that many are left, then one at a time, and
// change tests after every sweep tested_sweeps to a launch (queued_tested_sweeps). A change
// test passes below `below`; with `residual_below` > 0 a residual test follows each change test (the
// field's |b - A x|^2, which passes below residual_below) and decides in its place.
template <class Exec, class T>
SweepQueue queue_sweeps(const Exec& ex, const Helmholtz<T>& op, bool jacobi, FieldView<T> x, FieldView<T> other,
                        FieldView<const T> b, const FieldBoundary& bc, T omega, SweepLog* log, int every, int tests,
                        int max_sweeps, double below, double residual_below = 0, bool resident = true) {
  SweepQueue q;
  clear_sweep_log(ex, log, tests);
  const bool residual = residual_below > 0;
  if (resident && resident_sweeps(ex, op, jacobi, x, other, b, bc, omega, log, QueuePlan{every, tests, max_sweeps},
                                  residual ? residual_below : below, residual, q))
    return q;
  const QueuePlan plan{every, std::min(tests, SweepLog::launched_tests), max_sweeps};
  const bool tested_runs = every == 1 && !residual;
  auto from = [&] { return as_const(q.launches % 2 ? other : x); };
  auto to = [&] { return q.launches % 2 ? x : other; };
  int last_tests = 0;  // of the launch before
  while (plan.more(q.sweeps, q.tests)) {
    const int to_test = plan.to_test(q.sweeps);
    const int n = tested_runs ? std::min({tested_sweeps<T>(jacobi), plan.max_sweeps - q.sweeps, plan.tests - q.tests})
                        : to_test >= fused_sweeps ? fused_sweeps : 1;
    const int tested = tested_runs ? n : n == to_test;
    const QueuedTest t{log, tested ? q.tests : -1, last_tests ? q.tests - last_tests : -1,
                       residual ? residual_below : below, residual, tested, last_tests};
    if (tested_runs) queued_tested_sweeps(ex, op, jacobi, from(), b, to(), bc, omega, t);
    else queued_sweep(ex, op, jacobi, n, from(), b, to(), bc, omega, t);
    if (tested && residual) queued_residual(ex, op, as_const(to()), b, QueuedTest{log, q.tests});
    q.sweeps += n;
    ++q.launches;
    for (int k = 0; k < tested; ++k) q.through_test[q.tests++] = q.launches;
    last_tests = tested;
  }
  if (tested_runs && last_tests > 1)  // the last launch's tests but its last are read by a launch of no sweeps
    queued_tested_sweeps(ex, op, jacobi, from(), b, to(), bc, omega,
                         QueuedTest{log, -1, q.tests - last_tests, below, false, 0, last_tests});
  return q;
}

// LinearSolver's relax() where the executor queues sweeps (queued) or runs a solve in one cooperative
// launch (one_launch): the same sweeps and tests, with the host waiting once a queue instead of once a
// test. It holds the log the device writes and how many tests the last solve took.
template <class Exec, class T>
class DeviceRelaxation {
 public:
  DeviceRelaxation() = default;
  explicit DeviceRelaxation(bool used) {
    if (used) log_ = Buffer<SweepLog>(1, Exec::space);
  }

  // LinearSolver `ls`'s relax() with the sweeps queued on the device, `tests` tests a queue, and the tests on the device
  // (SweepLog, queue_sweeps): the same sweeps and tests, and no host wait but one a queue, where the
  // host reads the log. The launches queued after a passed test do nothing. A queue that passes no test
  // doubles the next (up to SweepLog::max_tests; queue_sweeps puts no more than SweepLog::launched_tests
  // into a queue of launches); a solve starts with as many as the last took. With a
  // change test the host tests the residual after a passed one; without, the residual tests are queued
  // on the device too (after every change test, which then always passes).
  template <class Solver>
  SolveStats queued(Solver& ls, FieldView<T> x) {
    const SolverSettings& s = ls.s_;
    SolveStats st;
    st.residual = std::nan("");
    FieldView<T> cur = x, other = ls.tmp_.view();
    const int every = std::max(1, s.check_every);
    const double below = s.change_tol > 0 ? s.change_tol : std::numeric_limits<double>::infinity();
    const bool on_device = s.change_tol <= 0 && s.tol > 0;  // the residual tests
    const double residual_below = on_device ? std::pow(s.tol * ls.bnorm_, 2) : 0;
    int tests = s.change_tol > 0 || on_device ? queue_tests_ : 1, solve_tests = 0;
    while (st.iterations < s.max_iter) {
      const SweepQueue q = queue_sweeps(ls.ex_, ls.op_, ls.jacobi(), cur, other, ls.b_, ls.bc_, T(ls.omega_),
                                        log_.data(), every, tests, s.max_iter - st.iterations, below, residual_below);
      SweepLog got;
      read_sweep_log(ls.ex_, log_.data(), q.tests, got);
      // The test that passed: recorded by the launch after it, or the last one, which none followed.
      const int last = q.tests - 1;
      int passed = int(got.stop) - 1;
      if (passed < 0 && (on_device ? got.residual2(last) < residual_below : got.change(last) < below)) passed = last;
      if (q.launches_run(passed) % 2) std::swap(cur, other);
      const int ran = passed < 0 ? q.tests : passed + 1;
      st.iterations += passed < 0 ? q.sweeps : std::min(ran * every, q.sweeps);
      solve_tests += ran;
      st.change = got.change(ran - 1);
      for (int t = 0; on_device && t < ran; ++t) st.history.push_back(std::sqrt(got.residual2(t)) / ls.bnorm_);
      if (on_device) st.residual = st.history.back();
      if (passed < 0) {
        tests = std::min(2 * tests, SweepLog::max_tests);
        continue;
      }
      if (on_device) {
        st.converged = true;
        break;
      }
      if (ls.passed_residual_test(as_const(cur), st)) break;
    }
    if (s.change_tol > 0 || on_device) queue_tests_ = std::clamp(solve_tests, 1, SweepLog::max_tests);
    if (cur.data != x.data) ls.copy_all(cur, x);
    return st;
  }

  // `ls`'s relax() in one cooperative launch of in-place sweeps, with the tests decided on the device
  // (relax_in_one_launch), for what queued() does not take: a tensor's four colours, and red-black
  // sweeps on periodic axes of odd length. The same sweeps and tests as relax()'s, |b| included, and one
  // host wait a launch (three a test in relax(): the change, |b|, the residual). A launch takes as many
  // tests as the last solve needed, doubling where they do not suffice; nullopt where the device takes no
  // cooperative launch.
  template <class Solver>
  std::optional<SolveStats> one_launch(Solver& ls, FieldView<T> x) {
    const SolverSettings& s = ls.s_;
    SolveStats st;
    st.residual = std::nan("");
    const int every = std::max(1, s.check_every);
    const double below = s.change_tol > 0 ? s.change_tol : std::numeric_limits<double>::infinity();
    int tests = queue_tests_, solve_tests = 0;
    while (st.iterations < s.max_iter) {
      const QueuePlan plan{every, tests, s.max_iter - st.iterations};
      if (!relax_in_one_launch(ls.ex_, ls.op_, x, ls.b_, ls.bc_, T(ls.omega_), log_.data(), plan, below, s.tol))
        return std::nullopt;
      SweepLog got;
      read_sweep_log(ls.ex_, log_.data(), tests, got);
      if (s.tol > 0) ls.set_bnorm(got.b_norm2());
      const int passed = int(got.stop) - 1;
      int ran = 0;
      for (int sweeps = 0; plan.more(sweeps, ran) && (passed < 0 || ran <= passed); ++ran) {
        const int n = plan.to_test(sweeps);
        sweeps += n;
        st.iterations += n;
        st.change = got.change(ran);
        const bool change_passed = std::isinf(below) || st.change < below;  // the kernel's rule
        if (s.tol > 0 && change_passed) st.history.push_back(std::sqrt(got.residual2(ran)) / ls.bnorm_);
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

 private:
  Buffer<SweepLog> log_;
  int queue_tests_ = 1;
};

}  // namespace pdex
