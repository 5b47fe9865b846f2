#pragma once
// StepLoop<Cuda>: replays a captured CUDA graph of `chunk` steps. A graph per ping-pong parity, since
// the captured launches name the buffers; the chunk is even, so a replay ends on the parity it began.
#include <cuda_runtime.h>

#include <cstdint>

#include "pdex/core/cuda/cuda_check.hpp"
#include "pdex/core/cuda/graph_capture.hpp"
#include "pdex/core/cuda/cuda_context.hpp"
#include "pdex/core/executor.hpp"
#include "pdex/time/step_loop.hpp"

namespace pdex {

template <>
class StepLoop<Cuda> {
 public:
  static constexpr int64_t chunk = 64;

  StepLoop() = default;
  StepLoop(const StepLoop&) = delete;
  StepLoop& operator=(const StepLoop&) = delete;
  ~StepLoop() {
    for (cudaGraphExec_t g : graphs_)
      if (g) (void)cudaGraphExecDestroy(g);
  }

  template <class F>
  void run(const Cuda& ex, int64_t n, int parity, F&& steps) {
    cudaStream_t s = ex.context->stream();
    if (n >= chunk) {
      cudaGraphExec_t& g = graphs_[parity & 1];
      if (!g) g = capture_graph(s, [&] { steps(chunk); });
      for (; n >= chunk; n -= chunk) PDEX_CUDA_CHECK(cudaGraphLaunch(g, s));
    }
    steps(n);
    PDEX_CUDA_CHECK(cudaStreamSynchronize(s));
  }

 private:
  cudaGraphExec_t graphs_[2] = {nullptr, nullptr};
};

}  // namespace pdex
