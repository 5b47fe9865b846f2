#pragma once
// The records of relaxation sweeps queued on a device with their tests (DeviceRelaxation, queue_sweeps):
// what the host plans and what the device writes, shared by the host and the kernels (cuda/).
#include <algorithm>
#include <bit>

#include "pdex/core/macros.hpp"

namespace pdex {

// The change tests of relaxation sweeps queued on the GPU with no host wait between them (LinearSolver
// on CUDA; a wait per test costs a launch's latency and the GPU's idle time while the host decides, more
// than a whole sweep below 1024^2). Each block of a tested sweep folds its largest change into one of
// `words` words of the test's row (atomicMax on the bits of a double >= 0, which order as the values do:
// exact, whatever the blocks' order; spread so that few blocks meet on a word, and without a returned
// value a block need not wait for). The sweep after a tested one folds the row as it loads its tiles
// (every block alike, so all decide the same) and, where the change is below the test's threshold,
// writes nothing and records the pass in `stop`, so that every sweep queued after it does nothing either.
// A solve without a change test queues residual tests instead (queued_residual): |b - A x|^2 summed into
// the row's `sum_words` words, which the sweep after it adds up in a fixed order and tests the same way.
// A queue of launches takes up to `launched_tests` tests: each launch queued after a passed test still
// costs its launch. A queue in one launch (resident_sweeps) stops where a test passes, so it takes up to
// `max_tests`, so fewer host round trips, which a solve with a change test after every sweep (seed 004's)
// would otherwise make every launched_tests sweeps.
struct SweepLog {
  static constexpr int max_tests = 256, launched_tests = 32, words = 32, sum_words = 16;
  struct Row {
    unsigned long long largest[words];
    double residual2[sum_words];
  };
  unsigned stop;  // 1 + the test that passed; 0 while none has
  double b2[sum_words];  // |b|^2, where a solve in one launch tests relative residuals (relax_in_one_launch)
  Row rows[max_tests];

  // On the host: a test's largest change (NaN was folded as +infinity), and its |b - A x|^2.
  double change(int test) const {
    double m = 0;
    for (unsigned long long w : rows[test].largest) m = std::max(m, std::bit_cast<double>(w));
    return m;
  }
  double residual2(int test) const { return sum(rows[test].residual2); }
  double b_norm2() const { return sum(b2); }

 private:
  static double sum(const double (&parts)[sum_words]) {
    double s = 0;
    for (double w : parts) s += w;
    return s;
  }
};

// A queued launch's part in the tests of `log`, in device memory.
struct QueuedTest {
  SweepLog* log = nullptr;
  int test = -1;      // the row this launch's result goes to; -1: not tested
  int previous = -1;  // the test of the launch just before, which this one folds first; -1: none
  double below = 0;   // that test passes when its value is below this
  bool residual = false;  // that test is a residual test (|b - A x|^2), not a change test
  // A launch of tested sweeps (queued_tested_sweeps): its sweeps, each tested, in rows test, test + 1 ...
  // (0: none, the last launch of a queue, which only finishes the launch before); and those of the launch
  // just before, from row `previous`.
  int tests = 1, previous_tests = 1;
};

// The sweeps a queued GPU launch may take at once (cuda/fused_sweep.cuh): a run of untested sweeps and
// the tested one after it goes fused_sweeps to a launch, the rest one at a time.
constexpr int fused_sweeps = 3;

// The sweeps a queued GPU launch takes where each is tested (a change test after every sweep;
// queued_tested_sweeps): fused_sweeps, but two for f64 Jacobi, whose tile of 64 x 16 with the ring of
// three sweeps reads 1.69x its cells, against 1.33x with two: the third sweep would cost more than the
// launch it saves.
template <class T>
constexpr int tested_sweeps(bool jacobi) {
  return jacobi && sizeof(T) == sizeof(double) ? 2 : fused_sweeps;
}

// The sweeps and tests of a queue (queue_sweeps): a test after every `every`-th sweep and after sweep
// `max_sweeps` (the cap), until `tests` tests are queued or the cap is reached. On the host and in the
// kernel that runs a whole queue (cuda/resident_sweep.cuh).
struct QueuePlan {
  int every, tests, max_sweeps;
  PDEX_HD bool more(int sweeps, int tested) const { return sweeps < max_sweeps && tested < tests; }
  // The sweeps from `sweeps` up to and including the next test.
  PDEX_HD int to_test(int sweeps) const {
    const int a = every - sweeps % every, b = max_sweeps - sweeps;
    return a < b ? a : b;
  }
};

// What a queue of sweeps (queue_sweeps) put on the GPU: `sweeps` sweeps and `tests` tests in `launches`
// launches (rounds, for a resident queue), through_test[k] of them up to and including test k's.
struct SweepQueue {
  int sweeps = 0, tests = 0, launches = 0;
  int through_test[SweepLog::max_tests] = {};

  // The launches that ran, where test `passed` (-1: none) passed: the field is in the other buffer
  // where they are odd.
  int launches_run(int passed) const { return passed < 0 ? launches : through_test[passed]; }
};

}  // namespace pdex
