#pragma once
// for_each_cell and reduce on the CUDA executor. Only translation units compiled by nvcc include this.
#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "pdex/core/cuda/cuda_check.hpp"
#include "pdex/core/cuda/cuda_context.hpp"
#include "pdex/core/cuda/launch.cuh"
#include "pdex/core/executor.hpp"
#include "pdex/core/launch_hint.hpp"
#include "pdex/core/range.hpp"

namespace pdex {
namespace cuda_detail {

#ifndef PDEX_CUDA_BX
#define PDEX_CUDA_BX 128
#endif
#ifndef PDEX_CUDA_BY
#define PDEX_CUDA_BY 2
#endif
#ifndef PDEX_CUDA_ROWS
#define PDEX_CUDA_ROWS 2
#endif
// A warp spans consecutive cells of a row (coalesced); the rows of a block share their stencil
// neighbours in L1; each thread takes `rows` cells down a column for more loads in flight.
constexpr int block_x = PDEX_CUDA_BX;
constexpr int block_y = PDEX_CUDA_BY;
constexpr int rows = PDEX_CUDA_ROWS;
constexpr int reduce_threads = 256;

// Functors that take two cells of a column at once, f.pair(i, j) for (i, j) and (i, j + 1): those of
// Runge-Kutta stages over cells that share work between the two (rk_kernels.hpp).
template <class F>
concept TakesPairs = requires(F& f) { f.pair(0, 0); };

// f(i, j) for the cells of r this thread takes in for_each_cell's schedule: `rows` cells a block-row
// apart, or for functors that take pairs, the `rows` (two) cells above each other.
template <class F>
__device__ void for_thread_cells(Range2 r, F&& f) {
  const int i = r.i0 + int(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= r.i1) return;
  if constexpr (TakesPairs<F>) {
    static_assert(rows == 2, "a thread takes one pair of cells");
    const int j = r.j0 + rows * int(blockIdx.y * blockDim.y + threadIdx.y);
    if (j + 1 < r.j1) f.pair(i, j);
    else if (j < r.j1) f(i, j);
  } else {
    const int j0 = r.j0 + int(blockIdx.y * blockDim.y * rows + threadIdx.y);
#pragma unroll
    for (int k = 0; k < rows; ++k) {
      const int j = j0 + k * int(blockDim.y);
      if (j < r.j1) f(i, j);
    }
  }
}

template <class F>
__global__ void for_each_kernel(Range2 r, F f) {
  begin_dependent_grid();
  for_thread_cells(r, f);
}

// Blocks a multiprocessor holds at full occupancy (launch_hint.hpp).
constexpr int full_occupancy_blocks = 2048 / (block_x * block_y);

template <class F>
__global__ void __launch_bounds__(block_x * block_y, full_occupancy_blocks) for_each_kernel_full(Range2 r, F f) {
  begin_dependent_grid();
  for_thread_cells(r, f);
}

// The kernel of for_each_cell for F.
template <class F>
constexpr auto for_each_kernel_for() {
  if constexpr (cuda_full_occupancy_of<F>()) return &for_each_kernel_full<F>;
  else return &for_each_kernel<F>;
}

// __shfl_down_sync for arithmetic types, word by word for small structs (several sums in one pass).
template <class V>
__device__ V shuffle_down(V v, int off) {
  if constexpr (std::is_arithmetic_v<V>) {
    return __shfl_down_sync(0xffffffffu, v, off);
  } else {
    static_assert(sizeof(V) % sizeof(int) == 0);
    V out;
    const int* in = reinterpret_cast<const int*>(&v);
    int* to = reinterpret_cast<int*>(&out);
    for (int k = 0; k < int(sizeof(V) / sizeof(int)); ++k) to[k] = __shfl_down_sync(0xffffffffu, in[k], off);
    return out;
  }
}

// The values of a block of `Threads` threads combined by op, in thread 0 (warp 0 holds partial values).
// Ends with a barrier, so that a second call, which writes the same shared words, waits for warp 0's
// reads of the first (a pair of tested sweeps folds two maxima back to back; without the barrier
// compute-sanitizer's racecheck found the second call's writes racing the first call's reads).
template <class V, class Op, int Threads = reduce_threads>
__device__ V block_reduce(V v, Op op) {
  static_assert(Threads % 32 == 0 && Threads <= 1024);
  __shared__ alignas(16) unsigned char raw[Threads / 32 * sizeof(V)];
  V* warp_vals = reinterpret_cast<V*>(raw);
  for (int off = 16; off > 0; off /= 2) v = op(v, shuffle_down(v, off));
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) warp_vals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < Threads / 32 ? warp_vals[lane] : Op::identity();
    for (int off = 16; off > 0; off /= 2) v = op(v, shuffle_down(v, off));
  }
  __syncthreads();
  return v;
}

// A value written by another block, read from L2 (word by word for small structs).
template <class V>
__device__ V load_l2(const V* p) {
  if constexpr (std::is_arithmetic_v<V>) {
    return __ldcg(p);
  } else {
    V out;
    const int* in = reinterpret_cast<const int*>(p);
    int* to = reinterpret_cast<int*>(&out);
    for (int k = 0; k < int(sizeof(V) / sizeof(int)); ++k) to[k] = __ldcg(in + k);
    return out;
  }
}

// The end of a one-launch reduction. finished(): thread 0 of a block, its share written, counts the
// block done; true in the last block to finish. hand_to_host(): that block stores the result, then
// the ticket, in mapped pinned host memory, where the host polls (no copy command, no stream
// synchronization), and resets the count for the next reduction on the stream.
__device__ inline bool finished(unsigned* done) {
  __threadfence();  // the block's share is visible before the count says so
  return atomicAdd(done, 1u) == gridDim.x * gridDim.y - 1;
}
template <class V>
__device__ void hand_to_host(V value, V* result, unsigned* done, volatile unsigned* flag, unsigned ticket) {
  *result = value;
  *done = 0;
  __threadfence_system();  // the result reaches the host before the flag does
  *flag = ticket;
}

// One pass: each block reduces a fixed, strided share of the range into partials[blockIdx.x]; the
// last block to finish (counted in *done) combines the partials in a fixed order, so the result does
// not depend on timing, and writes it to `result` and then `ticket` to `flag`, both in mapped pinned host
// memory, where the host waits for them (no copy command, no stream synchronization).
template <class V, class F, class Op>
__global__ void reduce_kernel(Range2 r, F f, Op op, V* partials, unsigned* done, V* result, volatile unsigned* flag,
                              unsigned ticket) {
  begin_dependent_grid();
  const int64_t w = r.width(), threads = int64_t(gridDim.x) * blockDim.x;
  const int64_t first = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  // Walk the range by (column, row) steps instead of dividing a flat index for every cell, a batch of
  // cells at a time: their loads are all in flight before the first is combined.
  const int64_t di = threads % w, dj = threads / w, h = r.height();
  int64_t i = first % w, j = first / w;
  constexpr int batch = 4;
  V acc = Op::identity();
  while (j < h) {
    V vals[batch];
#pragma unroll
    for (int m = 0; m < batch; ++m) {
      vals[m] = j < h ? V(f(r.i0 + int(i), r.j0 + int(j))) : Op::identity();
      i += di, j += dj;
      if (i >= w) i -= w, ++j;
    }
#pragma unroll
    for (int m = 0; m < batch; ++m) acc = op(acc, vals[m]);
  }
  acc = block_reduce<V>(acc, op);
  __shared__ bool last;
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = acc;
    last = finished(done);
  }
  __syncthreads();
  if (!last) return;
  __threadfence();
  // All of a thread's partials are loaded before any is combined: one wait on L2, not one per partial.
  // __ldcg reads L2, where the other blocks' partials are (never this SM's L1).
  constexpr int per_thread = CudaContext::max_reduce_blocks / reduce_threads;
  V part[per_thread];
#pragma unroll
  for (int m = 0; m < per_thread; ++m) {
    const int k = int(threadIdx.x) + m * reduce_threads;
    part[m] = k < int(gridDim.x) ? load_l2(partials + k) : Op::identity();
  }
  acc = Op::identity();
#pragma unroll
  for (int m = 0; m < per_thread; ++m) acc = op(acc, part[m]);
  acc = block_reduce<V>(acc, op);
  if (threadIdx.x == 0) hand_to_host(acc, result, done, flag, ticket);
}

// The larger of a running maximum m >= 0 and v >= 0, NaN counting as +infinity (fmax would drop it).
__device__ inline double max_or_infinity(double m, double v) {
  return v == v ? (v > m ? v : m) : __longlong_as_double(0x7ff0000000000000ll);
}

// The end of a one-launch maximum over a grid of blocks of `Threads` threads (all of them call it): each
// block's largest m is folded into *word by atomicMax on the bits of its double, which orders as the
// values do (exact and independent of the order of the blocks, so the result is deterministic). The
// last block to finish hands the result to the host, as reduce_kernel's does, and clears the word.
template <int Threads>
__device__ void fold_block_max(double m, unsigned long long* word, unsigned* done, double* result,
                               volatile unsigned* flag, unsigned ticket) {
  for (int off = 16; off > 0; off /= 2) m = fmax(m, __shfl_xor_sync(0xffffffffu, m, off));
  __shared__ double warp_max[Threads / 32];
  const int t = int(threadIdx.y * blockDim.x + threadIdx.x);
  if (t % 32 == 0) warp_max[t / 32] = m;
  __syncthreads();
  if (t != 0) return;
  for (int w = 1; w < Threads / 32; ++w) m = fmax(m, warp_max[w]);
  if (m > 0) atomicMax(word, static_cast<unsigned long long>(__double_as_longlong(m)));
  if (!finished(done)) return;
  __threadfence();
  hand_to_host(__longlong_as_double(static_cast<long long>(atomicExch(word, 0ull))), result, done, flag, ticket);
}

// The largest value of a functor over the cells a thread visits (pairs too, where F takes them).
template <class F>
struct RunningMax {
  const F& f;
  double m = 0;
  __device__ void operator()(int i, int j) { m = max_or_infinity(m, double(f(i, j))); }
  __device__ void pair(int i, int j)
    requires TakesPairs<const F>
  {
    m = max_or_infinity(m, double(f.pair(i, j)));
  }
};

// for_each_kernel's schedule for a functor returning a value >= 0 (NaN counts as +infinity), its
// largest value handed to the host by fold_block_max.
template <class F>
__device__ void max_of_thread_cells(Range2 r, const F& f, unsigned long long* word, unsigned* done, double* result,
                                    volatile unsigned* flag, unsigned ticket) {
  RunningMax<F> acc{f};  // every lane goes on to the shuffles
  for_thread_cells(r, acc);
  fold_block_max<block_x * block_y>(acc.m, word, done, result, flag, ticket);
}

template <class F>
__global__ void max_kernel(Range2 r, F f, unsigned long long* word, unsigned* done, double* result,
                           volatile unsigned* flag, unsigned ticket) {
  begin_dependent_grid();
  max_of_thread_cells(r, f, word, done, result, flag, ticket);
}

template <class F>
__global__ void __launch_bounds__(block_x * block_y, full_occupancy_blocks)
    max_kernel_full(Range2 r, F f, unsigned long long* word, unsigned* done, double* result, volatile unsigned* flag,
                    unsigned ticket) {
  begin_dependent_grid();
  max_of_thread_cells(r, f, word, done, result, flag, ticket);
}

template <class F>
constexpr auto max_kernel_for() {
  if constexpr (cuda_full_occupancy_of<F>()) return &max_kernel_full<F>;
  else return &max_kernel<F>;
}

inline dim3 grid_for(Range2 r) {
  return dim3(unsigned((r.width() + block_x - 1) / block_x),
              unsigned((r.height() + block_y * rows - 1) / (block_y * rows)));
}

}  // namespace cuda_detail

// Ranges taller than a launch's rows of blocks can cover (gridDim.y <= 65535: a 3D grid's stacked planes,
// 512^3 and beyond) run as one launch per part.
template <class F>
void for_each_cell(const Cuda& ex, Range2 r, F f) {
  if (r.empty()) return;
  constexpr auto kernel = cuda_detail::for_each_kernel_for<F>();
  const dim3 block(cuda_detail::block_x, cuda_detail::block_y);
  constexpr int max_rows = 65535 * cuda_detail::block_y * cuda_detail::rows;
  for (int j0 = r.j0; j0 < r.j1; j0 += max_rows) {
    const Range2 part{r.i0, r.i1, j0, r.j1 - j0 > max_rows ? j0 + max_rows : r.j1};
    launch(*ex.context, "for_each_cell", kernel, cuda_detail::grid_for(part), block, 0, part, f);
  }
}

// One launch for the whole range: on the GPU the edge test is nearly free, and launches are not.
template <class Inner, class Edge>
void for_each_cell_split(const Cuda& ex, Range2 r, int, Inner, Edge edge) {
  for_each_cell(ex, r, edge);
}

// Deterministic one-launch reduction; returns the value on the host (waits for the reduction, and so
// for everything queued before it).
template <class V, class F, class Op>
V reduce(const Cuda& ex, Range2 r, F f, Op op) {
  static_assert(sizeof(V) <= CudaContext::max_reduce_value_bytes);
  static_assert(std::is_trivially_copyable_v<V>);
  if (r.empty()) return Op::identity();
  using namespace cuda_detail;
  const CudaContext& ctx = *ex.context;
  const int64_t wanted = (r.size() + reduce_threads - 1) / reduce_threads;
  const int blocks = int(wanted < CudaContext::max_reduce_blocks ? wanted : CudaContext::max_reduce_blocks);
  V* result = static_cast<V*>(ctx.pinned_result());
  const unsigned ticket = ctx.next_ticket();
  launch(ctx, "reduce", reduce_kernel<V, F, Op>, dim3(blocks), dim3(reduce_threads), 0, r, f, op,
         static_cast<V*>(ctx.reduce_scratch()), ctx.reduce_count(), result, ctx.pinned_flag(), ticket);
  ctx.wait_for(ticket);
  return *result;
}

// The largest value of f over r for functors returning values >= 0 (NaN counts as +infinity), in one
// launch with for_each_cell's schedule: for heavy functors (a Runge-Kutta stage with its error
// estimate) it runs as fast as their for_each_cell, where reduce()'s fewer, longer-lived threads do not.
template <class T, class F>
T max_of_cells(const Cuda& ex, Range2 r, F f) {
  if (r.empty()) return T(0);
  using namespace cuda_detail;
  const CudaContext& ctx = *ex.context;
  double* result = static_cast<double*>(ctx.pinned_result());
  const unsigned ticket = ctx.next_ticket();
  constexpr auto kernel = max_kernel_for<F>();
  // Qualified: block_order.cuh's pdex::block_x would make the unqualified name ambiguous.
  launch(ctx, "max_of_cells", kernel, grid_for(r), dim3(cuda_detail::block_x, cuda_detail::block_y), 0, r, f,
         ctx.max_word(), ctx.reduce_count(), result, ctx.pinned_flag(), ticket);
  ctx.wait_for(ticket);
  return T(*result);
}

}  // namespace pdex
