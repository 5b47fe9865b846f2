// The host's side of the queued relaxation sweeps' log (device_relaxation.hpp's SweepLog).
#include <cuda_runtime.h>

#include <cstddef>

#include "pdex/core/cuda/cuda_check.hpp"
#include "pdex/core/cuda/cuda_context.hpp"
#include "pdex/linalg/cuda/sweeps_cuda.hpp"

namespace pdex {

namespace {
std::size_t log_bytes(int tests) { return offsetof(SweepLog, rows) + std::size_t(tests) * sizeof(SweepLog::Row); }
}  // namespace

void clear_sweep_log(const Cuda& ex, SweepLog* log, int tests) {
  PDEX_CUDA_CHECK(cudaMemsetAsync(log, 0, log_bytes(tests), ex.context->stream()));
}

void read_sweep_log(const Cuda& ex, const SweepLog* log, int tests, SweepLog& to) {
  const std::size_t bytes = log_bytes(tests);
  PDEX_CUDA_CHECK(cudaMemcpyAsync(&to, log, bytes, cudaMemcpyDeviceToHost, ex.context->stream()));
  PDEX_CUDA_CHECK(cudaStreamSynchronize(ex.context->stream()));
}

}  // namespace pdex
