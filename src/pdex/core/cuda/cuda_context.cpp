#include "pdex/core/cuda/cuda_context.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "pdex/core/cuda/cuda_check.hpp"
#include "pdex/core/error.hpp"
#include "pdex/core/executor.hpp"

namespace pdex {

CudaContext::CudaContext(int device) {
  PDEX_CUDA_CHECK(cudaSetDevice(device));
#ifdef PDEX_CUDA_FAST_COMPILE
  std::fprintf(stderr,
               "pdex: warning: this build's CUDA kernels were compiled unoptimized, as a compile check "
               "(PDEX_CUDA_FAST_COMPILE=ON, which scripts/setup.sh sets where it sees no GPU); for speed, configure "
               "with -DPDEX_CUDA_FAST_COMPILE=OFF and rebuild\n");
#endif
  cudaDeviceProp prop{};
  PDEX_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  sm_count_ = prop.multiProcessorCount;
  max_shared_ = prop.sharedMemPerBlockOptin;
  cooperative_ = prop.cooperativeLaunch != 0;
  name_ = prop.name;
  const char* pdl = std::getenv("PDEX_CUDA_PDL");
  programmatic_ = prop.major >= 9 && !(pdl && std::strcmp(pdl, "0") == 0);
  PDEX_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  PDEX_CUDA_CHECK(cudaMalloc(&scratch_, max_reduce_blocks * max_reduce_value_bytes));
  PDEX_CUDA_CHECK(cudaMalloc(&count_, sizeof(unsigned)));
  PDEX_CUDA_CHECK(cudaMemset(count_, 0, sizeof(unsigned)));
  PDEX_CUDA_CHECK(cudaMalloc(&max_word_, sizeof(unsigned long long)));
  PDEX_CUDA_CHECK(cudaMemset(max_word_, 0, sizeof(unsigned long long)));
  // Mapped, so that a reduction kernel stores its result straight into host memory (unified addressing:
  // the device uses the host pointer).
  PDEX_CUDA_CHECK(cudaHostAlloc(&pinned_, max_reduce_value_bytes + sizeof(unsigned), cudaHostAllocMapped));
  *pinned_flag() = 0;
}

CudaContext::~CudaContext() {
  (void)cudaFreeHost(pinned_);
  (void)cudaFree(max_word_);
  (void)cudaFree(count_);
  (void)cudaFree(scratch_);
  (void)cudaStreamDestroy(stream_);
}

// Polling host memory answers a few microseconds sooner than a stream synchronization (the floor of a
// reduction that returns a value to the host). The stream is queried now and then, so that a failed
// kernel raises its error instead of leaving the host waiting.
void CudaContext::wait_for(unsigned ticket) const {
  for (unsigned k = 1; *pinned_flag() != ticket; ++k) {
    if (k % 4096 != 0) continue;
    const cudaError_t status = cudaStreamQuery(stream_);
    if (status == cudaErrorNotReady) continue;
    PDEX_CUDA_CHECK(status);
    if (*pinned_flag() != ticket) throw Error("internal: a reduction finished without writing its result");
  }
  std::atomic_thread_fence(std::memory_order_acquire);
}

int CudaContext::resident_blocks(const void* kernel, int threads, std::size_t shared) const {
  const auto key = std::make_pair(kernel, shared);
  if (const auto known = resident_blocks_.find(key); known != resident_blocks_.end()) return known->second;
  int blocks = 0;
  if (allow_shared(kernel, shared))
    PDEX_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads, shared));
  return resident_blocks_[key] = blocks;
}

bool CudaContext::allow_shared(const void* kernel, std::size_t shared) const {
  std::size_t& allowed = shared_allowance_[kernel];
  if (shared <= allowed) return true;
  // Fails where the kernel's static shared memory leaves less than `shared`.
  if (shared > max_shared_ ||
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared)) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  allowed = shared;
  return true;
}

void CudaContext::synchronize() const { PDEX_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

void finish(const Cuda& ex) { ex.context->synchronize(); }

}  // namespace pdex

namespace pdex {
// The device of this process: PDEX_CUDA_DEVICE's (modulo the device count; a rank of an MPI run sets it
// to its rank on the node, app/ranks.hpp), else the first.
int chosen_device() {
  const char* v = std::getenv("PDEX_CUDA_DEVICE");
  int count = 0;
  if (!v || cudaGetDeviceCount(&count) != cudaSuccess || count == 0) return 0;
  return std::atoi(v) % count;
}

CudaContext& default_cuda_context() {
  static CudaContext ctx(chosen_device());
  static const bool loaded = (load_engine_kernels(), true);
  (void)loaded;
  return ctx;
}
}  // namespace pdex
