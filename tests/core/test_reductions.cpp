// Reductions (core/parallel*.hpp, grid/field_reductions.hpp) on every executor. Integer-valued data
// make sums, square sums and counts exact in double, so every executor must return the plain loop's
// value exactly, whatever order it combines in.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "core/executor_types.hpp"
#include "pdex/core/parallel.hpp"
#include "pdex/grid/field.hpp"
#include "pdex/grid/field_reductions.hpp"

namespace pdex::test {
namespace {

// Integers in [-50, 50]: sums stay below 2^53 and are exact in double.
PDEX_HD inline int pattern(int i, int j) { return (i * 7 + j * 13) % 101 - 50; }

struct Expected {
  int64_t sum = 0, sum_sq = 0, count_pos = 0;
  int min = std::numeric_limits<int>::max(), max = std::numeric_limits<int>::lowest(), max_abs = 0;
};

Expected plain_loop(Range2 r) {
  Expected e;
  for (int j = r.j0; j < r.j1; ++j)
    for (int i = r.i0; i < r.i1; ++i) {
      const int v = pattern(i, j);
      e.sum += v;
      e.sum_sq += int64_t(v) * v;
      e.count_pos += v > 10 ? 1 : 0;
      e.min = std::min(e.min, v);
      e.max = std::max(e.max, v);
      e.max_abs = std::max(e.max_abs, std::abs(v));
    }
  return e;
}

template <class Exec>
void check_range_reductions(const Exec& ex, Range2 r) {
  const Expected e = plain_loop(r);
  auto val = [] PDEX_HD(int i, int j) { return double(pattern(i, j)); };
  EXPECT_EQ(reduce<double>(ex, r, val, Sum<double>{}), double(e.sum));
  EXPECT_EQ(reduce<int64_t>(ex, r, [] PDEX_HD(int i, int j) { return int64_t(pattern(i, j)); }, Sum<int64_t>{}),
            e.sum);
  EXPECT_EQ(reduce<double>(ex, r, val, Min<double>{}), double(e.min));
  EXPECT_EQ(reduce<double>(ex, r, val, Max<double>{}), double(e.max));
  EXPECT_EQ(reduce<int>(ex, r, [] PDEX_HD(int i, int j) { return pattern(i, j); }, Min<int>{}), e.min);
  EXPECT_EQ(reduce<float>(ex, r, [] PDEX_HD(int i, int j) { return float(pattern(i, j)); }, Max<float>{}),
            float(e.max));
  const double sum_sq = reduce<double>(
      ex, r, [] PDEX_HD(int i, int j) { return double(pattern(i, j)) * double(pattern(i, j)); }, Sum<double>{});
  EXPECT_EQ(std::sqrt(sum_sq), std::sqrt(double(e.sum_sq)));  // L2 norm
  EXPECT_EQ(reduce<double>(ex, r, [] PDEX_HD(int i, int j) { return pattern(i, j) < 0 ? -double(pattern(i, j)) : double(pattern(i, j)); },
                           Max<double>{}),
            double(e.max_abs));  // L-infinity norm
  EXPECT_EQ(reduce<int64_t>(ex, r, [] PDEX_HD(int i, int j) { return int64_t(pattern(i, j) > 10 ? 1 : 0); },
                            Sum<int64_t>{}),
            e.count_pos);  // count-if
}

// A field whose ghosts hold a huge value: reductions must read the interior only.
template <class Exec, class T>
void check_field_reductions(const Exec& ex) {
  const Grid2 g{1000, 999};
  Field<T> host(g, 2, 1, MemorySpace::host);
  for (T& x : host.buffer().host_span()) x = T(1e6);
  auto hv = host.view();
  for (int j = 0; j < g.ny; ++j)
    for (int i = 0; i < g.nx; ++i) {
      hv(0, i, j) = T(0);
      hv(1, i, j) = T(pattern(i, j));
    }
  const Field<T> dev = to_space(host, Exec::space);
  finish(ex);
  const Expected e = plain_loop(hv.interior());
  auto v = dev.cview();
  EXPECT_EQ(field_sum(ex, v, 1), double(e.sum));
  EXPECT_EQ(field_min(ex, v, 1), T(e.min));
  EXPECT_EQ(field_max(ex, v, 1), T(e.max));
  EXPECT_EQ(field_l2(ex, v, 1), std::sqrt(double(e.sum_sq)));
  EXPECT_EQ(field_linf(ex, v, 1), T(e.max_abs));
  EXPECT_EQ(field_count_if(ex, v, 1, [] PDEX_HD(T x) { return x > T(10); }), e.count_pos);
  // Component 0 is all zero in the interior, 1e6 in the ghosts.
  EXPECT_EQ(field_max(ex, v, 0), T(0));
  EXPECT_EQ(field_sum(ex, v, 0), 0.0);
}

template <class Exec>
void check_first_nonfinite(const Exec& ex) {
  const Grid2 g{37, 23};
  Field<double> host(g, 1, 1, MemorySpace::host);
  auto hv = host.view();
  hv(0, -1, 5) = std::numeric_limits<double>::quiet_NaN();  // a ghost: not reported
  {
    const Field<double> dev = to_space(host, Exec::space);
    finish(ex);
    EXPECT_EQ(first_nonfinite(ex, dev.cview(), 0), -1);
  }
  hv(0, 30, 20) = std::numeric_limits<double>::infinity();
  hv(0, 4, 11) = std::numeric_limits<double>::quiet_NaN();
  hv(0, 9, 11) = -std::numeric_limits<double>::infinity();
  const Field<double> dev = to_space(host, Exec::space);
  finish(ex);
  EXPECT_EQ(first_nonfinite(ex, dev.cview(), 0), 11 * 37 + 4);
}

// max_of_cells (for values >= 0): exact on every executor, its state cleared between calls (a smaller
// maximum after a larger one), NaN counted as +infinity, 0 on an empty range.
template <class Exec>
void check_max_of_cells(const Exec& ex) {
  for (const Range2 r : {Range2{0, 1000, 0, 999}, Range2{3, 130, 5, 9}, Range2{0, 1, 0, 1}}) {
    const Expected e = plain_loop(r);
    auto abs_f = [] PDEX_HD(int i, int j) { return float(pattern(i, j) < 0 ? -pattern(i, j) : pattern(i, j)); };
    EXPECT_EQ(max_of_cells<float>(ex, r, abs_f), float(e.max_abs));
    auto pos = [] PDEX_HD(int i, int j) { return pattern(i, j) > 0 ? double(pattern(i, j)) : 0.0; };
    EXPECT_EQ(max_of_cells<double>(ex, r, pos), double(std::max(e.max, 0)));
  }
  EXPECT_EQ(max_of_cells<double>(ex, Range2{0, 50, 0, 40}, [] PDEX_HD(int, int) { return 0.25; }), 0.25);
  const Range2 big{0, 300, 0, 200};
  auto with_nan = [] PDEX_HD(int i, int j) { return i == 201 && j == 17 ? std::numeric_limits<double>::quiet_NaN() : 1.0; };
  EXPECT_EQ(max_of_cells<double>(ex, big, with_nan), std::numeric_limits<double>::infinity());
  EXPECT_EQ(max_of_cells<double>(ex, Range2{4, 4, 0, 10}, [] PDEX_HD(int, int) { return 1.0; }), 0.0);
}

template <class Exec>
void check_empty_ranges(const Exec& ex) {
  const Range2 empties[] = {{5, 5, 0, 10}, {0, 10, 7, 7}, {10, 0, 0, 10}, {0, 0, 0, 0}};
  auto one = [] PDEX_HD(int, int) { return 1.0; };
  for (const Range2& r : empties) {
    EXPECT_EQ(reduce<double>(ex, r, one, Sum<double>{}), 0.0);
    EXPECT_EQ(reduce<double>(ex, r, one, Min<double>{}), std::numeric_limits<double>::max());
    EXPECT_EQ(reduce<double>(ex, r, one, Max<double>{}), std::numeric_limits<double>::lowest());
    EXPECT_EQ(reduce<int64_t>(ex, r, [] PDEX_HD(int, int) { return int64_t(1); }, Sum<int64_t>{}), 0);
  }
}

// Passes queued back to back see every store of the pass before (on CUDA each kernel is placed while
// the one before drains and waits on the device for it: core/cuda/launch.cuh). Each pass reads the
// mirror image of its cell, written by the other end of the pass before, and adds one; a reduction or
// a maximum every few passes reads the count back. A stale read leaves a cell behind.
template <class Exec>
void check_back_to_back_passes(const Exec& ex) {
  const Grid2 g{1024, 1024};
  Field<float> a(g, 1, 0, Exec::space), b = a.like(Exec::space);
  finish(ex);  // the zero fills
  const int nx = g.nx, ny = g.ny;
  for (int pass = 1; pass <= 96; ++pass) {
    Field<float>& to = pass % 2 ? b : a;
    const FieldView<const float> in = (pass % 2 ? a : b).cview();
    const FieldView<float> out = to.view();
    for_each_cell(ex, out.interior(), [=] PDEX_HD(int i, int j) { out(0, i, j) = in(0, nx - 1 - i, ny - 1 - j) + 1; });
    if (pass % 8 == 4) {
      ASSERT_EQ(field_min(ex, to.cview(), 0), float(pass)) << "after pass " << pass;
    }
    if (pass % 8 == 0) {
      const FieldView<const float> v = to.cview();
      auto count = [=] PDEX_HD(int i, int j) { return v(0, i, j); };
      ASSERT_EQ(max_of_cells<float>(ex, v.interior(), count), float(pass)) << "after pass " << pass;
    }
  }
  EXPECT_EQ(field_min(ex, a.cview(), 0), 96.0f);
  EXPECT_EQ(field_max(ex, a.cview(), 0), 96.0f);
}

template <class E>
class ReductionTest : public ExecutorTest<E> {};
TYPED_TEST_SUITE(ReductionTest, Executors, ExecutorNames);

TYPED_TEST(ReductionTest, IntegerValuedSumMinMaxNormsAndCountAreExact) {
  check_range_reductions(make_executor<TypeParam>(), Range2{0, 1000, 0, 999});
}

TYPED_TEST(ReductionTest, IntegerValuedReductionsAreExactOnAnOffsetRange) {
  check_range_reductions(make_executor<TypeParam>(), Range2{17, 1017, 5, 1004});
  check_range_reductions(make_executor<TypeParam>(), Range2{3, 4, 2, 3});  // a single cell
  check_range_reductions(make_executor<TypeParam>(), Range2{0, 1, 0, 5000});  // one column
  // More cells than the GPU reduction has threads, on an odd width: threads walk rows with a carry.
  check_range_reductions(make_executor<TypeParam>(), Range2{3, 1236, 1, 1000});
}

TYPED_TEST(ReductionTest, FieldReductionsReadTheInteriorOnlyAndAreExactInF64) {
  check_field_reductions<TypeParam, double>(make_executor<TypeParam>());
}

TYPED_TEST(ReductionTest, FieldReductionsReadTheInteriorOnlyAndAreExactInF32) {
  check_field_reductions<TypeParam, float>(make_executor<TypeParam>());
}

TYPED_TEST(ReductionTest, FirstNonfiniteFindsTheEarliestNanOrInfInRowMajorOrder) {
  check_first_nonfinite(make_executor<TypeParam>());
}

TYPED_TEST(ReductionTest, MaxOfCellsIsExactClearsBetweenCallsAndCountsNanAsInfinity) {
  check_max_of_cells(make_executor<TypeParam>());
}

TYPED_TEST(ReductionTest, EmptyRangeReturnsTheIdentity) { check_empty_ranges(make_executor<TypeParam>()); }

TYPED_TEST(ReductionTest, PassesQueuedBackToBackSeeEveryStoreOfThePassBefore) {
  check_back_to_back_passes(make_executor<TypeParam>());
}

// Random doubles spread over 16 decades make a sum depend on the order of its additions.
std::vector<double> random_doubles(std::size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> decade(-8, 8);
  std::vector<double> out(n);
  for (double& x : out) x = mantissa(rng) * std::pow(10.0, decade(rng));
  return out;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

class ThreadCount {
 public:
  explicit ThreadCount(int n) : saved_(omp_get_max_threads()) { omp_set_num_threads(n); }
  ~ThreadCount() { omp_set_num_threads(saved_); }

 private:
  int saved_;
};

// A range taller than one launch's rows of blocks (300,000 rows: a 3D grid's stacked planes) is covered
// whole, every cell once.
template <class Exec>
void check_tall_range(const Exec& ex) {
  const Range2 r{0, 3, 0, 300000};
  Buffer<int> hits(std::size_t(r.size()), Exec::space);
  int* h = hits.data();
  for_each_cell(ex, r, [=] PDEX_HD(int i, int j) { h[int64_t(j) * 3 + i] += 1 + (i == 2 && j == 299999 ? 1 : 0); });
  finish(ex);
  Buffer<int> back(hits.size(), MemorySpace::host);
  copy(back, hits);
  for (int64_t k = 0; k < r.size(); ++k) ASSERT_EQ(back.data()[k], k == r.size() - 1 ? 2 : 1) << "cell " << k;
}

TYPED_TEST(ReductionTest, ForEachCellCoversRangesTallerThanOneLaunch) { check_tall_range(make_executor<TypeParam>()); }

TEST(HostReduction, SerialAndOpenMPSumsOfRandomDoublesAgreeBitForBit) {
  const Range2 r{0, 1000, 0, 777};
  const std::vector<double> data = random_doubles(std::size_t(r.size()), 2024);
  const double* p = data.data();
  auto f = [p](int i, int j) { return p[std::size_t(j) * 1000 + i]; };
  const double serial = reduce<double>(Serial{}, r, f, Sum<double>{});
  // The data must be able to tell orders apart, or the comparison below proves nothing.
  double flat = 0;
  for (double x : data) flat += x;
  ASSERT_FALSE(same_bits(flat, serial)) << "the data do not distinguish summation orders; pick another seed";
  for (int threads : {1, 2, 3, 5, 8}) {
    ThreadCount tc(threads);
    EXPECT_TRUE(same_bits(reduce<double>(OpenMP{}, r, f, Sum<double>{}), serial)) << threads << " threads";
    EXPECT_TRUE(same_bits(reduce<double>(OpenMP{}, r, f, Max<double>{}), reduce<double>(Serial{}, r, f, Max<double>{})));
  }
}

// Guards the build: a translation unit that nvcc compiles gets OpenMP only if the host compiler is
// told to (-Xcompiler=-fopenmp); without it the OpenMP executor silently runs on one thread.
TEST(HostReduction, OpenMPExecutorRunsOnTheRequestedThreads) {
  ThreadCount tc(3);
  std::vector<int> owner(64, -1);
  int* o = owner.data();
  for_each_cell(OpenMP{}, Range2{0, 1, 0, 64}, [o](int, int j) { o[j] = omp_get_thread_num(); });
  EXPECT_EQ(owner.front(), 0);
  EXPECT_EQ(owner.back(), 2);
}

}  // namespace
}  // namespace pdex::test
