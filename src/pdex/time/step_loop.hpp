#pragma once
// How an executor repeats a block of time steps. On the host: a plain loop. On CUDA: the steps are
// captured once into a graph and replayed, because small grids are launch-bound (DESIGN, performance).
#include <cstdint>
#include <utility>

#include "pdex/core/executor.hpp"

namespace pdex {

template <class Exec>
class StepLoop {
 public:
  // steps(n) enqueues n steps; `parity` tells which ping-pong buffer is current (unused on the host).
  template <class F>
  void run(const Exec&, int64_t n, int /*parity*/, F&& steps) {
    steps(n);
  }
};

}  // namespace pdex

#ifdef PDEX_HAVE_CUDA
#include "pdex/core/cuda/graph_loop.hpp"
#endif
