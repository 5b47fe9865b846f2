#pragma once
// A CUDA graph of what `enqueue` puts on stream s, captured and instantiated: launches replayed as one.
#include <cuda_runtime.h>

#include "pdex/core/cuda/cuda_check.hpp"

namespace pdex {

template <class F>
cudaGraphExec_t capture_graph(cudaStream_t s, F&& enqueue) {
  cudaGraph_t graph = nullptr;
  PDEX_CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  enqueue();
  PDEX_CUDA_CHECK(cudaStreamEndCapture(s, &graph));
  cudaGraphExec_t exec = nullptr;
  PDEX_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  PDEX_CUDA_CHECK(cudaGraphDestroy(graph));
  return exec;
}

}  // namespace pdex
