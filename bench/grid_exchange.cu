#include "grid_exchange.hpp"

#include <cooperative_groups.h>
#include <cuda_runtime.h>

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
    out.push_back({sms, threads, round_us(ctx, buf.data(), threads, false), round_us(ctx, buf.data(), threads, true)});
  }
  return out;
}

}  // namespace pdex::bench
