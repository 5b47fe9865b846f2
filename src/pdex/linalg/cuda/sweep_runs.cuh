#pragma once
// rb_sweeps on CUDA (relaxation.hpp): a run of in-place Gauss-Seidel / SOR sweeps in one cooperative
// launch, on grids whose colours fit the GPU's resident threads, a cell a thread. The threads relax
// their cells of a colour (rb_sweep's colours: red and black, or a tensor's four), meet at a grid
// barrier, and go on with the next colour; the last sweep's largest change, where asked for, is folded
// into one word and handed to the host at the end. rb_sweep takes a launch a colour, and where it
// measures, a host wait a colour. Multigrid smooths levels below sweeps_into's size in place with it,
// inside its CUDA graph (a cooperative kernel node). A relaxation solve that the queued sweeps do not
// take (a tensor's, DeviceRelaxation::one_launch) makes its sweeps and tests in one such launch
// (relax_in_one_launch).
// Colours of up to one_block_cells go in one block with block barriers. Larger grids take rb_sweep's
// launches: a grid barrier costs about what the gap between two launches does, and threads relaxing
// several cells of a colour would make a run slower.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "pdex/core/cuda/cuda_context.hpp"
#include "pdex/core/cuda/launch.cuh"
#include "pdex/core/cuda/parallel_cuda.cuh"
#include "pdex/linalg/cuda/tile_sweep.cuh"
#include "pdex/linalg/helmholtz.hpp"
#include "pdex/linalg/cuda/sweeps_cuda.hpp"

namespace pdex {
namespace sweep_run_detail {
using tile_sweep_detail::add_into_row, tile_sweep_detail::fold_into_row, tile_sweep_detail::LargestChange;


// 128: a colour of a 256^2 tensor grid is then 128 blocks, one a multiprocessor (latency, not
// bandwidth, bounds small grids' colours).
constexpr int threads = 128;

template <class Op, class T>
struct SweepRun {
  Op op;  // refreshed
  FieldView<T> x;
  FieldView<const T> b;
  FieldBoundary bc;
  T omega;
  bool reverse;
  int sweeps;
};

// The colours of rb_sweep for Op, and the cell (i, j) of colour `color`'s q-th cell: red-black's
// (i + j) % 2 over rows of (nx + 1) / 2 cells (color_sweep), or i % 2 + 2 (j % 2) over a quarter grid
// (tensor_sweep). Cells past the grid's last column or row fall outside (i >= nx or j >= ny).
template <class Op>
struct Colors {
  static constexpr int count = Op::tensor() ? 4 : 2;
  int nx, ny;
  __host__ __device__ int64_t cells() const { return int64_t((nx + 1) / 2) * (Op::tensor() ? (ny + 1) / 2 : ny); }
  __device__ void cell(int color, int64_t q, int& i, int& j) const {
    const int half = (nx + 1) / 2;
    if constexpr (Op::tensor()) {
      i = 2 * int(q % half) + (color & 1);
      j = 2 * int(q / half) + (color >> 1);
    } else {
      j = int(q / half);
      i = 2 * int(q % half) + ((j + color) & 1);
    }
  }
};

// `word` and the rest: max_of_cells's hand-over of the largest change (nullptr: not measured). OneBlock:
// colours of at most `threads` cells in one block (a plain launch), the colours divided by block
// barriers, which cost nanoseconds where a grid barrier costs about a microsecond: multigrid's coarsest
// level (Multigrid::coarse_cells), whose many sweeps would otherwise be that many grid barriers. (With
// several cells a thread, one block is slower than a few with grid barriers, hence the limit.)
template <class Op, class T, bool OneBlock>
__global__ void __launch_bounds__(threads) sweep_run_kernel(SweepRun<Op, T> run, unsigned long long* word,
                                                            unsigned* done, double* result, volatile unsigned* flag,
                                                            unsigned ticket) {
  if constexpr (OneBlock) begin_dependent_grid();
  const FieldView<T> x = run.x;
  const Colors<Op> colors{x.nx, x.ny};
  const int64_t cells = colors.cells(), q = int64_t(blockIdx.x) * threads + threadIdx.x;
  constexpr int count = Colors<Op>::count;
  double largest = 0;
  for (int s = 0; s < run.sweeps; ++s) {
    const bool measured = word && s == run.sweeps - 1;
    for (int k = 0; k < count; ++k) {
      const int color = run.reverse ? count - 1 - k : k;
      int i = x.nx, j = x.ny;
      if (q < cells) colors.cell(color, q, i, j);
      if (i < x.nx && j < x.ny) {
        const T change = detail::relax_point(run.op, as_const(x), run.b, x, run.bc, run.omega, i, j);
        if (measured) largest = cuda_detail::max_or_infinity(largest, double(change));
      }
      if (s == run.sweeps - 1 && k == count - 1) break;
      if constexpr (OneBlock) __syncthreads();  // the next colour reads this one's values
      else cooperative_groups::this_grid().sync();
    }
  }
  if (word) cuda_detail::fold_block_max<threads>(largest, word, done, result, flag, ticket);
}

// The cells of a colour that one block's run takes: a cell a thread.
constexpr int64_t one_block_cells = threads;

// The sum of a row's words, read after a grid barrier: the same in every block, and on the host (SweepLog).
__device__ inline double sum_of_words(const double* words) {
  double s = 0;
  for (int w = 0; w < SweepLog::sum_words; ++w) s += __ldcg(words + w);
  return s;
}
__device__ inline double max_of_words(const unsigned long long* words) {
  unsigned long long m = 0;
  for (int w = 0; w < SweepLog::words; ++w) {
    const unsigned long long v = __ldcg(words + w);
    m = v > m ? v : m;
  }
  return __longlong_as_double(static_cast<long long>(m));
}

// A relaxation solve's sweeps and tests in one cooperative launch (relax_in_one_launch): the sweeps of
// `run` up to each test of `plan`, then the test, decided alike by every block from the sums in the log.
// A thread takes cells of a colour, as many as the launch's threads leave it, with all their components,
// or where `split`, (cell, component) pairs, the components relaxing independently: a small grid's colour
// is then twice the blocks, whose point updates are chains of dependent loads (split only where the
// colour unsplit fills fewer than two blocks a multiprocessor; with more, splitting is slower). Each
// test's largest change (of its last sweep) goes into its row, folded before that sweep's last grid
// barrier; the change test, where asked (below finite), passes under `below`, and only then the
// residual test, where asked (tol2 > 0), sums |b - A x|^2 over the grid in rows into the row and passes
// at or under tol2 |b|^2 (|b|^2 summed at the start into log->b2; 1 where b = 0, as LinearSolver's).
// Block 0 records the test that passed in log->stop, and every block stops there.
template <class Op, class T>
__global__ void __launch_bounds__(threads) relax_run_kernel(SweepRun<Op, T> run, bool split, QueuePlan plan,
                                                            double below, double tol2, SweepLog* log) {
  const FieldView<T> x = run.x;
  const Colors<Op> colors{x.nx, x.ny};
  const int64_t cells = colors.cells(), items = split ? cells * x.ncomp : cells;
  const int64_t first = int64_t(blockIdx.x) * threads + threadIdx.x, stride = int64_t(gridDim.x) * threads;
  auto each_item = [&](int color, auto f) {  // the thread's cells (or pairs) of `color`
    for (int64_t q = first; q < items; q += stride) {
      int i, j;
      colors.cell(color, q % cells, i, j);
      if (i >= x.nx || j >= x.ny) continue;
      if (split) f(int(q / cells), i, j);
      else
        for (int c = 0; c < x.ncomp; ++c) f(c, i, j);
    }
  };
  auto each_cell = [&](auto f) {  // the grid by rows, for the sums
    for (int64_t q = first; q < int64_t(x.nx) * x.ny; q += stride) f(int(q % x.nx), int(q / x.nx));
  };
  constexpr int count = Colors<Op>::count;
  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  if (tol2 > 0) {
    double b2 = 0;
    each_cell([&](int i, int j) {
      for (int c = 0; c < x.ncomp; ++c) b2 += double(run.b(c, i, j)) * double(run.b(c, i, j));
    });
    add_into_row<threads>(b2, log->b2);
  }
  for (int sweeps = 0, test = 0; plan.more(sweeps, test); ++test) {
    const int n = plan.to_test(sweeps);
    SweepLog::Row& row = log->rows[test];
    LargestChange<T> largest;
    for (int s = 0; s < n; ++s)
      for (int k = 0; k < count; ++k) {
        each_item(run.reverse ? count - 1 - k : k, [&](int c, int i, int j) {
          const T change = detail::relax_component(run.op, as_const(x), run.b, x, run.bc, run.omega, i, j, c);
          if (s == n - 1) largest.add(change);
        });
        if (s == n - 1 && k == count - 1) fold_into_row<threads>(largest, row.largest);
        grid.sync();  // the next colour, or the test, reads this one's values
      }
    sweeps += n;
    bool passed = isinf(below) || max_of_words(row.largest) < below;  // NaN, folded as +infinity, fails
    if (passed && tol2 > 0) {
      double r2 = 0;
      each_cell([&](int i, int j) { r2 += cell_residual2(run.op, as_const(x), run.b, i, j); });
      add_into_row<threads>(r2, row.residual2);
      grid.sync();
      const double b2 = sum_of_words(log->b2);
      passed = sum_of_words(row.residual2) <= tol2 * (b2 > 0 ? b2 : 1);
    }
    if (passed) {
      if (blockIdx.x == 0 && threadIdx.x == 0) log->stop = unsigned(test + 1);
      return;
    }
  }
}

}  // namespace sweep_run_detail

template <class T, bool Tensor>
T rb_sweeps(const Cuda& ex, const Helmholtz<T, Tensor>& op, FieldView<T> x, FieldView<const T> b,
            const FieldBoundary& bc, T omega, bool reverse, int sweeps, bool measure) {
  using namespace sweep_run_detail;
  using Op = Helmholtz<T, Tensor>;
  if (sweeps <= 0) return T(0);
  const CudaContext& ctx = *ex.context;
  const int64_t cells = Colors<Op>{x.nx, x.ny}.cells(), blocks = (cells + threads - 1) / threads;
  const bool one_block = cells <= one_block_cells;
  const auto kernel = one_block ? sweep_run_kernel<Op, T, true> : sweep_run_kernel<Op, T, false>;
  if (!one_block && (!ctx.cooperative_launch() ||
                     blocks > int64_t(ctx.resident_blocks(reinterpret_cast<const void*>(kernel), threads, 0)) *
                                  ctx.multiprocessors()))
    return detail::rb_sweep_each(ex, op, x, b, bc, omega, reverse, sweeps, measure);
  const SweepRun<Op, T> run{op.refreshed(), x, b, bc, omega, reverse, sweeps};
  const dim3 block(threads);
  auto start = [&](auto... hand_over) {
    if (one_block) launch(ctx, "sweep_run_kernel", kernel, dim3(1), block, 0, run, hand_over...);
    else launch_cooperative(ctx, "sweep_run_kernel", kernel, dim3(unsigned(blocks)), block, 0, run, hand_over...);
  };
  if (!measure) {
    start(nullptr, nullptr, nullptr, nullptr, 0u);
    return T(0);
  }
  double* result = static_cast<double*>(ctx.pinned_result());
  const unsigned ticket = ctx.next_ticket();
  start(ctx.max_word(), ctx.reduce_count(), result, ctx.pinned_flag(), ticket);
  ctx.wait_for(ticket);
  return T(*result);
}

template <class T, bool Tensor>
bool relax_in_one_launch(const Cuda& ex, const Helmholtz<T, Tensor>& op, FieldView<T> x, FieldView<const T> b,
                         const FieldBoundary& bc, T omega, SweepLog* log, const QueuePlan& plan, double below,
                         double tol) {
  using namespace sweep_run_detail;
  using Op = Helmholtz<T, Tensor>;
  const CudaContext& ctx = *ex.context;
  const auto kernel = relax_run_kernel<Op, T>;
  if (!ctx.cooperative_launch()) return false;
  const int64_t cells = Colors<Op>{x.nx, x.ny}.cells(), sms = ctx.multiprocessors();
  const int64_t resident = int64_t(ctx.resident_blocks(reinterpret_cast<const void*>(kernel), threads, 0)) * sms;
  const bool split = cells < 2 * sms * threads;  // fewer than two blocks a multiprocessor unsplit
  const int64_t items = split ? cells * x.ncomp : cells, blocks = std::min((items + threads - 1) / threads, resident);
  if (blocks < 1) return false;
  clear_sweep_log(ex, log, plan.tests);
  const SweepRun<Op, T> run{op.refreshed(), x, b, bc, omega, false, 0};
  launch_cooperative(ctx, "relax_run_kernel", kernel, dim3(unsigned(blocks)), dim3(threads), 0, run, split, plan,
                     below, tol * tol, log);
  return true;
}

}  // namespace pdex
