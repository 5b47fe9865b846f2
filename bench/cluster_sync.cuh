#pragma once
// What the benchmarks' thread block clusters (compute capability 9.0 and later) share: a launch of as many
// clusters as fit, and, on the device, addresses in another block's shared memory, mbarriers, and
// st.async, which stores into another block's shared memory and counts its bytes on that block's mbarrier
// (the receiver waits on its own barrier; the sender takes no fence).

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace pdex::bench {

// Blocks a cluster: the most that every Hopper GPU places (16 need a non-portable launch).
constexpr unsigned portable_cluster = 8;

// `config` for as many clusters of `size` blocks of `kernel` as the GPU holds at once (with `attribute`
// as its cluster dimension, both kept by the caller); the blocks, 0 where none fit.
template <class... Params>
int fit_clusters(void (*kernel)(Params...), unsigned size, int threads, std::size_t shared, cudaStream_t stream,
                 cudaLaunchConfig_t& config, cudaLaunchAttribute& attribute) {
  attribute = {};
  attribute.id = cudaLaunchAttributeClusterDimension;
  attribute.val.clusterDim = {size, 1, 1};
  config = {};
  config.gridDim = dim3(size), config.blockDim = dim3(unsigned(threads)), config.dynamicSmemBytes = shared;
  config.stream = stream, config.attrs = &attribute, config.numAttrs = 1;
  int clusters = 0;
  if (cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared)) != cudaSuccess ||
      cudaOccupancyMaxActiveClusters(&clusters, kernel, &config) != cudaSuccess) {
    (void)cudaGetLastError();  // no clusters on this GPU
    return 0;
  }
  config.gridDim = dim3(unsigned(clusters) * size);
  return clusters * int(size);
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
__device__ inline unsigned shared_address(const void* p) { return unsigned(__cvta_generic_to_shared(p)); }

// The address of the same shared variable in block `rank` of the cluster.
__device__ inline unsigned in_block(unsigned address, unsigned rank) {
  unsigned out;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(out) : "r"(address), "r"(rank));
  return out;
}

// An mbarrier whose phases complete on one arrival and the bytes it expects; by one thread, before a
// cluster barrier that makes it visible to the cluster.
__device__ inline void init_barrier(std::uint64_t& barrier) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(shared_address(&barrier)));
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

// The phase's arrival, expecting `bytes` from st.async (they may have come already).
__device__ inline void expect_bytes(unsigned barrier, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(barrier), "r"(bytes) : "memory");
}

// Until the phase of parity `parity` has completed.
__device__ inline void wait_phase(unsigned barrier, unsigned parity) {
  for (unsigned done = 0; !done;)
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done)
                 : "r"(barrier), "r"(parity)
                 : "memory");
}

// `value` to the shared address `to` of block `rank`, its 4 bytes counted on that block's `barrier` (the
// same shared variable as the caller's).
__device__ inline void send(unsigned to, unsigned value, unsigned barrier, unsigned rank) {
  asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%0], %1, [%2];" ::"r"(in_block(to, rank)),
               "r"(value), "r"(in_block(barrier, rank))
               : "memory");
}
#endif

}  // namespace pdex::bench
