#pragma once
// The state a CUDA executor needs: a stream, scratch for reductions and a pinned word for results.
// Created once at set-up; kernels and reductions reuse it, so nothing is allocated inside a step loop.
#include <cuda_runtime.h>

#include <cstddef>
#include <string>

namespace pdex {

class CudaContext {
 public:
  static constexpr int max_reduce_blocks = 1024;
  static constexpr std::size_t max_reduce_value_bytes = 16;

  explicit CudaContext(int device = 0);
  ~CudaContext();
  CudaContext(const CudaContext&) = delete;
  CudaContext& operator=(const CudaContext&) = delete;

  cudaStream_t stream() const { return stream_; }
  void* reduce_scratch() const { return scratch_; }  // max_reduce_blocks + 1 values
  void* pinned_result() const { return pinned_; }
  int multiprocessors() const { return sm_count_; }
  const std::string& name() const { return name_; }
  void synchronize() const;

 private:
  cudaStream_t stream_ = nullptr;
  void* scratch_ = nullptr;
  void* pinned_ = nullptr;
  int sm_count_ = 0;
  std::string name_;
};

}  // namespace pdex

namespace pdex {
// The process-wide context for device 0, created on first use.
CudaContext& default_cuda_context();
}  // namespace pdex
