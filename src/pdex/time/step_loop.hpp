#pragma once
// How an executor repeats a block of time steps. On the host: a plain loop. Where the executor captures
// steps (TimeSchedules), they are captured once into a graph and replayed, because small grids are
// launch-bound (DESIGN, performance).
#include <cstdint>
#include <utility>

#include "pdex/core/executor.hpp"
#include "pdex/time/schedules.hpp"

namespace pdex {

template <class Exec>
class StepLoop {
  static_assert(!TimeSchedules<Exec>::captured_steps,
                "this executor's StepLoop is in its backend's folder (time/cuda/graph_loop.hpp): include it");

 public:
  // steps(n) enqueues n steps; `parity` tells which ping-pong buffer is current (unused on the host).
  template <class F>
  void run(const Exec&, int64_t n, int /*parity*/, F&& steps) {
    steps(n);
  }
};

}  // namespace pdex
