#pragma once
// Which of the reaction-diffusion family's device schedules an executor has: the one place that says so.
// Its kernels live in the backend's folder (cuda/) and are included by the translation unit that
// instantiates the family for it.
#include "pdex/core/executor.hpp"
#include "pdex/time/schedules.hpp"

namespace pdex {

template <class Exec>
struct ArdSchedules {
  // A theta step's right-hand side, guess and first sweeps in one launch over tiles, steps queued with
  // their tests on the device (cuda/theta_tiles.cuh).
  static constexpr bool theta_tiles = false;
  // Forward Euler steps streamed down strips of columns in registers, several a pass
  // (time/cuda/euler_stream.cuh; the family alone takes them so far).
  static constexpr bool euler_stream = false;
};

template <>
struct ArdSchedules<Cuda> {
  static constexpr bool theta_tiles = true;
  static constexpr bool euler_stream = true;
};

}  // namespace pdex
