#pragma once
// Which of the linear-algebra layer's device schedules an executor has: the one place that says so.
// Solvers ask for a schedule, never for a backend by name; a schedule's kernels live in the backend's
// folder (linalg/cuda/), and a backend that leaves one false takes the generic templates.
#include "pdex/core/executor.hpp"

namespace pdex {

template <class Exec>
struct LinalgSchedules {
  // Five-point sweeps out of place in one pass over shared-memory tiles (rb_sweep_into,
  // rb_sweep_pair_into, jacobi_sweep), and queued with their tests decided on the device (queue_sweeps).
  static constexpr bool queued_sweeps = false;
  // Seven-point red-black sweeps of a 3D grid out of place in one pass over planes of shared-memory
  // tiles (rb_sweep3_into), which multigrid's smoothing takes on large levels.
  static constexpr bool tiled_sweeps3 = false;
  // A relaxation solve's in-place sweeps and tests in one cooperative launch (relax_in_one_launch).
  static constexpr bool one_launch_relaxation = false;
  // Stored dense and CSR matrices multiplied by the vendor's libraries (cuda/vendor_blas.hpp).
  static constexpr bool vendor_blas = false;
};

template <>
struct LinalgSchedules<Cuda> {
  static constexpr bool queued_sweeps = true;
  static constexpr bool tiled_sweeps3 = true;
  static constexpr bool one_launch_relaxation = true;
  static constexpr bool vendor_blas = true;
};

}  // namespace pdex
