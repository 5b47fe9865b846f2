#pragma once
// Replaying a fixed sequence of launches. On the host the sequence simply runs. On CUDA it is captured
// once into a graph per key (the buffers it names) and replayed: a multigrid cycle is a few hundred
// small launches, most of them on coarse levels, where launch latency, not memory, sets the time.
#include <cstdint>

#include "pdex/core/executor.hpp"

namespace pdex {

template <class Exec>
class GraphCache {
 public:
  // enqueue() must not wait for the device (no reductions read on the host).
  template <class F>
  void run(const Exec&, const void*, const void*, F&& enqueue) {
    enqueue();
  }
};

}  // namespace pdex

#ifdef PDEX_HAVE_CUDA
#include "pdex/core/cuda/graph_cache_cuda.hpp"
#endif
