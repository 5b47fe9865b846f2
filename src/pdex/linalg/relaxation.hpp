#pragma once
// Point relaxation for A x = b (A a Helmholtz-type operator): weighted Jacobi, and red-black Gauss-Seidel /
// SOR (four colours for the nine points of a tensor). Each sweep writes the boundary images of the values
// it changes (push_ghosts), so no separate ghost pass is needed; a sweep can also return the largest change
// it made (the L-infinity test of seed 000, sec. 3.2.3, and the stopping rule of seed 004), at the price of
// a reduction.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

#include "pdex/core/executor.hpp"
#include "pdex/core/parallel.hpp"
#include "pdex/grid/boundary.hpp"
#include "pdex/grid/field_view.hpp"
#include "pdex/grid/fill_ghosts.hpp"
#include "pdex/linalg/grid_ops.hpp"
#include "pdex/linalg/helmholtz.hpp"

namespace pdex {

// A near-optimal SOR weight from the Jacobi spectral radius of the lowest mode, cos(pi / n) per axis, of
// the stiffest component: components relaxed in lock step share the weight, and one over-relaxed past
// its own optimum still converges at a rate of omega - 1, while one under-relaxed converges much slower.
template <class Op>
double sor_omega(const Op& op, int ncomp) {
  const double pi = 3.14159265358979323846;
  const double ax = double(op.h.idx2), ay = double(op.h.idy2);
  double rho = 0;
  for (int c = 0; c < ncomp; ++c) {
    const double b = double(op.beta[c]);
    rho = std::max(rho, b * (2 * ax * std::cos(pi / op.nx) + 2 * ay * std::cos(pi / op.ny)) /
                            (double(op.alpha) + b * (2 * ax + 2 * ay)));
  }
  return 2.0 / (1.0 + std::sqrt(std::max(0.0, 1.0 - rho * rho)));
}

namespace detail {
template <class T>
PDEX_HD inline T abs_of(T x) {
  return x < T(0) ? -x : x;
}

// out(i, j) = in(i, j) + omega D^-1 (b - A in)(i, j) for component c, with its boundary images;
// returns |change|. `in` and `out` may be the same field (Gauss-Seidel).
template <class T, class Op>
PDEX_HD inline T relax_component(const Op& op, const FieldView<const T>& in, const FieldView<const T>& b,
                                 const FieldView<T>& out, const FieldBoundary& bc, T omega, int i, int j, int c) {
  const int64_t o = in.offset(i, j);
  const T dx = omega * (b.comp(c)[o] - op.apply(in, i, j, c)) * op.inv_diag(i, j, c, o);
  const T v = in.comp(c)[o] + dx;
  out.comp(c)[o] = v;
  if (near_boundary(out, i, j)) push_ghosts(out, bc, c, i, j, v);
  return abs_of(dx);
}

// The same for every component; returns the largest |change|.
template <class T, class Op>
PDEX_HD inline T relax_point(const Op& op, const FieldView<const T>& in, const FieldView<const T>& b,
                             const FieldView<T>& out, const FieldBoundary& bc, T omega, int i, int j) {
  T change = T(0);
  for (int c = 0; c < in.ncomp; ++c) {
    const T d = relax_component(op, in, b, out, bc, omega, i, j, c);
    change = d > change ? d : change;
  }
  return change;
}

// cell(i, j) over range r, returning the largest of its values when `measure`, else 0.
template <class T, class Exec, class F>
T sweep_cells(const Exec& ex, Range2 r, F cell, bool measure) {
  if (measure) return reduce<T>(ex, r, cell, Max<T>{});
  for_each_cell(ex, r, [=] PDEX_HD(int i, int j) { (void)cell(i, j); });
  return T(0);
}
}  // namespace detail

// x_out = x_in + omega D^-1 (b - A x_in). Returns the largest |change| when `measure`, else 0.
template <class Exec, class T, class Op>
T jacobi_sweep(const Exec& ex, const Op& op, FieldView<const T> in, FieldView<const T> b, FieldView<T> out,
               const FieldBoundary& bc, T omega, bool measure) {
  const Op a = op.refreshed();
  auto cell = [=] PDEX_HD(int i, int j) { return detail::relax_point(a, in, b, out, bc, omega, i, j); };
  return detail::sweep_cells<T>(ex, in.interior(), cell, measure);
}

// Updates in place the cells with (i + j) % 2 == color. A launch covers only those cells: a thread
// per cell of the colour, not a thread per cell with half of them idle.
// On a periodic axis of odd length the colouring does not close across the wrap: the two cells beside
// the seam have one colour and one of them may read the other's old or new image; either is a valid
// relaxation, so the method still converges, but results are not bit-reproducible there.
template <class Exec, class T, class Op>
T color_sweep(const Exec& ex, const Op& op, FieldView<T> x, FieldView<const T> b, const FieldBoundary& bc, T omega,
              int color, bool measure) {
  const Range2 half{0, (x.nx + 1) / 2, 0, x.ny};
  const Op a = op.refreshed();
  auto cell = [=] PDEX_HD(int k, int j) {
    const int i = 2 * k + ((j + color) & 1);
    if (i >= x.nx) return T(0);
    return detail::relax_point(a, as_const(x), b, x, bc, omega, i, j);
  };
  return detail::sweep_cells<T>(ex, half, cell, measure);
}

// Gauss-Seidel for the nine points of a tensor (Helmholtz::tensor), where red cells touch red cells
// across corners: four colours, i % 2 + 2 (j % 2), no two cells of which are neighbours, in order (or
// the reverse). The same caveat on periodic axes of odd length as color_sweep's.
template <class Exec, class T, class Op>
T four_color_sweep(const Exec& ex, const Op& op, FieldView<T> x, FieldView<const T> b, const FieldBoundary& bc,
                   T omega, bool reverse, bool measure) {
  const Range2 quarter{0, (x.nx + 1) / 2, 0, (x.ny + 1) / 2};
  const Op a = op.refreshed();
  T largest = T(0);
  for (int k = 0; k < 4; ++k) {
    const int color = reverse ? 3 - k : k;
    auto cell = [=] PDEX_HD(int p, int q) {
      const int i = 2 * p + (color & 1), j = 2 * q + (color >> 1);
      if (i >= x.nx || j >= x.ny) return T(0);
      return detail::relax_point(a, as_const(x), b, x, bc, omega, i, j);
    };
    const T m = detail::sweep_cells<T>(ex, quarter, cell, measure);
    largest = m > largest ? m : largest;
  }
  return largest;
}

// One red-black sweep (red first, or black first when `reverse`: a post-smoother in that order makes a
// multigrid cycle symmetric, as a preconditioner for CG must be). Returns the largest change if `measure`.
// A tensor's operator takes four colours (four_color_sweep).
template <class Exec, class T, class Op>
T rb_sweep(const Exec& ex, const Op& op, FieldView<T> x, FieldView<const T> b, const FieldBoundary& bc, T omega,
           bool reverse, bool measure) {
  if constexpr (Op::tensor()) {
    return four_color_sweep(ex, op, x, b, bc, omega, reverse, measure);
  } else {
    const int first = reverse ? 1 : 0;
    const T m0 = color_sweep(ex, op, x, b, bc, omega, first, measure);
    const T m1 = color_sweep(ex, op, x, b, bc, omega, 1 - first, measure);
    return m0 > m1 ? m0 : m1;
  }
}

namespace detail {
// rb_sweeps as `sweeps` calls of rb_sweep (also CUDA's, on grids too large for a run in one launch).
template <class Exec, class T, class Op>
T rb_sweep_each(const Exec& ex, const Op& op, FieldView<T> x, FieldView<const T> b, const FieldBoundary& bc, T omega,
                bool reverse, int sweeps, bool measure) {
  T largest = T(0);
  for (int k = 0; k < sweeps; ++k) largest = rb_sweep(ex, op, x, b, bc, omega, reverse, measure && k == sweeps - 1);
  return largest;
}
}  // namespace detail

// `sweeps` rb_sweeps in place; the last one's largest change if `measure`, else 0.
template <class Exec, class T, class Op>
T rb_sweeps(const Exec& ex, const Op& op, FieldView<T> x, FieldView<const T> b, const FieldBoundary& bc, T omega,
            bool reverse, int sweeps, bool measure) {
  return detail::rb_sweep_each(ex, op, x, b, bc, omega, reverse, sweeps, measure);
}

#ifdef PDEX_HAVE_CUDA
// On CUDA the run is one cooperative launch, its colours a grid barrier apart, with one host wait where
// it measures (cuda/sweep_runs.cuh): rb_sweep takes a launch a colour and, measuring, a wait a colour.
template <class T, bool Tensor>
T rb_sweeps(const Cuda& ex, const Helmholtz<T, Tensor>& op, FieldView<T> x, FieldView<const T> b,
            const FieldBoundary& bc, T omega, bool reverse, int sweeps, bool measure);
#endif

namespace detail {
// `sweeps` rb_sweeps of a copy of in, into out; the last one's largest change if `measure`.
template <class Exec, class T, class Op>
T copy_and_sweep(const Exec& ex, const Op& op, FieldView<const T> in, FieldView<const T> b,
                 FieldView<T> out, const FieldBoundary& bc, T omega, bool reverse, bool measure, int sweeps = 1) {
  copy_interior(ex, in, out);
  fill_ghosts(ex, out, bc);
  return rb_sweeps(ex, op, out, b, bc, omega, reverse, sweeps, measure);
}
}  // namespace detail

// out = rb_sweep applied to in, which is left as it was; in's ghosts must hold its boundary images, and
// out gets its own. On a GPU this is one launch and one pass over memory (cuda/tile_sweep.cuh), half the
// traffic of rb_sweep's two; solvers there sweep between two fields with it. On the CPU, where a sweep is
// bound by its arithmetic, it is a copy and rb_sweep.
template <class Exec, class T, class Op>
T rb_sweep_into(const Exec& ex, const Op& op, FieldView<const T> in, FieldView<const T> b, FieldView<T> out,
                const FieldBoundary& bc, T omega, bool reverse, bool measure) {
  return detail::copy_and_sweep(ex, op, in, b, out, bc, omega, reverse, measure);
}

// out = two rb_sweeps applied to in (multigrid's smoothing pairs), in left as it was, with rb_sweep_into's
// ghosts. On a GPU one launch and one pass over memory (cuda/fused_sweep.cuh): two rb_sweep_into for
// the traffic of one.
template <class Exec, class T, class Op>
void rb_sweep_pair_into(const Exec& ex, const Op& op, FieldView<const T> in, FieldView<const T> b,
                        FieldView<T> out, const FieldBoundary& bc, T omega, bool reverse) {
  detail::copy_and_sweep(ex, op, in, b, out, bc, omega, reverse, false, 2);
}

#ifdef PDEX_HAVE_CUDA
// On CUDA both sweeps are one launch over shared-memory tiles (cuda/tile_sweep.cuh, instantiated in
// engine_cuda.cu), for five-point operators; a tensor's take the templates above.
template <class T>
T rb_sweep_into(const Cuda& ex, const Helmholtz<T>& op, FieldView<const T> in, FieldView<const T> b, FieldView<T> out,
                const FieldBoundary& bc, T omega, bool reverse, bool measure);
template <class T>
void rb_sweep_pair_into(const Cuda& ex, const Helmholtz<T>& op, FieldView<const T> in, FieldView<const T> b,
                        FieldView<T> out, const FieldBoundary& bc, T omega, bool reverse);
template <class T>
T jacobi_sweep(const Cuda& ex, const Helmholtz<T>& op, FieldView<const T> in, FieldView<const T> b, FieldView<T> out,
               const FieldBoundary& bc, T omega, bool measure);
#endif

// A red-black colouring closes across a periodic axis of even length only; where it does not, the GPU
// sweeps out of place by a copy and rb_sweep.
inline bool colours_close(int nx, int ny, int ncomp, const FieldBoundary& bc) {
  for (int c = 0; c < ncomp; ++c) {
    if (bc.side[left][c].kind == BcKind::periodic && nx % 2) return false;
    if (bc.side[bottom][c].kind == BcKind::periodic && ny % 2) return false;
  }
  return true;
}

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
  static double sum(const double (&words)[sum_words]) {
    double s = 0;
    for (double w : words) s += w;
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

#ifdef PDEX_HAVE_CUDA
// `sweeps` (1 or fused_sweeps) Jacobi sweeps, or red-black ones (red first) as rb_sweep_into, queued, from
// `in` into `out`: one launch, no host wait (cuda/tile_sweep.cuh, cuda/fused_sweep.cuh); only the last
// is tested. Red-black needs colours that close.
template <class T>
void queued_sweep(const Cuda& ex, const Helmholtz<T>& op, bool jacobi, int sweeps, FieldView<const T> in,
                  FieldView<const T> b, FieldView<T> out, const FieldBoundary& bc, T omega, const QueuedTest& test);
// Change tests after every sweep in a queue of launches (cuda/fused_sweep.cuh's tested_sweeps_kernel):
// test.tests (0 to tested_sweeps<T>(jacobi)) sweeps from `in` into `out`, each tested. Where a test of a launch but
// its last passes, the launch after it (queued with the same `in` and `out` as one more launch would take;
// test.tests 0 where the queue ends there) makes the sweeps up to that test again, from the launch's input
// into its output, so that the queue leaves the field that single tested launches leave.
template <class T>
void queued_tested_sweeps(const Cuda& ex, const Helmholtz<T>& op, bool jacobi, FieldView<const T> in,
                          FieldView<const T> b, FieldView<T> out, const FieldBoundary& bc, T omega,
                          const QueuedTest& test);
// The residual test `test.test` of a queue: |b - A x|^2 into the test's row, nothing where a test before
// it passed (cuda/tile_sweep.cuh).
template <class T>
void queued_residual(const Cuda& ex, const Helmholtz<T>& op, FieldView<const T> x, FieldView<const T> b,
                     const QueuedTest& test);
// Clears the log's stop word and first `tests` rows behind everything queued; reads them into `to`,
// waiting.
void clear_sweep_log(const Cuda& ex, SweepLog* log, int tests);
void read_sweep_log(const Cuda& ex, const SweepLog* log, int tests, SweepLog& to);

// What a queue of sweeps (queue_sweeps) put on the GPU: `sweeps` sweeps and `tests` tests in `launches`
// launches (rounds, for a resident queue), through_test[k] of them up to and including test k's.
struct SweepQueue {
  int sweeps = 0, tests = 0, launches = 0;
  int through_test[SweepLog::max_tests] = {};

  // The launches that ran, where test `passed` (-1: none) passed: the field is in the other buffer
  // where they are odd.
  int launches_run(int passed) const { return passed < 0 ? launches : through_test[passed]; }
};

// The whole queue in one launch, on grids of up to a tile a multiprocessor (cuda/resident_sweep.cuh);
// false, with nothing queued, elsewhere.
template <class T>
bool resident_sweeps(const Cuda& ex, const Helmholtz<T>& op, bool jacobi, FieldView<T> x, FieldView<T> other,
                     FieldView<const T> b, const FieldBoundary& bc, T omega, SweepLog* log, const QueuePlan& plan,
                     double below, bool residual, SweepQueue& q);

// A relaxation solve's in-place red-black sweeps (four colours for a tensor: rb_sweep's) and its tests in
// one cooperative launch (cuda/sweep_runs.cuh), for the operators and grids the queued sweeps do not
// take (LinearSolver::relax_run): a test after every `every`-th sweep and after sweep `max_sweeps`, up
// to `tests` tests (QueuePlan). Each test is LinearSolver::relax's: the last sweep's largest change
// passes below `below` (+infinity: no change test); then, where tol > 0, |b - A x| <= tol |b|. The log
// holds each test's change and |b - A x|^2, |b|^2 and the test that passed (stop). False, with nothing
// launched, where the GPU takes no cooperative launch.
template <class T, bool Tensor>
bool relax_in_one_launch(const Cuda& ex, const Helmholtz<T, Tensor>& op, FieldView<T> x, FieldView<const T> b,
                         const FieldBoundary& bc, T omega, SweepLog* log, const QueuePlan& plan, double below,
                         double tol);

// Queues sweeps as a relaxation solve takes them (LinearSolver::relax_queued), ping-ponging between x
// (first read) and `other`: a change test after every `every`-th sweep and after sweep `max_sweeps` (the
// cap), until `tests` tests are queued or the cap is reached (QueuePlan). On small grids, where
// `resident`, the whole queue is one launch (resident_sweeps); else the runs of
// sweeps up to a test go fused_sweeps to a launch while that many are left, then one at a time, and
// change tests after every sweep tested_sweeps to a launch (queued_tested_sweeps). A change
// test passes below `below`; with `residual_below` > 0 a residual test follows each change test (the
// field's |b - A x|^2, which passes below residual_below) and decides in its place.
template <class T>
SweepQueue queue_sweeps(const Cuda& ex, const Helmholtz<T>& op, bool jacobi, FieldView<T> x, FieldView<T> other,
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
#endif

// True where plain red-black sweeps (multigrid's smoothers) go out of place with rb_sweep_into, so need a
// second field: on the GPU, for a field of 16 MB or more (relaxation solves there queue theirs, out of
// place on every grid: LinearSolver). Below that x and b stay in the 50 MB L2 cache of an H100 between
// rb_sweep's two launches, whose many small blocks then beat the tiles' single wave (a 512^2 grid is 128
// tiles).
template <class Exec, class T>
bool sweeps_into(const Field<T>& layout) {
  constexpr double min_bytes = 16.0 * (1 << 20);
  return Exec::space == MemorySpace::device &&
         double(layout.cview().comp_stride) * layout.components() * sizeof(T) >= min_bytes;
}

}  // namespace pdex
