// rb_sweep3_into on CUDA: one red-black sweep of a 3D grid's seven-point operator out of place, in one
// launch and one pass over memory (the in-place sweep, relaxation3.hpp's color_sweep twice, reads and
// writes the whole field once a colour, each cell's word per colour sharing its sector with the other).
//
// A block takes a tile of tx x ty cells of every plane of a run of planes and walks up them, keeping
// five planes of the tile's region (the tile and a two-cell ring) in shared memory. At plane m it
// relaxes the first colour's cells of plane m on the tile and the inner ring (they read only old values
// of the other colour, the planes below and above included), then the second colour's cells of plane
// m - 1 on the tile, whose six neighbours now hold their new values, and writes plane m - 1's tile.
// A region cell is the cell it stands for: across a periodic side the wrapped cell, whose update here
// is the one its own block makes; across another side the ghost, which keeps its old value through the
// sweep (its cell's update solves for it: Helmholtz3's diagonal). Each update is relax_point3's, on the
// same values in the same order, and each cell pushes its boundary images into `out` as color_sweep's
// do, so the result is the in-place sweep's bit for bit. The colouring must close across periodic axes
// (even lengths: colours_close3).
#include <algorithm>
#include <cstdint>

#include "pdex/core/cuda/cuda_context.hpp"
#include "pdex/core/cuda/launch.cuh"
#include "pdex/core/cuda/vec2.cuh"
#include "pdex/grid/boundary.hpp"
#include "pdex/linalg/cuda/sweeps_cuda.hpp"
#include "pdex/linalg/helmholtz3.hpp"

namespace pdex {
namespace tile_sweep3_detail {

// A tile of tx x ty cells of a plane, its region with the two-cell ring w x h, five region planes in
// shared memory, a thread per tile cell of one colour (the ring's first-colour cells take a second
// round). tx is a multiple of 64 so that a tile's rows start on 128-byte lines.
template <class T>
struct Shape {
  static constexpr int tx = 64, ty = 8, w = tx + 4, h = ty + 4, slots = 5;
  static constexpr int threads = tx * ty / 2;
  static constexpr int cells = w * h;                          // a region plane
  static constexpr int loads = (cells + threads - 1) / threads;  // a thread's share of a region plane
  static constexpr int min_planes = 16;                        // a block's run, at least
};

template <class T>
struct Sweep3 {
  Helmholtz3<T> op;
  FieldView<const T> in, b;
  FieldView<T> out;
  FieldBoundary bc;
  T omega;
  int first;  // the colour (i + j + k) % 2 relaxed first
  int run;    // planes a block walks
};

// Where grid coordinate i (may lie outside) reads from: itself inside, the wrapped cell across a
// periodic side, the ghost (-1 or n) across another side; beyond the ghost the value is never used.
__device__ inline int source(int i, int n, bool periodic) {
  if (i >= 0 && i < n) return i;
  if (periodic) return ((i % n) + n) % n;
  return i < 0 ? -1 : n;
}

// One component's sweep of a block's tile over planes k0 .. k1 - 1.
template <class T>
struct TileWalk {
  using S = Shape<T>;
  const Sweep3<T>& sw;
  T (*xs)[S::cells];  // the region planes, plane m in slot m % slots
  int c, i0, j0;      // the component; the region's first cell (two before the tile's)
  bool periodic[3];

  __device__ int src_x(int x) const { return source(i0 + x, sw.in.nx, periodic[0]); }
  __device__ int src_y(int y) const { return source(j0 + y, sw.in.ny, periodic[1]); }
  __device__ int src_z(int m) const { return source(m, sw.in.nz, periodic[2]); }
  __device__ T* slot(int m) const { return xs[((m % S::slots) + S::slots) % S::slots]; }

  // A thread's share of region plane m, from global memory into registers (then into its slot: store).
  __device__ void fetch(int m, T (&r)[S::loads]) const {
    const T* p = sw.in.comp(c);
    const int k = src_z(m);
#pragma unroll
    for (int q = 0; q < S::loads; ++q) {
      const int s = int(threadIdx.x) + q * S::threads;
      if (s < S::cells) r[q] = p[sw.in.offset(src_x(s % S::w), src_y(s / S::w), k)];
    }
  }
  __device__ void store(int m, const T (&r)[S::loads]) const {
    T* to = slot(m);
#pragma unroll
    for (int q = 0; q < S::loads; ++q) {
      const int s = int(threadIdx.x) + q * S::threads;
      if (s < S::cells) to[s] = r[q];
    }
  }

  // The relaxed value of region cell s = (x, y) of plane m, whose source cell is (i, j, k): relax_point3's
  // update on the region's values.
  __device__ T relaxed(int m, int s, int i, int j, int k) const {
    const T* here = slot(m);
    const T u = here[s];
    const Star<T> star{u, here[s - 1], here[s + 1], here[s - S::w], here[s + S::w]};
    const int64_t o = sw.in.offset(i, j, k);
    const Helmholtz3<T>& op = sw.op;
    const T ax = op.alpha * u - op.coef(c, o) * (lap(star, op.h) + lap_z(slot(m - 1)[s], u, slot(m + 1)[s], op.h));
    const T dx = sw.omega * (sw.b.comp(c)[o] - ax) / op.diag_at(i, j, k, c, o);
    return u + dx;
  }

  // The first colour's cells of plane m on the tile and the inner ring, in their slot; nothing on a
  // ghost plane.
  __device__ void first_colour(int m) const {
    const int k = src_z(m);
    if (k < 0 || k >= sw.in.nz) return;
    constexpr int per_row = (S::tx + 2) / 2, count = per_row * (S::ty + 2);
    for (int q = int(threadIdx.x); q < count; q += S::threads) {
      const int y = 1 + q / per_row;
      const int x = 1 + ((sw.first + y + m + 1) & 1) + 2 * (q % per_row);
      const int i = src_x(x), j = src_y(y);
      if (i < 0 || i >= sw.in.nx || j < 0 || j >= sw.in.ny) continue;
      const int s = y * S::w + x;
      slot(m)[s] = relaxed(m, s, i, j, k);
    }
  }

  // The second colour's cell of this thread on plane m's tile, then the pair of cells around it into
  // `out` with their images.
  __device__ void second_colour_and_write(int m) const {
    const int y = 2 + int(threadIdx.x) / (S::tx / 2), pair = int(threadIdx.x) % (S::tx / 2);
    const int x = 2 + ((sw.first + y + m + 1) & 1) + 2 * pair;
    const int i = i0 + x, j = j0 + y, nx = sw.in.nx;
    if (j >= sw.in.ny) return;
    const int s = y * S::w + x;
    const T v = i < nx ? relaxed(m, s, i, j, m) : T(0);
    const int first_x = 2 + 2 * pair, first_i = i0 + first_x;  // the pair's cells: first_i, first_i + 1
    const T a = first_x == x ? v : slot(m)[s - 1], e = first_x == x ? slot(m)[s + 1] : v;
    T* p = sw.out.comp(c) + sw.out.offset(first_i, j, m);
    if (first_i + 1 < nx) store_pair(p, a, e);
    else if (first_i < nx) p[0] = a;
    if (first_i < nx) push_cell_images(sw.out, sw.bc, c, first_i, j, m, a);
    if (first_i + 1 < nx) push_cell_images(sw.out, sw.bc, c, first_i + 1, j, m, e);
  }

  // Planes k0 - 2 .. k1 + 1 pass through the slots; plane m's first colour, then plane m - 1's second.
  __device__ void run(int k0, int k1) const {
    T r[S::loads];
    for (int m = k0 - 2; m < k0; ++m) {
      fetch(m, r);
      store(m, r);
    }
    fetch(k0, r);
    for (int m = k0 - 1; m <= k1; ++m) {
      store(m + 1, r);
      if (m + 2 <= k1 + 1) fetch(m + 2, r);
      __syncthreads();
      first_colour(m);
      __syncthreads();
      if (m - 1 >= k0) second_colour_and_write(m - 1);
    }
  }
};

template <class T>
__global__ void __launch_bounds__(Shape<T>::threads) tile_sweep3_kernel(const __grid_constant__ Sweep3<T> sw) {
  begin_dependent_grid();
  using S = Shape<T>;
  __shared__ __align__(16) T xs[S::slots][S::cells];
  const int runs = (sw.in.nz + sw.run - 1) / sw.run;
  const int c = int(blockIdx.z) / runs, k0 = int(blockIdx.z) % runs * sw.run, k1 = min(k0 + sw.run, sw.in.nz);
  const bool periodic[3] = {sw.bc.side[left][c].kind == BcKind::periodic, sw.bc.side[bottom][c].kind == BcKind::periodic,
                            sw.bc.side[front][c].kind == BcKind::periodic};
  const TileWalk<T> walk{sw, xs, c, int(blockIdx.x) * S::tx - 2, int(blockIdx.y) * S::ty - 2,
                         {periodic[0], periodic[1], periodic[2]}};
  walk.run(k0, k1);
}

}  // namespace tile_sweep3_detail

template <class T>
void rb_sweep3_into(const Cuda& ex, const Helmholtz3<T>& op, FieldView<const T> in, FieldView<const T> b,
                    FieldView<T> out, const FieldBoundary& bc, T omega, bool reverse) {
  using namespace tile_sweep3_detail;
  using S = Shape<T>;
  const CudaContext& ctx = *ex.context;
  const int tiles = ((in.nx + S::tx - 1) / S::tx) * ((in.ny + S::ty - 1) / S::ty) * in.ncomp;
  const int resident = ctx.resident_blocks(reinterpret_cast<const void*>(tile_sweep3_kernel<T>), S::threads, 0) *
                       ctx.multiprocessors();
  // Runs as long as keep the device busy: one wave of blocks at least, but no run shorter than min_planes.
  const int runs = std::clamp(resident / std::max(tiles, 1), 1, std::max(1, in.nz / S::min_planes));
  const int run = (in.nz + runs - 1) / runs;
  const dim3 grid(unsigned((in.nx + S::tx - 1) / S::tx), unsigned((in.ny + S::ty - 1) / S::ty),
                  unsigned(in.ncomp * ((in.nz + run - 1) / run)));
  launch(ctx, "tile_sweep3_kernel", tile_sweep3_kernel<T>, grid, dim3(S::threads), 0,
         Sweep3<T>{op, in, b, out, bc, omega, reverse ? 1 : 0, run});
}

template void rb_sweep3_into<float>(const Cuda&, const Helmholtz3<float>&, FieldView<const float>, FieldView<const float>,
                                    FieldView<float>, const FieldBoundary&, float, bool);
template void rb_sweep3_into<double>(const Cuda&, const Helmholtz3<double>&, FieldView<const double>,
                                     FieldView<const double>, FieldView<double>, const FieldBoundary&, double, bool);

}  // namespace pdex
