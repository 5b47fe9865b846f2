#pragma once
// for_each_cell and reduce on the CUDA executor. Only translation units compiled by nvcc include this.
#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "pdex/core/cuda/cuda_check.hpp"
#include "pdex/core/cuda/cuda_context.hpp"
#include "pdex/core/executor.hpp"
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

template <class F>
__global__ void for_each_kernel(Range2 r, F f) {
  const int i = r.i0 + int(blockIdx.x * blockDim.x + threadIdx.x);
  const int j0 = r.j0 + int(blockIdx.y * blockDim.y * rows + threadIdx.y);
  if (i >= r.i1) return;
#pragma unroll
  for (int k = 0; k < rows; ++k) {
    const int j = j0 + k * int(blockDim.y);
    if (j < r.j1) f(i, j);
  }
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

template <class V, class Op>
__device__ V block_reduce(V v, Op op) {
  __shared__ unsigned char raw[reduce_threads / 32 * sizeof(V)];
  V* warp_vals = reinterpret_cast<V*>(raw);
  for (int off = 16; off > 0; off /= 2) v = op(v, shuffle_down(v, off));
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) warp_vals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < reduce_threads / 32 ? warp_vals[lane] : Op::identity();
    for (int off = 16; off > 0; off /= 2) v = op(v, shuffle_down(v, off));
  }
  return v;
}

// Pass 1: each block reduces a fixed, strided share of the range into partials[blockIdx.x].
template <class V, class F, class Op>
__global__ void reduce_blocks_kernel(Range2 r, F f, Op op, V* partials) {
  const int64_t n = r.size(), w = r.width();
  V acc = Op::identity();
  for (int64_t k = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; k < n; k += int64_t(gridDim.x) * blockDim.x) {
    const int i = r.i0 + int(k % w), j = r.j0 + int(k / w);
    acc = op(acc, V(f(i, j)));
  }
  acc = block_reduce<V>(acc, op);
  if (threadIdx.x == 0) partials[blockIdx.x] = acc;
}

// Pass 2: one block combines the partials in a fixed order, so results do not depend on timing.
template <class V, class Op>
__global__ void reduce_partials_kernel(const V* partials, int count, Op op, V* result) {
  V acc = Op::identity();
  for (int k = threadIdx.x; k < count; k += blockDim.x) acc = op(acc, partials[k]);
  acc = block_reduce<V>(acc, op);
  if (threadIdx.x == 0) *result = acc;
}

inline dim3 grid_for(Range2 r) {
  return dim3(unsigned((r.width() + block_x - 1) / block_x),
              unsigned((r.height() + block_y * rows - 1) / (block_y * rows)));
}

}  // namespace cuda_detail

template <class F>
void for_each_cell(const Cuda& ex, Range2 r, F f) {
  if (r.empty()) return;
  cuda_detail::for_each_kernel<<<cuda_detail::grid_for(r), dim3(cuda_detail::block_x, cuda_detail::block_y), 0,
                                 ex.context->stream()>>>(r, f);
  PDEX_CUDA_CHECK_LAUNCH("for_each_cell");
}

// One launch for the whole range: on the GPU the edge test is nearly free, and launches are not.
template <class Inner, class Edge>
void for_each_cell_split(const Cuda& ex, Range2 r, int, Inner, Edge edge) {
  for_each_cell(ex, r, edge);
}

// Two-pass deterministic reduction; returns the value on the host (synchronizes the stream).
template <class V, class F, class Op>
V reduce(const Cuda& ex, Range2 r, F f, Op op) {
  static_assert(sizeof(V) <= CudaContext::max_reduce_value_bytes);
  static_assert(std::is_trivially_copyable_v<V>);
  if (r.empty()) return Op::identity();
  using namespace cuda_detail;
  const CudaContext& ctx = *ex.context;
  const int64_t wanted = (r.size() + reduce_threads - 1) / reduce_threads;
  const int blocks = int(wanted < CudaContext::max_reduce_blocks ? wanted : CudaContext::max_reduce_blocks);
  V* partials = static_cast<V*>(ctx.reduce_scratch());
  V* result = partials + CudaContext::max_reduce_blocks;
  reduce_blocks_kernel<V><<<blocks, reduce_threads, 0, ctx.stream()>>>(r, f, op, partials);
  PDEX_CUDA_CHECK_LAUNCH("reduce (blocks)");
  reduce_partials_kernel<V><<<1, reduce_threads, 0, ctx.stream()>>>(partials, blocks, op, result);
  PDEX_CUDA_CHECK_LAUNCH("reduce (partials)");
  PDEX_CUDA_CHECK(cudaMemcpyAsync(ctx.pinned_result(), result, sizeof(V), cudaMemcpyDeviceToHost, ctx.stream()));
  PDEX_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
  return *static_cast<const V*>(ctx.pinned_result());
}

}  // namespace pdex
