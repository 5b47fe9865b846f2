#pragma once
// Serpentine order for passes that ping-pong between two fields (Euler steps, relaxation sweeps): every
// other pass takes its blocks in reverse, so that it starts on the rows the pass before wrote last, which
// are still in L2 (50 MB on an H100), instead of on the rows written first, long evicted. The blocks are
// independent, so the results do not depend on the order.
#include <cuda_runtime.h>

namespace pdex {

// Whether a pass from `in` to `out` takes the reverse order. Ping-ponging passes swap the two pointers,
// so this alternates from one pass to the next without a counter (and stays fixed inside a CUDA graph).
inline bool reverse_block_order(const void* in, const void* out) { return out < in; }

// This block's coordinates in the grid of blocks, in launch order or reversed.
__device__ inline int block_x(bool reversed) { return reversed ? int(gridDim.x - 1 - blockIdx.x) : int(blockIdx.x); }
__device__ inline int block_y(bool reversed) { return reversed ? int(gridDim.y - 1 - blockIdx.y) : int(blockIdx.y); }

}  // namespace pdex
