#include "grid_exchange.hpp"

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "cluster_sync.cuh"
#include "device_timing.hpp"
#include "pdex/core/buffer.hpp"
#include "pdex/core/cuda/cuda_context.hpp"
#include "pdex/core/cuda/launch.cuh"
#include "pdex/core/executor.hpp"

namespace pdex::bench {
namespace {

constexpr int values_per_thread = 2;
// Dynamic shared memory a block, unused: more than half a multiprocessor's, so that each block has one
// to itself, as a resident queue's blocks do.
constexpr int shared_bytes = 160 * 1024;

// `rounds` grid barriers; with `exchange`, each thread first stores its values into its block's slot of
// `buf` (slots alternate by round, as a queue's fields do) and after the barrier loads those of the next
// block through L2, as a round's ring loads are.
__global__ void exchange_kernel(float* buf, int rounds, bool exchange) {
  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  const int slot = int(blockDim.x) * values_per_thread;
  float acc = 0;
  for (int r = 0; r < rounds; ++r) {
    float* const half = buf + std::size_t(r & 1) * gridDim.x * slot;
    if (exchange)
      for (int k = 0; k < values_per_thread; ++k) half[blockIdx.x * slot + threadIdx.x + k * blockDim.x] = acc + k;
    grid.sync();
    if (exchange) {
      const float* next = half + (blockIdx.x + 1) % gridDim.x * slot;
      float v[values_per_thread];
#pragma unroll
      for (int k = 0; k < values_per_thread; ++k) v[k] = __ldcg(next + threadIdx.x + k * blockDim.x);
#pragma unroll
      for (int k = 0; k < values_per_thread; ++k) acc += v[k];
    }
  }
  if (acc < 0) buf[0] = acc;  // never: keeps the loads
}

// Microseconds a round: the median of 7 launches of `rounds` rounds.
double round_us(const CudaContext& ctx, float* buf, int threads, bool exchange) {
  constexpr int rounds = 2000;
  const double ms = median_device_ms(
      7,
      [&] {
        launch_cooperative(ctx, "exchange_kernel", exchange_kernel, dim3(unsigned(ctx.multiprocessors())),
                           dim3(unsigned(threads)), shared_bytes, buf, rounds, exchange);
      },
      ctx.stream());
  return ms * 1e3 / rounds;
}

// Blocks of a cluster as a ring: `rounds` cluster barriers, each thread storing a value into its block's
// shared memory before and loading the next block's after. With `release`, the barrier that makes those
// stores visible to the cluster (cooperative_groups' cluster.sync: arrive.release, wait.acquire);
// without, a relaxed arrival, which orders no memory: the barrier's own floor, its loads unchecked.
__global__ void cluster_barrier_kernel(float* buf, int rounds, bool release) {
  extern __shared__ float sh[];
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  cooperative_groups::cluster_group cluster = cooperative_groups::this_cluster();
  const unsigned next = (cluster.block_rank() + 1) % cluster.num_blocks();
  float acc = 0;
  for (int r = 0; r < rounds; ++r) {
    float* const half = sh + (r & 1) * blockDim.x;
    half[threadIdx.x] = acc;
    if (release) cluster.sync();
    else asm volatile("barrier.cluster.arrive.relaxed.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
    acc += cluster.map_shared_rank(half, next)[threadIdx.x];
  }
  if (acc < 0) buf[0] = acc;  // never: keeps the loads
  cluster.sync();             // no block leaves while another may read its shared memory
#else
  if (threadIdx.x == 0) atomicAdd(buf + 1, 1.f);  // no clusters below compute capability 9.0
#endif
}

// Blocks of a cluster as a ring, each thread sending one value to each neighbour's shared memory by
// st.async: a block waits on its own mbarrier for both neighbours' values and takes no fence. Buffers and
// barriers alternate by round; a block's neighbours wait for its values of each round, so none runs two
// rounds ahead of another. Values that are not the round sent are counted into buf[1].
__global__ void cluster_async_kernel(float* buf, int rounds) {
  extern __shared__ float sh[];  // [round parity][from the block before, from the block after][thread]
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  __shared__ alignas(8) std::uint64_t arrived[2];
  cooperative_groups::cluster_group cluster = cooperative_groups::this_cluster();
  const unsigned n = cluster.num_blocks(), me = cluster.block_rank();
  const unsigned after = (me + 1) % n, before = (me + n - 1) % n;
  if (threadIdx.x == 0)
    for (auto& a : arrived) init_barrier(a);
  cluster.sync();
  unsigned wrong = 0;
  for (int r = 0; r < rounds; ++r) {
    unsigned* const half = reinterpret_cast<unsigned*>(sh) + (r & 1) * 2 * blockDim.x;
    const unsigned mine = shared_address(&arrived[r & 1]);
    if (threadIdx.x == 0) expect_bytes(mine, 2 * blockDim.x * sizeof(float));
    send(shared_address(half + threadIdx.x), unsigned(r), mine, after);                // its values from before
    send(shared_address(half + blockDim.x + threadIdx.x), unsigned(r), mine, before);  // and from after
    wait_phase(mine, unsigned(r >> 1 & 1));
    wrong += (half[threadIdx.x] != unsigned(r)) + (half[blockDim.x + threadIdx.x] != unsigned(r));
    __syncthreads();  // read before a neighbour's round r + 2 may write this half again
  }
  if (wrong) atomicAdd(buf + 1, float(wrong));
  cluster.sync();
#else
  if (threadIdx.x == 0) atomicAdd(buf + 1, 1.f);
#endif
}

// Microseconds a round in clusters of portable_cluster blocks, as many as fit (a block a multiprocessor, their
// count into `blocks`); 0 where such clusters do not fit or the kernel reports wrong values (buf[1]).
template <class... Args>
double cluster_round_us(const CudaContext& ctx, float* buf, int& blocks, void (*kernel)(float*, int, Args...),
                        int threads, Args... args) {
  constexpr int rounds = 2000;
  cudaLaunchConfig_t config;
  cudaLaunchAttribute dims;
  blocks = fit_clusters(kernel, portable_cluster, threads, shared_bytes, ctx.stream(), config, dims);
  if (blocks == 0) return 0;
  PDEX_CUDA_CHECK(cudaMemsetAsync(buf, 0, 2 * sizeof(float), ctx.stream()));  // before the launches, in their stream
  const double ms = median_device_ms(
      7, [&] { PDEX_CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, buf, rounds, args...)); }, ctx.stream());
  float wrong = 0;
  PDEX_CUDA_CHECK(cudaMemcpy(&wrong, buf + 1, sizeof wrong, cudaMemcpyDeviceToHost));
  return wrong == 0 ? ms * 1e3 / rounds : 0;
}

}  // namespace

std::vector<ExchangeFloor> grid_exchange_floor() {
  if (!backend_available(Backend::cuda)) return {};
  const CudaContext& ctx = default_cuda_context();
  if (!ctx.cooperative_launch()) return {};
  const int sms = ctx.multiprocessors();
  Buffer<float> buf(std::size_t(2) * sms * 1024 * values_per_thread, MemorySpace::device);
  std::vector<ExchangeFloor> out;
  for (int threads : {256, 512, 1024}) {
    // Raises the kernel's allowance of dynamic shared memory; one block a multiprocessor by its size.
    if (ctx.resident_blocks(reinterpret_cast<const void*>(exchange_kernel), threads, shared_bytes) < 1) break;
    ExchangeFloor f{sms, threads, round_us(ctx, buf.data(), threads, false), round_us(ctx, buf.data(), threads, true)};
    f.cluster_release_us = cluster_round_us(ctx, buf.data(), f.cluster_blocks, cluster_barrier_kernel, threads, true);
    f.cluster_relaxed_us = cluster_round_us(ctx, buf.data(), f.cluster_blocks, cluster_barrier_kernel, threads, false);
    f.cluster_async_us = cluster_round_us(ctx, buf.data(), f.cluster_blocks, cluster_async_kernel, threads);
    out.push_back(f);
  }
  return out;
}

}  // namespace pdex::bench
