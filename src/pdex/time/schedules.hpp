#pragma once
// Which of the time layer's device schedules an executor has: the one place that says so. Steppers ask
// for a schedule, never for a backend by name. A schedule's kernels live in the backend's folder
// (time/cuda/) and are included by the translation units that instantiate the steppers for it.
#include "pdex/core/executor.hpp"

namespace pdex {

template <class Exec>
struct TimeSchedules {
  // StepLoop captures a block of steps once and replays it (time/cuda/graph_loop.hpp).
  static constexpr bool captured_steps = false;
  // A forward Euler step in one pass by strips (time/cuda/euler_strips.cuh; in 3D, euler_columns.cuh).
  static constexpr bool euler_strips = false;
  // Forward Euler steps blocked in time over shared-memory tiles (time/cuda/euler_tiles.cuh).
  static constexpr bool euler_tiles = false;
};

template <>
struct TimeSchedules<Cuda> {
  static constexpr bool captured_steps = true;
  static constexpr bool euler_strips = true;
  static constexpr bool euler_tiles = true;
};

// The device schedules of a step are written for two species and five-point diffusion; other
// right-hand sides take the generic kernels.
template <class Rhs>
constexpr bool schedules_take = !Rhs::tensor && Rhs::ncomp == 2;

}  // namespace pdex
