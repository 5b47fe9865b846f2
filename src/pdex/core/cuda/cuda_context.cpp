#include "pdex/core/cuda/cuda_context.hpp"

#include "pdex/core/cuda/cuda_check.hpp"

namespace pdex {

CudaContext::CudaContext(int device) {
  PDEX_CUDA_CHECK(cudaSetDevice(device));
  cudaDeviceProp prop{};
  PDEX_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  sm_count_ = prop.multiProcessorCount;
  name_ = prop.name;
  PDEX_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  PDEX_CUDA_CHECK(cudaMalloc(&scratch_, (max_reduce_blocks + 1) * max_reduce_value_bytes));
  PDEX_CUDA_CHECK(cudaMallocHost(&pinned_, max_reduce_value_bytes));
}

CudaContext::~CudaContext() {
  (void)cudaFreeHost(pinned_);
  (void)cudaFree(scratch_);
  (void)cudaStreamDestroy(stream_);
}

void CudaContext::synchronize() const { PDEX_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

}  // namespace pdex

namespace pdex {
CudaContext& default_cuda_context() {
  static CudaContext ctx(0);
  return ctx;
}
}  // namespace pdex
