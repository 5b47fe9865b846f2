#pragma once
// What the tiled sweeps share (tile_sweep.cuh's 2D tiles, tile_sweep3.cu's planes of tiles): where a
// cell of a tile's region reads from, and the asynchronous copies that bring it into shared memory.
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

namespace pdex::tile_sweep_detail {

// Where region coordinate i (grid index, may lie outside) reads from: the cell itself inside, the
// wrapped cell across a periodic side, the ghost (-1 or n) across another side; beyond the ghost the
// value is never used, so the ghost serves.
__device__ inline int source(int i, int n, bool periodic) {
  if (i >= 0 && i < n) return i;
  if (periodic) return ((i % n) + n) % n;
  return i < 0 ? -1 : n;
}

// An asynchronous copy of Bytes (4, 8 or 16) from global to shared memory through L1 (cp.async.ca),
// which merges a warp's copies into whole sectors and holds no register while it flies.
// __pipeline_memcpy_async makes its 16-byte copies bypass L1 (.cg), and those fetch many more sectors
// from L2.
template <int Bytes>
__device__ inline void copy_async(void* dst, const void* src) {
  const unsigned to = unsigned(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"(to), "l"(src), "n"(Bytes) : "memory");
}

}  // namespace pdex::tile_sweep_detail
