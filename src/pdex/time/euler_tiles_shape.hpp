#pragma once
// Tile shape of the temporally blocked CUDA schedule (time/cuda/euler_tiles.cuh) and the grid sizes
// where each CUDA schedule of forward Euler applies, visible to all translation units (the driver plans
// with them).
#include <cstddef>

namespace pdex {

// Tile of tx x ty cells plus a halo of `steps` cells: one launch takes `steps` steps. In shared memory
// the haloed tile (w x hgt) sits inside one more ring of cells that no step writes, so that every
// thread updates every cell of the haloed tile without a test (cells near the halo's rim go stale a ring
// per step, never reaching the tile). A thread walks `rows` cells down one column. The f32 shape suits
// seed 000's Table 1 run (512^2), the size of grid this schedule is for; it needs 64 KB of shared
// memory, which the launch asks for.
template <class T>
struct EulerTiles {
  static constexpr int tx = sizeof(T) == 4 ? 64 : 32, ty = sizeof(T) == 4 ? 32 : 16, steps = sizeof(T) == 4 ? 8 : 6;
  static constexpr int w = tx + 2 * steps, hgt = ty + 2 * steps;
  static constexpr int pitch = w + 2, cells = pitch * (hgt + 2);  // with the ring
  static constexpr int rows = sizeof(T) == 4 ? 6 : 4;
  static_assert(hgt % rows == 0);
  static constexpr int threads = w * (hgt / rows), min_blocks = sizeof(T) == 4 ? 1 : 2;
  static constexpr std::size_t shared_bytes = 4 * cells * sizeof(T);
};

// Tiles pay where launches, not memory traffic, bound a step: on larger grids one pass per step
// (time/cuda/euler_strips.cuh) is faster, as the tiles' overlapping halos add redundant work.
constexpr long long temporal_blocking_max_cells = 1024LL * 1024;

// The one-pass CUDA step walks strips of cells per thread (time/cuda/euler_strips.cuh) from 1024^2
// cells on; below, a thread per cell (forward_euler.hpp) leaves more threads to fill the GPU.
constexpr long long strips_min_cells = 1024LL * 1024;

}  // namespace pdex
