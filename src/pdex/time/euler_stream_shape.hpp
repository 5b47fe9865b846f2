#pragma once
// Shape of the register-streaming CUDA schedule of forward Euler (time/cuda/euler_stream.cuh) and the
// runs it takes, visible to all translation units (the driver plans with them).
#include "pdex/grid/boundary.hpp"
#include "pdex/grid/extents.hpp"
#include "pdex/time/stream_args.hpp"

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
// Whether the first ncomp components are periodic on both sides of an axis (lo, hi), or none on either.
inline int axis_kind(const FieldBoundary& bc, int lo, int hi, int ncomp) {
  int periodic = 0;
  for (int c = 0; c < ncomp; ++c)
    periodic += (bc.side[lo][c].kind == BcKind::periodic) + (bc.side[hi][c].kind == BcKind::periodic);
  return periodic == 2 * ncomp ? 1 : periodic == 0 ? 0 : -1;
}
}  // namespace stream_detail

// Whether euler_stream takes a run of `ncomp` species (at most max_stream_species) on nx x ny cells with
// conditions bc: each axis periodic on both sides for every species, or on neither (any mix of Neumann,
// Dirichlet and Robin there), and axes long enough that a periodic one is wrapped once at most: two
// warps' columns across, two walks' depths of rows.
template <class T>
bool euler_stream_takes(const FieldBoundary& bc, Extents2 e, int ncomp = 2) {
  using S = EulerStream<T>;
  return ncomp >= 1 && ncomp <= max_stream_species && stream_detail::axis_kind(bc, left, right, ncomp) >= 0 &&
         stream_detail::axis_kind(bc, bottom, top, ncomp) >= 0 && e.nx >= 64 * S::cols && e.ny >= 2 * S::steps;
}

// A streaming launch's arguments for a run of `ncomp` species that euler_stream_takes (its shape, strips
// and seg_rows, left to the launch: stream_launch).
template <class T, class Cell>
StreamArgs<T, Cell> stream_args(const Cell& cell, FieldView<const T> in, FieldView<T> out, const FieldBoundary& bc, T dt,
                                int ncomp) {
  using stream_detail::axis_kind;
  return {cell, in, out, bc, images<T>(bc), dt, axis_kind(bc, left, right, ncomp) == 1, axis_kind(bc, bottom, top, ncomp) == 1, 0, 0};
}

// A streaming launch's shape: strips of S::width columns, each cut into segments of seg_rows rows, one
// segment for each warp resident at once (`resident_warps` on the whole device), in one wave: longer
// segments recompute fewer rows.
struct StreamLaunch {
  int strips = 0, seg_rows = 0;
  long long blocks = 0;
};
template <class T>
StreamLaunch stream_launch(Extents2 e, long long resident_warps) {
  using S = EulerStream<T>;
  const int nx = e.nx, ny = e.ny;
  StreamLaunch l;
  l.strips = (nx + S::width - 1) / S::width;
  const long long segs = resident_warps / l.strips > 1 ? resident_warps / l.strips : 1;
  int rows = int((ny + segs - 1) / segs);
  rows = rows < 2 * S::steps ? 2 * S::steps : rows;  // a walk enters 2 K rows beyond those it keeps
  l.seg_rows = rows > ny ? ny : rows;
  const long long warps = (long long)l.strips * ((ny + l.seg_rows - 1) / l.seg_rows), per_block = S::threads / 32;
  l.blocks = (warps + per_block - 1) / per_block;
  return l;
}

// Streaming pays where memory traffic bounds a step (bench/euler_stream_probe.cu measured from 2048^2):
// on smaller grids its strips and segments leave too few warps to fill the GPU.
constexpr long long stream_min_cells = 2048LL * 2048;

}  // namespace pdex
