#pragma once
// Tile shape of the temporally blocked CUDA schedule (time/cuda/euler_tiles.cuh), visible to all
// translation units so that the driver can plan how many steps one launch takes.
#include <cstddef>

namespace pdex {

// Tile of tx x ty cells plus a halo of `steps` cells: one launch takes `steps` steps. The shapes keep
// shared memory (two buffers of two species) under the 48 KB default.
template <class T>
struct EulerTiles {
  static constexpr int tx = 32, ty = sizeof(T) == 4 ? 32 : 16, steps = sizeof(T) == 4 ? 8 : 6;
  static constexpr int w = tx + 2 * steps, hgt = ty + 2 * steps, cells = w * hgt;
  static constexpr int threads = 256;
  static constexpr std::size_t shared_bytes = 4 * cells * sizeof(T);
};

}  // namespace pdex
