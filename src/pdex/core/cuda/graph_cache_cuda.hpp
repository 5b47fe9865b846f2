#pragma once
// GraphCache<Cuda>: one captured graph per pair of keys; a new pair is captured and the old graph freed.
#include <cuda_runtime.h>

#include "pdex/core/cuda/cuda_check.hpp"
#include "pdex/core/cuda/cuda_context.hpp"
#include "pdex/core/executor.hpp"

namespace pdex {

template <class Exec>
class GraphCache;

template <>
class GraphCache<Cuda> {
 public:
  GraphCache() = default;
  GraphCache(const GraphCache&) = delete;
  GraphCache& operator=(const GraphCache&) = delete;
  ~GraphCache() {
    if (graph_) (void)cudaGraphExecDestroy(graph_);
  }

  template <class F>
  void run(const Cuda& ex, const void* key1, const void* key2, F&& enqueue) {
    cudaStream_t s = ex.context->stream();
    if (!graph_ || key1 != key1_ || key2 != key2_) {
      if (graph_) PDEX_CUDA_CHECK(cudaGraphExecDestroy(graph_));
      graph_ = nullptr;
      cudaGraph_t g = nullptr;
      PDEX_CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
      enqueue();
      PDEX_CUDA_CHECK(cudaStreamEndCapture(s, &g));
      PDEX_CUDA_CHECK(cudaGraphInstantiate(&graph_, g, 0));
      PDEX_CUDA_CHECK(cudaGraphDestroy(g));
      key1_ = key1;
      key2_ = key2;
    }
    PDEX_CUDA_CHECK(cudaGraphLaunch(graph_, s));
  }

 private:
  cudaGraphExec_t graph_ = nullptr;
  const void* key1_ = nullptr;
  const void* key2_ = nullptr;
};

}  // namespace pdex
