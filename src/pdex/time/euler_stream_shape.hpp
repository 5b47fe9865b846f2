#pragma once
// Shape of the register-streaming CUDA schedule of forward Euler (time/cuda/euler_stream.cuh) and the
// runs it takes, visible to all translation units (the driver plans with them).
#include "pdex/grid/boundary.hpp"
#include "pdex/grid/extents.hpp"

namespace pdex {

// One launch takes `steps` steps. A warp owns a strip of 32 * cols columns, of which a halo of `halo`
// columns each side (steps rounded up to whole threads) is recomputed by the neighbouring strips, and
// walks down a segment of rows holding the last two rows of every time level in registers. Four columns
// a thread in f32 and two in f64 load and store 16 bytes at once. Depth and register cap (min_blocks
// blocks of 128 threads an SM) are the fastest measured for this kernel (docs/performance.md):
// in f32, 4 steps under 128 registers (deeper walks hold more registers and leave fewer warps); in f64,
// 6 steps under 168.
template <class T>
struct EulerStream {
  static constexpr bool f32 = sizeof(T) == 4;
  static constexpr int cols = f32 ? 4 : 2, steps = f32 ? 4 : 6;
  static constexpr int halo = (steps + cols - 1) / cols * cols;
  static constexpr int width = 32 * cols - 2 * halo;  // columns a strip writes
  static constexpr int threads = 128, min_blocks = f32 ? 4 : 3;
};

namespace stream_detail {
// Whether both components are periodic on both sides of an axis (lo, hi), or on neither side.
inline int axis_kind(const FieldBoundary& bc, int lo, int hi, int ncomp) {
  int periodic = 0;
  for (int c = 0; c < ncomp; ++c)
    periodic += (bc.side[lo][c].kind == BcKind::periodic) + (bc.side[hi][c].kind == BcKind::periodic);
  return periodic == 2 * ncomp ? 1 : periodic == 0 ? 0 : -1;
}
}  // namespace stream_detail

// Whether euler_stream takes a two-species run of nx x ny cells with conditions bc: each axis periodic
// on both sides for both species, or on neither (any mix of Neumann, Dirichlet and Robin there), and
// axes long enough that a periodic one is wrapped once at most: two warps' columns across, two walks'
// depths of rows.
template <class T>
bool euler_stream_takes(const FieldBoundary& bc, Extents2 e) {
  using S = EulerStream<T>;
  return stream_detail::axis_kind(bc, left, right, 2) >= 0 && stream_detail::axis_kind(bc, bottom, top, 2) >= 0 &&
         e.nx >= 64 * S::cols && e.ny >= 2 * S::steps;
}

// Streaming pays where memory traffic bounds a step (bench/euler_stream_probe.cu measured from 2048^2):
// on smaller grids its strips and segments leave too few warps to fill the GPU.
constexpr long long stream_min_cells = 2048LL * 2048;

}  // namespace pdex
