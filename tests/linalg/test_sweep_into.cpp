// The out-of-place red-black sweep (rb_sweep_into), which solvers on the GPU sweep with in one launch
// of shared-memory tiles, must be the two-launch sweep (rb_sweep) to rounding: same interior values,
// same boundary images in every ghost (the scratch field's ghosts start NaN, so one it misses fails),
// same largest change. Checked on every executor, for every boundary kind mixed per side and
// component, odd and even sizes, grids smaller than a tile (the region wraps several times) and grids
// of several tiles, both colour orders, Gauss-Seidel and SOR, with a varying diffusivity. Likewise two
// sweeps into another field (multigrid's pairs); on CUDA also the fused launches of relaxation solves
// (several sweeps in one) against single sweeps.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <utility>
#include <vector>

#include "core/executor_types.hpp"
#include "grid/ghost_test_support.hpp"
#include "pdex/linalg/device_relaxation.hpp"
#include "pdex/linalg/relaxation3.hpp"
#ifdef PDEX_HAVE_CUDA
#include "pdex/core/cuda/cuda_context.hpp"
#endif

namespace pdex::test {
namespace {

FieldBoundary mixed_conditions() {
  FieldBoundary bc = FieldBoundary::all(BcKind::neumann);
  bc.side[left][0] = {BcKind::periodic, 0.0};
  bc.side[right][0] = {BcKind::periodic, 0.0};
  bc.side[bottom][0] = {BcKind::dirichlet, 3.5};
  bc.side[left][1] = {BcKind::dirichlet, -1.25};
  bc.side[bottom][1] = {BcKind::periodic, 0.0};
  bc.side[top][1] = {BcKind::periodic, 0.0};
  return bc;
}

template <class T>
Field<T> random_field(const Grid2& g, int ncomp, unsigned seed, double lo, double hi) {
  Field<T> f(g, ncomp, 1, MemorySpace::host);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> dist(lo, hi);
  auto v = f.view();
  for (int c = 0; c < ncomp; ++c)
    for (int j = 0; j < g.ny; ++j)
      for (int i = 0; i < g.nx; ++i) v(c, i, j) = T(dist(rng));
  return f;
}

// A random start (ghosts filled, on the host), right-hand side and two-component operator on an nx x ny
// grid, the second component's diffusivity varying per cell; b and d in `space`.
template <class T>
struct RandomProblem {
  Grid2 g;
  Field<T> x0, b, d;
  Helmholtz<T> op;

  // `components` 1 or 2; the last has a per-cell coefficient.
  RandomProblem(int nx, int ny, const FieldBoundary& bc, MemorySpace space, int components = 2)
      : g{nx, ny, 1.0 / nx, 1.3 / ny},
        x0(random_field<T>(g, components, 3, -1.0, 1.0)),
        b(to_space(random_field<T>(g, components, 5, -4.0, 4.0), space)),
        d(to_space(random_field<T>(g, 1, 7, 0.5, 2.0), space)) {
    fill_ghosts(Serial{}, x0, bc);
    const double beta[2] = {0.02, 0.7};
    op = make_helmholtz<T>(g, x0.view().pitch, 1.5, beta, components, bc);
    op.d[components - 1] = d.cview().data;
  }
};

// Every interior and ghost value of `got` equals `want`'s to a relative `tol`; the first few that do not
// are reported.
template <class T>
void expect_same_field(const Field<T>& want_field, const Field<T>& got_field, double tol, const char* what) {
  const Field<T> want_f = to_space(want_field, MemorySpace::host), got_f = to_space(got_field, MemorySpace::host);
  const auto want = want_f.view(), got = got_f.view();
  int bad = 0;
  for (int c = 0; c < want.ncomp; ++c)
    for (int j = -1; j <= want.ny; ++j)
      for (int i = -1; i <= want.nx; ++i) {
        const double w = double(want(c, i, j)), v = double(got(c, i, j));
        if (!(std::abs(v - w) <= tol * (1 + std::abs(w))) && ++bad <= 5)
          ADD_FAILURE() << "component " << c << " at (" << i << ", " << j << "): " << what << " " << v
                        << ", expected " << w;
      }
  EXPECT_EQ(bad, 0);
}

struct Case {
  int nx, ny;
  bool reverse;
  double omega;
};

template <class Exec, class T>
void check_sweep_into(const Exec& ex, const Case& k, const FieldBoundary& bc) {
  SCOPED_TRACE(::testing::Message() << k.nx << "x" << k.ny << (k.reverse ? ", black first" : ", red first")
                                    << ", omega " << k.omega);
  const RandomProblem<T> p(k.nx, k.ny, bc, Exec::space);
  Field<T> two_pass = to_space(p.x0, Exec::space), in = to_space(p.x0, Exec::space);
  Field<T> out = to_space(numbered_field<T>(p.g, 2, 1), Exec::space);  // NaN ghosts until written
  finish(ex);
  const T omega = T(k.omega);
  const T m_ref = rb_sweep(ex, p.op, two_pass.view(), p.b.cview(), bc, omega, k.reverse, true);
  const T m = rb_sweep_into(ex, p.op, in.cview(), p.b.cview(), out.view(), bc, omega, k.reverse, true);
  finish(ex);

  const double tol = sizeof(T) == 4 ? 2e-6 : 1e-14;
  EXPECT_NEAR(double(m), double(m_ref), tol * std::abs(double(m_ref)));
  expect_same_field(two_pass, out, tol, "rb_sweep_into");
}

template <class E>
using SweepIntoTest = ExecutorTest<E>;
TYPED_TEST_SUITE(SweepIntoTest, Executors, ExecutorNames);

// On a periodic axis of odd length the colouring does not close across the wrap, and the two sweeps
// may read a same-coloured neighbour at different ages (both valid relaxations): periodic axes are even.
// The larger grids hold CUDA tiles (64 x 32 cells) away from every side, in both precisions.
TYPED_TEST(SweepIntoTest, EqualsTheTwoLaunchSweep) {
  const auto ex = make_executor<TypeParam>();
  const Case even[] = {{12, 10, false, 1.0}, {16, 6, true, 1.3},   {14, 8, true, 1.0},
                       {150, 70, false, 1.3}, {130, 66, true, 1.0}, {280, 70, true, 1.3}};
  const Case odd[] = {{13, 9, true, 1.0}, {7, 7, false, 1.6}, {9, 4, false, 1.0}, {131, 67, true, 1.2}, {261, 67, false, 1.0}};
  for (const Case& k : even) {
    check_sweep_into<TypeParam, double>(ex, k, mixed_conditions());
    check_sweep_into<TypeParam, float>(ex, k, mixed_conditions());
    check_sweep_into<TypeParam, double>(ex, k, FieldBoundary::all(BcKind::periodic));
  }
  for (const Case& k : odd)
    for (BcKind kind : {BcKind::neumann, BcKind::dirichlet}) {
      check_sweep_into<TypeParam, double>(ex, k, FieldBoundary::all(kind, 0.75));
      check_sweep_into<TypeParam, float>(ex, k, FieldBoundary::all(kind, 0.75));
    }
}

// A host jacobi_sweep (inner cells vectorized, host_sweep.hpp) must be relax_point at every cell, bit for bit.
template <class Exec, class T>
void check_jacobi(const Exec& ex, const RandomProblem<T>& p, const FieldBoundary& bc, T omega) {
  Field<T> want = to_space(p.x0, MemorySpace::host), got = to_space(p.x0, MemorySpace::host);
  const auto op = p.op.refreshed();
  T m_want = T(0);
  for (int j = 0; j < p.g.ny; ++j)
    for (int i = 0; i < p.g.nx; ++i)
      m_want = std::max(m_want, detail::relax_point(op, p.x0.cview(), p.b.cview(), want.view(), bc, omega, i, j));
  const T m = jacobi_sweep(ex, p.op, p.x0.cview(), p.b.cview(), got.view(), bc, omega, true);
  EXPECT_EQ(m, m_want);
  expect_same_field(want, got, 0.0, "host jacobi_sweep");
}

// rb_sweep must be its two colour passes (color_sweep) bit for bit, interior, every ghost and the largest
// change: on the host it sweeps in one pass, vectorized (host_sweep.hpp), and in blocks of rows on OpenMP;
// so must a host jacobi_sweep be relax_point at every cell.
// Every boundary kind (Robin too), a per-cell coefficient, one and two components, odd sizes where the
// colouring closes, rows and columns fewer than a vector's cells.
template <class Exec, class T>
void check_one_pass(const Exec& ex, const Case& k, const FieldBoundary& bc, int components) {
  SCOPED_TRACE(::testing::Message() << k.nx << "x" << k.ny << (k.reverse ? ", black first" : ", red first")
                                    << ", omega " << k.omega << ", " << components << " components"
                                    << (sizeof(T) == 4 ? ", f32" : ", f64"));
  const RandomProblem<T> p(k.nx, k.ny, bc, Exec::space, components);
  Field<T> passes = to_space(p.x0, Exec::space), swept = to_space(p.x0, Exec::space);
  finish(ex);
  const T omega = T(k.omega);
  const int first = k.reverse ? 1 : 0;
  const T m0 = color_sweep(ex, p.op, passes.view(), p.b.cview(), bc, omega, first, true);
  const T m1 = color_sweep(ex, p.op, passes.view(), p.b.cview(), bc, omega, 1 - first, true);
  const T m = rb_sweep(ex, p.op, swept.view(), p.b.cview(), bc, omega, k.reverse, true);
  const T none = rb_sweep(ex, p.op, swept.view(), p.b.cview(), bc, omega, k.reverse, false);
  color_sweep(ex, p.op, passes.view(), p.b.cview(), bc, omega, first, false);
  color_sweep(ex, p.op, passes.view(), p.b.cview(), bc, omega, 1 - first, false);
  finish(ex);
  EXPECT_EQ(m, std::max(m0, m1));
  EXPECT_GT(m, T(0));
  EXPECT_EQ(none, T(0));
  expect_same_field(passes, swept, 0.0, "one-pass rb_sweep");
  if constexpr (Exec::space == MemorySpace::host) check_jacobi(ex, p, bc, omega);
}

TYPED_TEST(SweepIntoTest, OnePassEqualsTwoColourPasses) {
  const auto ex = make_executor<TypeParam>();
  FieldBoundary robin = mixed_conditions();
  robin.side[top][0] = robin_side(1.0, 0.5, 0.3, 0.1);
  robin.side[right][1] = robin_side(2.0, 1.0, -0.2, 0.1);
  const Case even[] = {{12, 10, false, 1.0}, {4, 6, true, 1.3}, {150, 70, true, 1.3}, {282, 140, false, 1.0}};
  const Case odd[] = {{13, 9, true, 1.0}, {3, 5, false, 1.6}, {131, 67, true, 1.2}, {261, 135, false, 1.0}};
  for (const Case& k : even)
    for (int components : {1, 2}) {
      check_one_pass<TypeParam, double>(ex, k, mixed_conditions(), components);
      check_one_pass<TypeParam, float>(ex, k, robin, components);
      check_one_pass<TypeParam, float>(ex, k, FieldBoundary::all(BcKind::periodic), components);
    }
  for (const Case& k : odd)
    for (BcKind kind : {BcKind::neumann, BcKind::dirichlet}) {
      check_one_pass<TypeParam, double>(ex, k, FieldBoundary::all(kind, 0.75), 2);
      check_one_pass<TypeParam, float>(ex, k, FieldBoundary::all(kind, 0.75), 1);
    }
}

// Two sweeps into another field (rb_sweep_pair_into: multigrid's smoothing pairs, one fused launch on
// CUDA) must be two in-place sweeps to rounding, interior and every ghost; odd periodic axes take the
// copy-and-sweep path on CUDA.
template <class Exec, class T>
void check_pair_into(const Exec& ex, const Case& k, const FieldBoundary& bc) {
  SCOPED_TRACE(::testing::Message() << k.nx << "x" << k.ny << (k.reverse ? ", black first" : ", red first")
                                    << ", omega " << k.omega << (sizeof(T) == 4 ? ", f32" : ", f64"));
  const RandomProblem<T> p(k.nx, k.ny, bc, Exec::space);
  Field<T> in_place = to_space(p.x0, Exec::space), in = to_space(p.x0, Exec::space);
  Field<T> out = to_space(numbered_field<T>(p.g, 2, 1), Exec::space);  // NaN ghosts until written
  finish(ex);
  const T omega = T(k.omega);
  for (int n = 0; n < 2; ++n) rb_sweep(ex, p.op, in_place.view(), p.b.cview(), bc, omega, k.reverse, false);
  rb_sweep_pair_into(ex, p.op, in.cview(), p.b.cview(), out.view(), bc, omega, k.reverse);
  finish(ex);
  expect_same_field(in_place, out, sizeof(T) == 4 ? 4e-6 : 1e-13, "rb_sweep_pair_into");
}

TYPED_TEST(SweepIntoTest, PairEqualsTwoSweeps) {
  const auto ex = make_executor<TypeParam>();
  const Case cases[] = {{12, 10, false, 1.2}, {40, 40, true, 1.0}, {150, 70, false, 1.2}, {280, 138, true, 1.2}};
  for (const Case& k : cases) {
    check_pair_into<TypeParam, double>(ex, k, mixed_conditions());
    check_pair_into<TypeParam, float>(ex, k, mixed_conditions());
    check_pair_into<TypeParam, double>(ex, k, FieldBoundary::all(BcKind::periodic));
    check_pair_into<TypeParam, double>(ex, k, FieldBoundary::all(BcKind::dirichlet, 0.75));
  }
  for (BcKind kind : {BcKind::neumann, BcKind::dirichlet})
    check_pair_into<TypeParam, double>(ex, Case{131, 67, true, 1.2}, FieldBoundary::all(kind, 0.5));
}

// The 3D sweep out of place (rb_sweep3_into: on CUDA one launch that walks planes of shared-memory
// tiles, linalg/cuda/tile_sweep3.cu) must be the in-place sweep (color_sweep of each colour) bit for
// bit: the same update on the same values, in the interior and in every ghost. Both start from the same
// field, ghosts filled (edges and corners too), and write the same images, so every stored value
// agrees. Grids smaller than a tile, several tiles with partial last ones, runs of planes that do not
// divide nz; every kind of side, per face and component (periodic axes even, so the colours close); a
// Dirichlet value and a Robin side; one component with a per-cell diffusivity; both colour orders; Gauss-Seidel and SOR.
struct Case3 {
  int nx, ny, nz;
  bool reverse;
  double omega;
};

FieldBoundary faces3_conditions() {
  FieldBoundary bc = FieldBoundary::all(BcKind::neumann);
  const SideBc periodic{BcKind::periodic, 0.0};
  bc.side[left][0] = bc.side[right][0] = periodic;
  bc.side[front][0] = bc.side[back][0] = periodic;
  bc.side[bottom][0] = {BcKind::dirichlet, 3.5};
  bc.side[bottom][1] = bc.side[top][1] = periodic;
  bc.side[left][1] = {BcKind::dirichlet, -1.25};
  bc.side[back][1] = {BcKind::dirichlet, 0.5};
  bc.side[top][0] = robin_side(1.0, 0.5, 0.3, 0.1);
  return bc;
}

template <class Exec, class T>
void check_sweep3_into(const Exec& ex, const Case3& k, const FieldBoundary& bc) {
  SCOPED_TRACE(::testing::Message() << k.nx << "x" << k.ny << "x" << k.nz << (k.reverse ? ", black first" : ", red first")
                                    << ", omega " << k.omega << (sizeof(T) == 4 ? ", f32" : ", f64"));
  Grid2 g{k.nx, k.ny, 1.0 / k.nx, 1.3 / k.ny};
  g.nz = k.nz, g.dz = 0.8 / k.nz;
  Field<T> x0(g, 2, 1, MemorySpace::host), b0 = x0.like(MemorySpace::host), d0(g, 1, 1, MemorySpace::host);
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int c = 0; c < 2; ++c)
    for_each_cell(g.extents(), [&](int i, int j, int l) {
      x0.view()(c, i, j, l) = T(u(rng));
      b0.view()(c, i, j, l) = T(4 * u(rng));
      if (c == 0) d0.view()(0, i, j, l) = T(1.25 + 0.75 * u(rng));
    });
  fill_ghosts(Serial{}, x0, bc);
  fill_ghosts(Serial{}, d0, bc);
  const Field<T> b = to_space(b0, Exec::space), d = to_space(d0, Exec::space);
  const double beta[2] = {0.7, 0.02};
  Helmholtz3<T> op = make_helmholtz3<T>(g, x0.cview(), 1.5, beta, 2, bc);
  op.d[1] = d.cview().data;
  Field<T> in_place = to_space(x0, Exec::space), in = to_space(x0, Exec::space), out = to_space(x0, Exec::space);
  finish(ex);
  const T omega = T(k.omega);
  rb_sweeps(ex, op, in_place.view(), b.cview(), bc, omega, k.reverse, 1, false);
  rb_sweep3_into(ex, op, in.cview(), b.cview(), out.view(), bc, omega, k.reverse);
  finish(ex);
  const Field<T> want_f = to_space(in_place, MemorySpace::host), got_f = to_space(out, MemorySpace::host);
  const auto want = want_f.view(), got = got_f.view();
  int bad = 0;
  double largest = 0;
  for (int c = 0; c < 2; ++c)
    for (int l = -1; l <= k.nz; ++l)
      for (int j = -1; j <= k.ny; ++j)
        for (int i = -1; i <= k.nx; ++i) {
          const T w = want(c, i, j, l), v = got(c, i, j, l);
          if (w == v) continue;
          largest = std::max(largest, std::abs(double(v) - double(w)));
          if (++bad <= 5) ADD_FAILURE() << "component " << c << " at (" << i << ", " << j << ", " << l << "): " << v << ", expected " << w;
        }
  EXPECT_EQ(bad, 0) << "largest difference " << largest;
}

TYPED_TEST(SweepIntoTest, ThreeDimensionalSweepIntoIsTheInPlaceSweep) {
  const auto ex = make_executor<TypeParam>();
  const Case3 cases[] = {{12, 6, 4, false, 1.0}, {14, 10, 6, true, 1.15}, {130, 18, 38, false, 1.15},
                         {64, 16, 40, true, 1.0}, {200, 26, 70, true, 1.15}};
  for (const Case3& k : cases) {
    check_sweep3_into<TypeParam, double>(ex, k, faces3_conditions());
    check_sweep3_into<TypeParam, float>(ex, k, faces3_conditions());
    check_sweep3_into<TypeParam, double>(ex, k, FieldBoundary::all(BcKind::periodic));
  }
  for (const Case3 k : {Case3{13, 9, 7, true, 1.0}, Case3{131, 19, 37, false, 1.15}})
    for (BcKind kind : {BcKind::neumann, BcKind::dirichlet}) {
      check_sweep3_into<TypeParam, double>(ex, k, FieldBoundary::all(kind, 0.75));
      check_sweep3_into<TypeParam, float>(ex, k, FieldBoundary::all(kind, 0.75));
    }
}

#ifdef PDEX_HAVE_CUDA
// A queued launch of fused_sweeps sweeps (cuda/fused_sweep.cuh) must be that many single queued sweeps
// to rounding: interior, every ghost (the result field's start NaN), and the last sweep's largest change
// in the test's row. Mixed boundaries, two components (one with a varying diffusivity), grids smaller than
// a tile, and grids whose tiles lie away from every side; Jacobi, weighted Jacobi, Gauss-Seidel and SOR.
template <class T>
void check_fused(const Cuda& ex, int nx, int ny, const FieldBoundary& bc, bool jacobi, double omega) {
  SCOPED_TRACE(::testing::Message() << nx << "x" << ny << (jacobi ? " jacobi" : " red-black") << ", omega "
                                    << omega << (sizeof(T) == 4 ? ", f32" : ", f64"));
  const RandomProblem<T> p(nx, ny, bc, MemorySpace::device);
  Buffer<SweepLog> log(2, MemorySpace::device);
  clear_sweep_log(ex, log.data(), 1);
  clear_sweep_log(ex, log.data() + 1, 1);

  // Single sweeps through a and c (ping-pong), the last tested; one fused launch from `in` into `out`.
  Field<T> a = to_space(p.x0, MemorySpace::device), c = to_space(p.x0, MemorySpace::device);
  Field<T> in = to_space(p.x0, MemorySpace::device);
  Field<T> out = to_space(numbered_field<T>(p.g, 2, 1), MemorySpace::device);  // NaN ghosts until written
  for (int k = 0; k < fused_sweeps; ++k) {
    const QueuedTest t{log.data(), k + 1 == fused_sweeps ? 0 : -1, -1, 0.0};
    queued_sweep(ex, p.op, jacobi, 1, (k % 2 ? c : a).cview(), p.b.cview(), (k % 2 ? a : c).view(), bc, T(omega), t);
  }
  queued_sweep(ex, p.op, jacobi, fused_sweeps, in.cview(), p.b.cview(), out.view(), bc, T(omega),
               QueuedTest{log.data() + 1, 0, -1, 0.0});
  SweepLog got[2];
  read_sweep_log(ex, log.data(), 1, got[0]);
  read_sweep_log(ex, log.data() + 1, 1, got[1]);

  const double tol = sizeof(T) == 4 ? 4e-6 : 1e-13;
  EXPECT_NEAR(got[1].change(0), got[0].change(0), tol * got[0].change(0));
  expect_same_field(fused_sweeps % 2 ? c : a, out, tol, "fused");
}

TEST(FusedSweeps, EqualSingleQueuedSweeps) {
  if (!backend_available(Backend::cuda))
    GTEST_SKIP() << "no CUDA device: " << backend_unavailable_reason(Backend::cuda);
  const Cuda ex = make_executor<Cuda>();
  const int sizes[][2] = {{12, 10}, {40, 40}, {150, 70}, {280, 138}};
  for (const auto& [nx, ny] : sizes)
    for (const bool jacobi : {true, false})
      for (const double omega : {1.0, jacobi ? 0.8 : 1.4}) {
        check_fused<double>(ex, nx, ny, mixed_conditions(), jacobi, omega);
        check_fused<float>(ex, nx, ny, mixed_conditions(), jacobi, omega);
        check_fused<double>(ex, nx, ny, FieldBoundary::all(BcKind::dirichlet, 0.75), jacobi, omega);
        check_fused<double>(ex, nx, ny, FieldBoundary::all(BcKind::periodic), jacobi, omega);
      }
  for (BcKind kind : {BcKind::neumann, BcKind::dirichlet}) check_fused<double>(ex, 131, 67, FieldBoundary::all(kind, 0.5), true, 1.0);
}

// The test of a queue of `tests` that passed, as the host reads it (LinearSolver::relax_queued): the one
// the log's stop word names, or the last where its value is below `below`; -1 where none.
int passed_test(const SweepLog& got, int tests, double below, bool residual) {
  if (got.stop) return int(got.stop) - 1;
  return (residual ? got.residual2(tests - 1) : got.change(tests - 1)) < below ? tests - 1 : -1;
}

// Change tests after every sweep in a queue of launches go tested_sweeps to a launch (queued_tested_sweeps;
// three, two for f64 Jacobi): the queue must be the single tested launches it replaces: the same test
// passed, the same largest changes, the same field, interior and ghosts. The threshold lies between the
// changes of tests `passes` - 1 and `passes` (-1: none passes) of 8, in launches of tests 0-2, 3-5 and
// 6-7 (a cap of 6 or 7 sweeps: 0-2, 3-5 and 6; f64 Jacobi in pairs). Where a test but the last of a
// launch passes, the launch after makes the sweeps up to it again: for tests 1, 3 and 4 the next launch
// of sweeps, for test 6 (and 4 under a cap of 6) the queue's last launch, which sweeps nothing else.
template <class T>
void check_tested_runs(const Cuda& ex, int nx, int ny, bool jacobi, double omega, int cap, int passes,
                        const FieldBoundary& bc) {
  SCOPED_TRACE(::testing::Message() << nx << "x" << ny << (jacobi ? " jacobi" : " red-black") << ", omega " << omega
                                    << ", cap " << cap << ", test " << passes << " passes"
                                    << (sizeof(T) == 4 ? ", f32" : ", f64"));
  const RandomProblem<T> p(nx, ny, bc, MemorySpace::device);
  Buffer<SweepLog> log(1, MemorySpace::device);
  constexpr int tests = 8;
  const int sweeps = std::min(tests, cap);
  auto start = [&] { return to_space(p.x0, MemorySpace::device); };
  auto nan_ghosts = [&] { return to_space(numbered_field<T>(p.g, 2, 1), MemorySpace::device); };
  auto singles = [&](double below, Field<T>& result, SweepLog& got) {
    Field<T> a = start(), c = nan_ghosts();
    clear_sweep_log(ex, log.data(), tests);
    for (int k = 0; k < sweeps; ++k)
      queued_sweep(ex, p.op, jacobi, 1, (k % 2 ? c : a).cview(), p.b.cview(), (k % 2 ? a : c).view(), bc, T(omega),
                   QueuedTest{log.data(), k, k - 1, below});
    read_sweep_log(ex, log.data(), sweeps, got);
    const int passed = passed_test(got, sweeps, below, false);
    result = std::move((passed < 0 ? sweeps : passed + 1) % 2 ? c : a);
    return passed;
  };
  auto runs = [&](double below, Field<T>& result, SweepLog& got) {
    Field<T> x = start(), other = nan_ghosts();
    const SweepQueue q = queue_sweeps(ex, p.op, jacobi, x.view(), other.view(), p.b.cview(), bc, T(omega),
                                      log.data(), 1, tests, cap, below, 0.0, false);
    const int k = tested_sweeps<T>(jacobi);
    EXPECT_EQ(q.launches, (sweeps + k - 1) / k) << k << " tested sweeps a launch";
    EXPECT_EQ(q.tests, sweeps);
    read_sweep_log(ex, log.data(), q.tests, got);
    const int passed = passed_test(got, q.tests, below, false);
    result = std::move(q.launches_run(passed) % 2 ? other : x);
    return passed;
  };
  Field<T> field[2];
  SweepLog got[2];
  singles(0.0, field[0], got[0]);
  const double below = passes < 0 ? 0.0 : std::sqrt(got[0].change(passes) * got[0].change(passes - 1));
  const int passed = singles(below, field[0], got[0]);
  ASSERT_EQ(passed, passes) << "the threshold's test";
  EXPECT_EQ(runs(below, field[1], got[1]), passed);
  const double tol = sizeof(T) == 4 ? 4e-6 : 1e-12;
  for (int t = 0; t < (passed < 0 ? sweeps : passed + 1); ++t)
    EXPECT_NEAR(got[1].change(t), got[0].change(t), tol * got[0].change(t)) << "test " << t;
  expect_same_field(field[0], field[1], tol, "tested runs");
}

TEST(QueuedTestedRuns, EqualSingleTestedLaunches) {
  if (!backend_available(Backend::cuda))
    GTEST_SKIP() << "no CUDA device: " << backend_unavailable_reason(Backend::cuda);
  const Cuda ex = make_executor<Cuda>();
  // Grids smaller than a tile, tiles cut by the grid's end, inner tiles (280 x 138); two components.
  const int sizes[][2] = {{12, 10}, {150, 70}, {280, 138}};
  for (const auto& [nx, ny] : sizes)
    for (const bool jacobi : {false, true}) {
      const double omega = jacobi ? 0.8 : 1.2;
      for (const int passes : {-1, 1, 2, 3, 4, 6, 7}) {
        check_tested_runs<double>(ex, nx, ny, jacobi, omega, 1000, passes, mixed_conditions());
        check_tested_runs<float>(ex, nx, ny, jacobi, omega, 1000, passes, FieldBoundary::all(BcKind::dirichlet, 0.75));
      }
      for (const auto& [cap, passes] : {std::pair{6, 4}, {6, 5}, {7, 4}, {7, 6}})
        check_tested_runs<double>(ex, nx, ny, jacobi, omega, cap, passes, FieldBoundary::all(BcKind::neumann));
      check_tested_runs<double>(ex, nx, ny, jacobi, 1.0, 1000, 3, FieldBoundary::all(BcKind::periodic));
    }
}

// A queue run in one launch (resident_sweep.cuh) must be the queue of launches (queue_sweeps, resident
// off): the same sweeps and tests, the same test passed, the same largest changes or residuals, and the
// same field, interior and ghosts. The threshold is set between the launches' values (residual, or
// change) of tests `passes` - 1 and `passes`, so that test `passes` passes (the queue holds 8 tests; -1:
// none passes);
// `cap`: the sweeps allowed; `per_cell`: the second component has a per-cell coefficient (every block
// takes the general point update), else neither has (the lean one, in the blocks along the sides too).
// Change tests after every sweep go two to a round, the field after the first kept until its test is
// read: `passes` even is the first of a pair, odd the second, 7 the last (read by the host).
struct ResidentCase {
  int nx, ny;
  bool jacobi;
  double omega;
  int every, cap;
  bool residual;
  bool per_cell = true;
  int passes = 3;
  int components = 2;
};

template <class T>
void check_resident(const Cuda& ex, const ResidentCase& k, const FieldBoundary& bc) {
  SCOPED_TRACE(::testing::Message() << k.nx << "x" << k.ny << (k.jacobi ? " jacobi" : " red-black") << ", omega "
                                    << k.omega << ", every " << k.every << ", cap " << k.cap
                                    << (k.residual ? ", residual tests" : ", change tests")
                                    << (k.per_cell ? "" : ", no per-cell coefficient") << ", test " << k.passes
                                    << " passes, " << k.components << " components"
                                    << (sizeof(T) == 4 ? ", f32" : ", f64"));
  RandomProblem<T> p(k.nx, k.ny, bc, MemorySpace::device, k.components);
  if (!k.per_cell) p.op.d[k.components - 1] = nullptr;
  Buffer<SweepLog> log(1, MemorySpace::device);
  auto run = [&](bool resident, double below, Field<T>& result, SweepLog& got) {
    Field<T> x = to_space(p.x0, MemorySpace::device);
    Field<T> other = to_space(numbered_field<T>(p.g, k.components, 1), MemorySpace::device);  // NaN ghosts until written
    const SweepQueue q = queue_sweeps(ex, p.op, k.jacobi, x.view(), other.view(), p.b.cview(), bc, T(k.omega),
                                      log.data(), k.every, 8, k.cap, k.residual ? 0.0 : below,
                                      k.residual ? below : 0.0, resident);
    read_sweep_log(ex, log.data(), q.tests, got);
    result = std::move(q.launches_run(passed_test(got, q.tests, below, k.residual)) % 2 ? other : x);
    return q;
  };
  auto value = [&](const SweepLog& g, int t) { return k.residual ? g.residual2(t) : g.change(t); };
  Field<T> field[2];
  SweepLog got[2];
  run(false, k.residual ? 1e-300 : 0.0, field[0], got[0]);
  const double below = k.passes < 0 ? 0.0 : std::sqrt(value(got[0], k.passes) * value(got[0], k.passes - 1));
  const SweepQueue q[2] = {run(false, below, field[0], got[0]), run(true, below, field[1], got[1])};
  if (k.every == 1 && !k.residual && k.cap > 1) EXPECT_LT(q[1].launches, q[1].sweeps) << "rounds of tested sweeps";
  EXPECT_EQ(q[1].sweeps, q[0].sweeps);
  EXPECT_EQ(q[1].tests, q[0].tests);
  const int passed = passed_test(got[0], q[0].tests, below, k.residual);
  EXPECT_EQ(passed_test(got[1], q[1].tests, below, k.residual), passed);
  const double tol = sizeof(T) == 4 ? 4e-6 : 1e-12;
  for (int t = 0; t < (passed < 0 ? q[0].tests : passed + 1); ++t)
    EXPECT_NEAR(value(got[1], t), value(got[0], t), (k.residual ? 1e3 : 1) * tol * value(got[0], t)) << "test " << t;
  expect_same_field(field[0], field[1], tol, "resident");
}

TEST(ResidentQueues, EqualQueuedLaunches) {
  if (!backend_available(Backend::cuda))
    GTEST_SKIP() << "no CUDA device: " << backend_unavailable_reason(Backend::cuda);
  const Cuda ex = make_executor<Cuda>();
  // Grids smaller than a tile (the region wraps several times), tiles cut by the grid's end, inner tiles
  // (the lean point update); one sweep a round (a test every sweep), 3 = 2 + 1, a cap between tests.
  const ResidentCase cases[] = {{12, 10, false, 1.0, 1, 1000, false},  {40, 40, true, 1.0, 6, 1000, false},
                                {150, 70, false, 1.4, 3, 1000, false}, {150, 70, true, 0.8, 5, 23, false},
                                {280, 138, false, 1.4, 6, 1000, true}, {131, 67, true, 1.0, 4, 1000, true}};
  for (const ResidentCase& k : cases) {
    const bool odd = k.nx % 2 || k.ny % 2;  // red-black needs colours that close across a periodic axis
    if (!odd) check_resident<double>(ex, k, mixed_conditions());
    if (!odd) check_resident<float>(ex, k, FieldBoundary::all(BcKind::periodic));
    check_resident<double>(ex, k, FieldBoundary::all(BcKind::dirichlet, 0.75));
    check_resident<double>(ex, k, FieldBoundary::all(BcKind::neumann));
  }
  // The lean point update in the blocks along the sides (SideInverses), every kind of side; a grid
  // smaller than a tile, whose region wraps several times.
  const ResidentCase lean[] = {{150, 70, false, 1.4, 3, 1000, false, false},
                               {40, 40, true, 1.0, 6, 1000, false, false},
                               {12, 10, false, 1.2, 2, 1000, true, false}};
  for (const ResidentCase& k : lean) {
    check_resident<double>(ex, k, mixed_conditions());
    check_resident<float>(ex, k, FieldBoundary::all(BcKind::periodic));
    check_resident<double>(ex, k, FieldBoundary::all(BcKind::dirichlet, 0.75));
    check_resident<double>(ex, k, FieldBoundary::all(BcKind::neumann));
  }
  // Residual tests under a cap that ends the queue with untested sweeps (45: tests after sweeps 6, 12,
  // ..., 42, then three more): a test in the middle of the queue passing, its last one, none; and a
  // residual test after every sweep; tiles of 32 x 16 and of 64 x 32 (400 x 300).
  for (const int passes : {5, 6, -1}) {
    const ResidentCase k{280, 138, false, 1.4, 6, 45, true, true, passes};
    check_resident<double>(ex, k, mixed_conditions());
    check_resident<float>(ex, k, FieldBoundary::all(BcKind::dirichlet, 0.75));
    const ResidentCase middle{400, 300, true, 0.8, 6, 45, true, false, passes};
    check_resident<double>(ex, middle, FieldBoundary::all(BcKind::neumann));
  }
  check_resident<double>(ex, ResidentCase{40, 40, false, 1.2, 1, 1000, true, false, 4}, mixed_conditions());
  // A change test after every sweep: a test after each sweep of a round, the fields of all but the last
  // kept; rounds of three in f32 (tests 0-2, 3-5, 6-7) on these grids, where a round's tiles, ring and
  // kept tiles fit in shared memory, of two in f64; each test of a round passing, the last round's too,
  // and caps that leave a round of one or two.
  for (const bool jacobi : {false, true}) {
    for (const int passes : {1, 2, 3, 4, 6, 7}) {
      const ResidentCase k{40, 40, jacobi, jacobi ? 0.8 : 1.2, 1, 1000, false, passes % 2 == 0, passes};
      check_resident<double>(ex, k, mixed_conditions());
      check_resident<float>(ex, k, FieldBoundary::all(BcKind::dirichlet, 0.75));
    }
    for (const auto& [cap, passes] : {std::pair{5, 3}, {5, 4}, {7, 4}, {7, 6}}) {
      const ResidentCase capped{150, 70, jacobi, 1.0, 1, cap, false, false, passes};
      check_resident<double>(ex, capped, FieldBoundary::all(BcKind::neumann));
      check_resident<float>(ex, capped, FieldBoundary::all(BcKind::neumann));
    }
  }
}

// 1024^2 runs resident in tiles of 128 x 64: two f32 components fit in shared memory with the tiles kept
// through a round of two tested sweeps, one with those of three (the rounds where the tests are every
// sixth sweep take as many sweeps). (Apart from the small grids above, which compute-sanitizer's
// racecheck takes in minutes.)
TEST(ResidentQueues, EqualQueuedLaunchesInLargeTiles) {
  if (!backend_available(Backend::cuda))
    GTEST_SKIP() << "no CUDA device: " << backend_unavailable_reason(Backend::cuda);
  const Cuda ex = make_executor<Cuda>();
  for (const bool jacobi : {false, true})
    for (const bool per_cell : {false, true})
      for (const int components : {1, 2}) {
        const ResidentCase large{1024, 1024, jacobi, jacobi ? 1.0 : 1.2, 6, 1000, false, per_cell, 3, components};
        check_resident<float>(ex, large, mixed_conditions());
        check_resident<float>(ex, large, FieldBoundary::all(BcKind::dirichlet, 0.75));
        for (const int passes : {3, 4}) {  // the first and second of a round of three, the second and first of two
          const ResidentCase runs{1024, 1024, jacobi, jacobi ? 1.0 : 1.2, 1, 1000, false, per_cell, passes, components};
          check_resident<float>(ex, runs, mixed_conditions());
        }
      }
}

// A resident queue takes every test the log holds (SweepLog::max_tests), a queue of launches no more than
// SweepLog::launched_tests; a test after every sweep and none passing: the resident queue's field and its
// last test's change must be those of the launched queues that make the same sweeps one after another.
TEST(ResidentQueues, TakeEveryTestTheLogHolds) {
  if (!backend_available(Backend::cuda))
    GTEST_SKIP() << "no CUDA device: " << backend_unavailable_reason(Backend::cuda);
  const Cuda ex = make_executor<Cuda>();
  const FieldBoundary bc = mixed_conditions();
  const RandomProblem<double> p(40, 40, bc, MemorySpace::device);
  Buffer<SweepLog> log(1, MemorySpace::device);
  SweepLog got;
  auto queue = [&](bool resident, Field<double>& x, Field<double>& other) {
    const SweepQueue q = queue_sweeps(ex, p.op, true, x.view(), other.view(), p.b.cview(), bc, 0.8, log.data(), 1,
                                      SweepLog::max_tests, 100000, 0.0, 0.0, resident);
    read_sweep_log(ex, log.data(), q.tests, got);
    EXPECT_EQ(got.stop, 0u) << "no test passes";
    if (q.launches % 2) std::swap(x, other);
    return q;
  };
  Field<double> x[2] = {to_space(p.x0, MemorySpace::device), to_space(p.x0, MemorySpace::device)};
  Field<double> other[2] = {p.x0.like(MemorySpace::device), p.x0.like(MemorySpace::device)};
  const SweepQueue resident = queue(true, x[1], other[1]);
  ASSERT_EQ(resident.tests, SweepLog::max_tests);
  EXPECT_EQ(resident.sweeps, SweepLog::max_tests);
  const double last = got.change(SweepLog::max_tests - 1);
  ASSERT_GT(last, 0.0);
  for (int sweeps = 0; sweeps < resident.sweeps;) {
    const SweepQueue q = queue(false, x[0], other[0]);
    ASSERT_EQ(q.tests, SweepLog::launched_tests);
    sweeps += q.sweeps;
  }
  EXPECT_NEAR(got.change(SweepLog::launched_tests - 1), last, 1e-12 * last);
  expect_same_field(x[0], x[1], 1e-12, "resident");
}

__global__ void last_shared_word(int* out) {
  extern __shared__ int words[];
  words[threadIdx.x] = int(threadIdx.x);
  __syncthreads();
  if (threadIdx.x == 0) *out = words[blockDim.x - 1];
}

// A kernel's allowance of dynamic shared memory is the kernel's, not a launch's: asking for a smaller size
// after a larger one (CudaContext::resident_blocks) must leave the larger one launchable.
TEST(ResidentQueues, SharedAllowanceOnlyRises) {
  if (!backend_available(Backend::cuda))
    GTEST_SKIP() << "no CUDA device: " << backend_unavailable_reason(Backend::cuda);
  const CudaContext& ctx = *make_executor<Cuda>().context;
  const void* kernel = reinterpret_cast<const void*>(last_shared_word);
  const std::size_t large = 100 << 10, small = 60 << 10;
  ASSERT_GT(ctx.resident_blocks(kernel, 256, large), 0);
  ASSERT_GT(ctx.resident_blocks(kernel, 256, small), 0);
  Buffer<int> out(1, MemorySpace::device);
  last_shared_word<<<1, 256, large, ctx.stream()>>>(out.data());
  ASSERT_EQ(cudaGetLastError(), cudaSuccess) << "the larger launch after the smaller size was asked for";
  int got = 0;
  ASSERT_EQ(cudaMemcpyAsync(&got, out.data(), sizeof got, cudaMemcpyDeviceToHost, ctx.stream()), cudaSuccess);
  ctx.synchronize();
  EXPECT_EQ(got, 255);
}
#endif

}  // namespace
}  // namespace pdex::test
