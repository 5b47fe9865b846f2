#include "cluster_sweep.hpp"

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "cluster_sync.cuh"
#include "device_timing.hpp"
#include "pdex/core/buffer.hpp"
#include "pdex/core/cuda/cuda_context.hpp"
#include "pdex/core/executor.hpp"

namespace pdex::bench {
namespace {

// A cluster's region: 2 x 4 tiles of TX x TY, a block each (rank = x + 2 y).
constexpr int cluster_x = 2, cluster_y = 4;
static_assert(cluster_x * cluster_y == int(portable_cluster));
// Dynamic shared memory a block, unused: more than half a multiprocessor's, one block each.
constexpr int shared_bytes = 150 * 1024;

template <int TX, int TY>
struct Region {
  static constexpr int w = TX * cluster_x, h = TY * cluster_y, cells = w * h;
};

// A cell's red-black update, u = (b + the four neighbours) / 4, with the kernel's order of additions so
// that the host's sweeps give the same bits; p at the cell, `row` the stride.
__host__ __device__ inline float point(const float* p, float b, int row) {
  return 0.25f * (b + p[-1] + p[1] + p[-row] + p[row]);
}

// `sweeps` red-black sweeps of the tile, from zero, in shared memory with a ring of one cell. After each
// half-sweep a block sends the cells of its edges it has just updated into its neighbours' rings
// (st.async) and, before the next, waits on its mbarrier for theirs: a neighbour sends half-sweep h only
// after it has received this block's h - 1, so the cells it overwrites (colour of h) are not those this
// block still reads (colour of h + 1), and two barriers, alternating, suffice.
template <int TX, int TY, int Threads>
__global__ void __launch_bounds__(Threads, 1) cluster_sweep_kernel(const float* b, float* out, int sweeps) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  constexpr int w = TX + 2;
  __shared__ float xs[(TY + 2) * w];
  __shared__ float bs[TY * TX];
  __shared__ alignas(8) std::uint64_t arrived[2];
  using R = Region<TX, TY>;
  cooperative_groups::cluster_group cluster = cooperative_groups::this_cluster();
  const unsigned rank = cluster.block_rank();
  const int bx = int(rank) % cluster_x, by = int(rank) / cluster_x;
  const std::size_t region = blockIdx.x / portable_cluster * std::size_t(R::cells);
  auto cell = [&](int k) { return region + std::size_t(by * TY + k / TX) * R::w + bx * TX + k % TX; };
  for (int k = threadIdx.x; k < (TY + 2) * w; k += Threads) xs[k] = 0;
  for (int k = threadIdx.x; k < TY * TX; k += Threads) bs[k] = b[cell(k)];
  // Neighbours below, above, left, right; the colour's cells of an edge are half of it.
  const bool has[4] = {by > 0, by < cluster_y - 1, bx > 0, bx < cluster_x - 1};
  const unsigned next[4] = {rank - cluster_x, rank + cluster_x, rank - 1, rank + 1};
  const unsigned bytes = 4u * ((has[0] + has[1]) * TX / 2 + (has[2] + has[3]) * TY / 2);
  if (threadIdx.x == 0)
    for (auto& a : arrived) init_barrier(a);
  cluster.sync();
  for (int h = 0; h < 2 * sweeps; ++h) {
    const int colour = h & 1;
    if (h > 0) wait_phase(shared_address(&arrived[(h - 1) & 1]), unsigned((h - 1) >> 1 & 1));
    const unsigned mine = shared_address(&arrived[h & 1]);
    if (threadIdx.x == 0) expect_bytes(mine, bytes);
#pragma unroll 1
    for (int k = threadIdx.x; k < TX * TY / 2; k += Threads) {
      const int y = k / (TX / 2), x = 2 * (k % (TX / 2)) + ((y + colour) & 1);
      float* p = xs + (y + 1) * w + x + 1;
      *p = point(p, bs[y * TX + x], w);
    }
    __syncthreads();
    // Thread t < TX + TY sends one edge cell: (x, y) here, (hx, hy) in the neighbour's padded tile.
    const int t = threadIdx.x;
    if (t >= TX + TY) continue;
    int side, x, y, hx, hy;
    if (t < TX / 2) side = 0, y = 0, x = 2 * t + (colour & 1), hx = x + 1, hy = TY + 1;
    else if (t < TX) side = 1, y = TY - 1, x = 2 * (t - TX / 2) + ((y + colour) & 1), hx = x + 1, hy = 0;
    else if (t < TX + TY / 2) side = 2, x = 0, y = 2 * (t - TX) + (colour & 1), hx = TX + 1, hy = y + 1;
    else side = 3, x = TX - 1, y = 2 * (t - TX - TY / 2) + ((x + colour) & 1), hx = 0, hy = y + 1;
    if (has[side]) send(shared_address(xs + hy * w + hx), __float_as_uint(xs[(y + 1) * w + x + 1]), mine, next[side]);
  }
  wait_phase(shared_address(&arrived[(2 * sweeps - 1) & 1]), unsigned((2 * sweeps - 1) >> 1 & 1));
  for (int k = threadIdx.x; k < TY * TX; k += Threads) out[cell(k)] = xs[(k / TX + 1) * w + k % TX + 1];
  cluster.sync();  // no block leaves while a neighbour may still send into it
#else
  if (threadIdx.x == 0 && blockIdx.x == 0) out[0] = NAN;  // no clusters below compute capability 9.0
#endif
}

// The host's `sweeps` sweeps of one region, the kernel's order of operations.
template <int TX, int TY>
std::vector<float> host_sweeps(const float* b, int sweeps) {
  using R = Region<TX, TY>;
  constexpr int w = R::w + 2;
  std::vector<float> x(std::size_t(w) * (R::h + 2), 0.f), u(R::cells);
  for (int h = 0; h < 2 * sweeps; ++h)
    for (int y = 0; y < R::h; ++y)
      for (int i = (y + h) & 1; i < R::w; i += 2) {
        float* p = &x[std::size_t(y + 1) * w + i + 1];
        *p = point(p, b[y * R::w + i], w);
      }
  for (int y = 0; y < R::h; ++y)
    for (int i = 0; i < R::w; ++i) u[y * R::w + i] = x[std::size_t(y + 1) * w + i + 1];
  return u;
}

template <int N, int Threads>
ClusterSweep measure(const CudaContext& ctx) {
  constexpr int TX = N / 8, TY = N / 16;
  using R = Region<TX, TY>;
  auto kernel = cluster_sweep_kernel<TX, TY, Threads>;
  cudaLaunchConfig_t config;
  cudaLaunchAttribute dims;
  const int blocks = fit_clusters(kernel, portable_cluster, Threads, shared_bytes, ctx.stream(), config, dims);
  if (blocks == 0) return {};
  const int clusters = blocks / int(portable_cluster);
  const std::size_t cells = std::size_t(clusters) * R::cells;
  Buffer<float> hb(cells, MemorySpace::host), b(cells, MemorySpace::device), u(cells, MemorySpace::device);
  for (std::size_t k = 0; k < cells; ++k) hb.data()[k] = float(k * 2654435761u % 1000) / 1000.f;
  copy(b, hb);
  auto run = [&](int sweeps) {
    PDEX_CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, static_cast<const float*>(b.data()), u.data(), sweeps));
  };
  constexpr int checked = 40;
  run(checked);
  Buffer<float> got(cells, MemorySpace::host);
  copy(got, u);
  ClusterSweep out{N, Threads, clusters, double(cells)};
  for (int region : {0, clusters - 1}) {
    const std::size_t at = std::size_t(region) * R::cells;
    const std::vector<float> want = host_sweeps<TX, TY>(hb.data() + at, checked);
    for (int k = 0; k < R::cells; ++k)
      if (const double d = std::fabs(got.data()[at + k] - want[k]); !(d <= out.worst_diff)) out.worst_diff = d;  // NaN too
  }
  // The difference of 4,000 and 2,000 sweeps a launch: the launch and the loads left out.
  const double ms2 = median_device_ms(7, [&] { run(2000); }, ctx.stream());
  const double ms4 = median_device_ms(7, [&] { run(4000); }, ctx.stream());
  out.sweep_us = (ms4 - ms2) * 1e3 / 2000;
  return out;
}

}  // namespace

std::vector<ClusterSweep> cluster_sweeps() {
  if (!backend_available(Backend::cuda)) return {};
  const CudaContext& ctx = default_cuda_context();
  std::vector<ClusterSweep> out;
  for (const ClusterSweep& s : {measure<256, 256>(ctx), measure<256, 512>(ctx), measure<512, 256>(ctx),
                                measure<512, 512>(ctx)})
    if (s.clusters > 0) out.push_back(s);
  return out;
}

}  // namespace pdex::bench
