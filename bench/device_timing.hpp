#pragma once
// The median time of a piece of device work by CUDA events, for the benchmarks (with PDEX_HAVE_CUDA).

#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "pdex/core/cuda/cuda_check.hpp"

namespace pdex::bench {

// Milliseconds: the median of `samples` runs of work(), each timed between two events on `stream` (the
// stream work() queues on).
template <class Work>
double median_device_ms(int samples, Work work, cudaStream_t stream = nullptr) {
  cudaEvent_t e0, e1;
  PDEX_CUDA_CHECK(cudaEventCreate(&e0));
  PDEX_CUDA_CHECK(cudaEventCreate(&e1));
  std::vector<float> ms;
  for (int rep = 0; rep < samples; ++rep) {
    PDEX_CUDA_CHECK(cudaEventRecord(e0, stream));
    work();
    PDEX_CUDA_CHECK(cudaEventRecord(e1, stream));
    PDEX_CUDA_CHECK(cudaEventSynchronize(e1));
    float t = 0;
    PDEX_CUDA_CHECK(cudaEventElapsedTime(&t, e0, e1));
    ms.push_back(t);
  }
  (void)cudaEventDestroy(e0);
  (void)cudaEventDestroy(e1);
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

}  // namespace pdex::bench
