#pragma once
// Tile shape of the one-launch CUDA theta step (theta_tiles.cuh), visible to all translation units (the
// stepper decides with it, ard_theta.hpp).
#include <cstddef>

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

}  // namespace pdex
