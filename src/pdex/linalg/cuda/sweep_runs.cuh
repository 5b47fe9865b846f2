#pragma once
// rb_sweeps on CUDA (relaxation.hpp): a run of in-place Gauss-Seidel / SOR sweeps in one cooperative
// launch, on grids whose colours fit the GPU's resident threads, a cell a thread. The threads relax
// their cells of a colour (rb_sweep's colours: red and black, or a tensor's four), meet at a grid
// barrier, and go on with the next colour; the last sweep's largest change, where asked for, is folded
// into one word and handed to the host at the end. rb_sweep takes a launch a colour, and where it
// measures, a host wait a colour. Multigrid smooths levels below sweeps_into's size in place with it,
// inside its CUDA graph (a cooperative kernel node).
// Colours of up to one_block_cells go in one block with block barriers. Larger grids take rb_sweep's launches: a grid barrier costs about what the gap between two launches
// does, and threads relaxing several cells of a colour made a run slower (on an H200, multigrid's
// Poisson solve at 1024^2 f32 5% slower with its 1024^2 level's runs in one launch; docs/performance.md).
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "pdex/core/cuda/cuda_context.hpp"
#include "pdex/core/cuda/launch.cuh"
#include "pdex/core/cuda/parallel_cuda.cuh"
#include "pdex/linalg/helmholtz.hpp"
#include "pdex/linalg/relaxation.hpp"

namespace pdex {
namespace sweep_run_detail {

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
// (four_color_sweep). Cells past the grid's last column or row fall outside (i >= nx or j >= ny).
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
// level (Multigrid::coarse_cells), whose many sweeps would otherwise be that many grid barriers. (Up to
// four cells a thread, a 32^2 level of the Table 1 pair's four sweeps took longer in one block than in
// four with grid barriers: seed 000's Crank-Nicolson run at 256^2 0.031 -> 0.036 s, on an H200.)
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

}  // namespace pdex
