#pragma once
// Tile shape of the one-launch CUDA theta step (cuda/theta_tiles.cuh) and the device's record of queued
// steps, visible to all translation units (the stepper decides with them, ard_theta.hpp).
#include <cmath>
#include <cstddef>

#include "pdex/core/macros.hpp"
#include "pdex/linalg/grid_ops.hpp"

namespace pdex {

// A block holds a w x hgt region of the grid in shared memory, inside a ring of cells that no sweep
// writes; it solves for the tx x ty tile at its centre. Each red-black half-sweep leaves the outermost
// valid ring stale, so `sweeps` sweeps need a halo of 2 sweeps + 1 cells for the residual at the tile's
// cells. A thread owns `rows` cells down one column for the whole launch, their right-hand sides and
// values in registers.
template <class T>
struct ThetaTiles {
  static constexpr int sweeps = 6;  // the most sweeps a launch takes (solver.check_every's default)
  static constexpr int halo = 2 * sweeps + 1;
  static constexpr int w = sizeof(T) == 4 ? 96 : 64, hgt = sizeof(T) == 4 ? 72 : 64, rows = 8;
  static constexpr int tx = w - 2 * halo, ty = hgt - 2 * halo;
  static constexpr int pitch = w + 2, cells = pitch * (hgt + 2);  // with the ring
  static_assert(hgt % rows == 0 && rows % 2 == 0 && w % 32 == 0 && pitch % 2 == 0);
  static constexpr int threads = w * (hgt / rows);
  static constexpr std::size_t shared_bytes = 2 * cells * sizeof(T);
};

// The relative residual |b - A x| / |b| of a solve from {|b - A x|^2, |b|^2} (1 for |b| in place of 0),
// on the host and on the device alike: the two decide a step's convergence the same way.
PDEX_HD inline double relative_residual(Pair p) { return std::sqrt(p.a) / (p.b > 0 ? std::sqrt(p.b) : 1.0); }

// The device's record of theta steps queued with no host wait between them (ard_theta.hpp): each step's
// first launch, up to max_launches - 1 more, and its clamp. A launch tests its residual on the device;
// a launch after a passed test returns at once, and once a step has run out of launches without passing
// (overflow), everything queued after it does. The host reads the record when the queue has run.
struct ThetaQueue {
  // Steps queued before the host reads the record: the launches queued behind an overflow return at
  // once but cost a few microseconds each, and each read leaves the GPU idle while the host queues again.
  static constexpr int max_steps = 64;
  static constexpr int max_launches = 8;
  struct Step {
    int launches;  // that ran
    double residual[max_launches];
  };
  int passed;    // the running step's last test passed
  int result;    // the buffer holding its last launch's result (0 or 1: launches alternate)
  int overflow;  // 1 + the step that ran out of launches; 0 for none
  Step steps[max_steps];
};

}  // namespace pdex
