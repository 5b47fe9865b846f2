// rb_sweep3_into on CUDA: one red-black sweep of a 3D grid's seven-point operator out of place, in one
// launch and one pass over memory (the in-place sweep, relaxation3.hpp's color_sweep twice, reads and
// writes the whole field once a colour, each cell's word per colour sharing its sector with the other).
//
// A block takes a tile of tx x ty cells of every plane of a run of planes and walks up them, keeping
// five planes of the tile's region (the tile and a two-cell ring) of x and three of b in shared memory,
// copied asynchronously ahead of their use (region_copy.cuh). At plane m it
// relaxes the first colour's cells of plane m on the tile and the inner ring (they read only old values
// of the other colour, the planes below and above included), then the second colour's cells of plane
// m - 1 on the tile, whose six neighbours now hold their new values, and writes plane m - 1's tile.
// A region cell is the cell it stands for: across a periodic side the wrapped cell, whose update here
// is the one its own block makes; across another side the ghost, which keeps its old value through the
// sweep (its cell's update solves for it: Helmholtz3's diagonal). Each update is relax_point3's, on the
// same values in the same order, and each cell pushes its boundary images into `out` as color_sweep's
// do, so the result is the in-place sweep's bit for bit. The colouring must close across periodic axes
// (even lengths: colours_close). A block whose region lies inside the grid across x and y (`Inside`: no
// cell of it wraps or is a ghost there, and no tile cell has in-plane images) copies pairs of cells, and
// without a per-cell coefficient (`lean`) takes the diagonal off the z sides as one number, diag_at's at
// an inner cell: the per-cell tests and offsets are most of a sweep's instructions.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "pdex/core/cuda/cuda_check.hpp"
#include "pdex/core/cuda/cuda_context.hpp"
#include "pdex/core/cuda/launch.cuh"
#include "pdex/core/cuda/vec2.cuh"
#include "pdex/core/error.hpp"
#include "pdex/grid/boundary.hpp"
#include "pdex/linalg/cuda/region_copy.cuh"
#include "pdex/linalg/cuda/sweeps_cuda.hpp"
#include "pdex/linalg/helmholtz3.hpp"

namespace pdex {
namespace tile_sweep3_detail {

// A tile of tx x ty cells of a plane, its region with the two-cell ring w x h; five region planes of x
// and three of b in shared memory; a thread per tile cell of one colour (the ring's first-colour cells
// take a second round). tx is a multiple of 64 so that a tile's rows start on 128-byte lines. The sweep
// is bound by its instructions: 64 x 16 tiles (two blocks an SM in f64, 64 registers) redo fewer ring
// cells than 64 x 8 (four blocks) and ran faster in both precisions (docs/performance.md).
template <class T>
struct Shape {
  static constexpr int tx = 64, ty = 16, w = tx + 4, h = ty + 4, x_slots = 5, b_slots = 3;
  static constexpr int threads = tx * ty / 2, min_blocks = 2;
  static constexpr int cells = w * h;  // a region plane
  static constexpr int min_planes = 16;  // a block's run, at least
  static constexpr std::size_t shared = std::size_t(x_slots + b_slots) * cells * sizeof(T);
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

using tile_sweep_detail::copy_async;
using tile_sweep_detail::source;

// One component's sweep of a block's tile over planes k0 .. k1 - 1.
template <class T, bool Inside>
struct TileWalk {
  using S = Shape<T>;
  const Sweep3<T>& sw;
  T* xs;  // x's region planes, plane m in slot m % x_slots
  T* bs;  // b's, plane m in slot m % b_slots
  int c, i0, j0;  // the component; the region's first cell (two before the tile's)
  bool periodic[3];
  bool lean;  // no per-cell coefficient
  T inner_diag;  // where lean and Inside: the diagonal of every cell off the z sides

  __device__ int src_x(int x) const { return Inside ? i0 + x : source(i0 + x, sw.in.nx, periodic[0]); }
  __device__ int src_y(int y) const { return Inside ? j0 + y : source(j0 + y, sw.in.ny, periodic[1]); }
  __device__ int src_z(int m) const { return source(m, sw.in.nz, periodic[2]); }
  __device__ static int slot(int m, int slots) { return ((m % slots) + slots) % slots; }
  __device__ T* x_at(int m) const { return xs + slot(m, S::x_slots) * S::cells; }
  __device__ T* b_at(int m) const { return bs + slot(m, S::b_slots) * S::cells; }
  // Slot s + d of a ring of n (|d| < n), without the divisions of slot(): the walk steps its slots.
  __device__ static int ring(int s, int d, int n) {
    const int r = s + d;
    return r >= n ? r - n : r < 0 ? r + n : r;
  }

  // What a point update of a plane reads: x of the planes below, at and above it, and b of it.
  struct Planes {
    T *below, *at, *above;
    const T* b;
  };
  // Those of the plane whose x is in slot xm and b in slot bm.
  __device__ Planes planes(int xm, int bm) const {
    return {xs + ring(xm, -1, S::x_slots) * S::cells, xs + xm * S::cells, xs + ring(xm, 1, S::x_slots) * S::cells,
            bs + bm * S::cells};
  }

  // Copies: Inside, a thread's pairs of region cells (the region starts at an even column, aligned for
  // them; pair k of the region is at slot 2k, as w is even), else its cells, cell by cell from the cells
  // they stand for. `at` holds their offsets within a plane (every plane's and field's alike), made once:
  // worked out on every plane, they were a third of the instructions of the blocks inside.
  static constexpr int pairs = S::w / 2 * S::h;
  static constexpr int shares = ((Inside ? pairs : S::cells) + S::threads - 1) / S::threads;
  __device__ void region_offsets(int64_t (&at)[shares]) const {
#pragma unroll
    for (int q = 0; q < shares; ++q) {
      const int k = int(threadIdx.x) + q * S::threads;
      if constexpr (Inside) at[q] = k < pairs ? sw.in.offset(i0 + 2 * (k % (S::w / 2)), j0 + k / (S::w / 2)) : 0;
      else at[q] = k < S::cells ? sw.in.offset(src_x(k % S::w), src_y(k / S::w)) : 0;
    }
  }

  // Starts copying region plane m of field f into `to`.
  __device__ void fetch(const FieldView<const T>& f, int m, T* to, const int64_t (&at)[shares]) const {
    const T* p = f.comp(c) + int64_t(src_z(m)) * f.plane;
#pragma unroll
    for (int q = 0; q < shares; ++q) {
      const int k = int(threadIdx.x) + q * S::threads;
      if constexpr (Inside) {
        if (k < pairs) copy_async<2 * sizeof(T)>(to + 2 * k, p + at[q]);
      } else if (k < S::cells) {
        copy_async<sizeof(T)>(to + k, p + at[q]);
      }
    }
  }

  // The relaxed value of region cell s of plane p, whose source cell is (i, j, k): relax_point3's update
  // on the region's values.
  __device__ T relaxed(const Planes& p, int s, int i, int j, int k) const {
    const T* here = p.at;
    const T u = here[s];
    const Star<T> star{u, here[s - 1], here[s + 1], here[s - S::w], here[s + S::w]};
    const Helmholtz3<T>& op = sw.op;
    const bool flat = Inside && lean;  // no offset needed, and off the z sides one diagonal
    const int64_t o = flat ? 0 : sw.in.offset(i, j, k);
    const T ax = op.alpha * u - (flat ? op.beta[c] : op.coef(c, o)) * (lap(star, op.h) + lap_z(p.below[s], u, p.above[s], op.h));
    const T diag = flat && k > 0 && k < sw.in.nz - 1 ? inner_diag : op.diag_at(i, j, k, c, o);
    const T dx = sw.omega * (p.b[s] - ax) / diag;
    return u + dx;
  }

  // This thread's cells of the first colour on the tile and the inner ring: their rows y and columns x0
  // (x0 + 1 on planes where the colour's first cell of the row is the odd one), made once.
  static constexpr int per_row = (S::tx + 2) / 2, first_count = per_row * (S::ty + 2);
  static constexpr int first_shares = (first_count + S::threads - 1) / S::threads;
  struct FirstCells {
    int y[first_shares], x0[first_shares];
  };
  __device__ static FirstCells first_cells() {
    FirstCells f{};
#pragma unroll
    for (int n = 0; n < first_shares; ++n) {
      const int q = int(threadIdx.x) + n * S::threads;
      f.y[n] = 1 + q / per_row, f.x0[n] = 1 + 2 * (q % per_row);
    }
    return f;
  }

  // The first colour's cells of plane m (its slots p) on the tile and the inner ring, in their slot;
  // nothing on a ghost plane.
  __device__ void first_colour(int m, const Planes& p, const FirstCells& f) const {
    const int k = src_z(m);
    if (k < 0 || k >= sw.in.nz) return;
#pragma unroll
    for (int n = 0; n < first_shares; ++n) {
      if (int(threadIdx.x) + n * S::threads >= first_count) break;
      const int y = f.y[n], x = f.x0[n] + ((sw.first + y + m + 1) & 1);
      const int i = src_x(x), j = src_y(y);
      if (!Inside && (i < 0 || i >= sw.in.nx || j < 0 || j >= sw.in.ny)) continue;
      const int s = y * S::w + x;
      p.at[s] = relaxed(p, s, i, j, k);
    }
  }

  // This thread's pair of tile cells (first_x, y) and (first_x + 1, y), and where the pair goes in `out`'s
  // plane 0, made once.
  struct Pair {
    int y, first_x;
    T* out;
  };
  __device__ Pair pair() const {
    const int y = 2 + int(threadIdx.x) / (S::tx / 2), first_x = 2 + 2 * (int(threadIdx.x) % (S::tx / 2));
    return {y, first_x, sw.out.comp(c) + sw.out.offset(i0 + first_x, j0 + y)};
  }

  // The second colour's cell of this thread's pair on plane m's tile (its slots p), then the pair into
  // `out` with their images.
  __device__ void second_colour_and_write(int m, const Planes& p, const Pair& q) const {
    const int y = q.y, x = q.first_x + ((sw.first + y + m + 1) & 1);
    const int i = i0 + x, j = j0 + y, nx = sw.in.nx;
    if (!Inside && j >= sw.in.ny) return;
    const int s = y * S::w + x;
    const T v = Inside || i < nx ? relaxed(p, s, i, j, m) : T(0);
    const int first_x = q.first_x, first_i = i0 + first_x;  // the pair's cells: first_i, first_i + 1
    const T a = first_x == x ? v : p.at[s - 1], e = first_x == x ? p.at[s + 1] : v;
    T* to = q.out + int64_t(m) * sw.out.plane;
    if (Inside) {  // images across z only
      store_pair(to, a, e);
      push_z_images(sw.out, sw.bc, c, first_i, j, m, a);
      push_z_images(sw.out, sw.bc, c, first_i + 1, j, m, e);
      return;
    }
    if (first_i + 1 < nx) store_pair(to, a, e);
    else if (first_i < nx) to[0] = a;
    if (first_i < nx) push_cell_images(sw.out, sw.bc, c, first_i, j, m, a);
    if (first_i + 1 < nx) push_cell_images(sw.out, sw.bc, c, first_i + 1, j, m, e);
  }

  // Planes k0 - 2 .. k1 + 1 of x pass through the slots, copied two planes ahead of their first use (b's
  // one ahead); plane m's first colour, then plane m - 1's second.
  __device__ void run(int k0, int k1) const {
    int64_t at[shares];
    region_offsets(at);
    const FirstCells first = first_cells();
    const Pair own = pair();
    for (int m = k0 - 2; m <= k0; ++m) fetch(sw.in, m, x_at(m), at);
    fetch(sw.b, k0 - 1, b_at(k0 - 1), at);
    __pipeline_commit();
    int xm = slot(k0 - 1, S::x_slots), bm = slot(k0 - 1, S::b_slots);  // plane m's slots
    for (int m = k0 - 1; m <= k1; ++m) {
      __pipeline_wait_prior(0);
      __syncthreads();  // x up to plane m + 1 and b up to m are in, and plane m - 3's slot is free
      if (m + 2 <= k1 + 1) fetch(sw.in, m + 2, xs + ring(xm, 2, S::x_slots) * S::cells, at);
      if (m + 1 <= k1) fetch(sw.b, m + 1, bs + ring(bm, 1, S::b_slots) * S::cells, at);
      __pipeline_commit();
      first_colour(m, planes(xm, bm), first);
      __syncthreads();
      if (m - 1 >= k0) second_colour_and_write(m - 1, planes(ring(xm, -1, S::x_slots), ring(bm, -1, S::b_slots)), own);
      xm = ring(xm, 1, S::x_slots), bm = ring(bm, 1, S::b_slots);
    }
  }
};

template <class T>
__global__ void __launch_bounds__(Shape<T>::threads, Shape<T>::min_blocks) tile_sweep3_kernel(const __grid_constant__ Sweep3<T> sw) {
  begin_dependent_grid();
  using S = Shape<T>;
  extern __shared__ __align__(16) unsigned char shared[];
  T* xs = reinterpret_cast<T*>(shared);
  const int runs = (sw.in.nz + sw.run - 1) / sw.run;
  const int c = int(blockIdx.z) / runs, k0 = int(blockIdx.z) % runs * sw.run, k1 = min(k0 + sw.run, sw.in.nz);
  const bool periodic[3] = {sw.bc.side[left][c].kind == BcKind::periodic, sw.bc.side[bottom][c].kind == BcKind::periodic,
                            sw.bc.side[front][c].kind == BcKind::periodic};
  const int i0 = int(blockIdx.x) * S::tx - 2, j0 = int(blockIdx.y) * S::ty - 2;
  const bool lean = sw.op.d[c] == nullptr;
  T* bs = xs + S::x_slots * S::cells;
  if (i0 >= 0 && j0 >= 0 && i0 + S::w <= sw.in.nx && j0 + S::h <= sw.in.ny) {
    const T inner = lean ? sw.op.diag_at(1, 1, 1, c, 0) : T(0);  // (1, 1, 1) is an inner cell where a
    // plane has one off the z sides (nz >= 3); with fewer planes every update takes diag_at
    TileWalk<T, true>{sw, xs, bs, c, i0, j0, {periodic[0], periodic[1], periodic[2]}, lean, inner}.run(k0, k1);
  } else {
    TileWalk<T, false>{sw, xs, bs, c, i0, j0, {periodic[0], periodic[1], periodic[2]}, lean, T(0)}.run(k0, k1);
  }
}

}  // namespace tile_sweep3_detail

template <class T>
void rb_sweep3_into(const Cuda& ex, const Helmholtz3<T>& op, FieldView<const T> in, FieldView<const T> b,
                    FieldView<T> out, const FieldBoundary& bc, T omega, bool reverse) {
  using namespace tile_sweep3_detail;
  using S = Shape<T>;
  const CudaContext& ctx = *ex.context;
  const int tiles = ((in.nx + S::tx - 1) / S::tx) * ((in.ny + S::ty - 1) / S::ty) * in.ncomp;
  const int resident =
      ctx.resident_blocks(reinterpret_cast<const void*>(tile_sweep3_kernel<T>), S::threads, S::shared) * ctx.multiprocessors();
  if (resident < 1) throw Error("tile_sweep3_kernel: " + std::to_string(S::shared) + " bytes of shared memory a block do not fit");
  // Runs short enough for about four waves of blocks (a last wave partly full costs little), none
  // shorter than min_planes.
  const int runs = std::clamp((4 * resident + tiles - 1) / std::max(tiles, 1), 1, std::max(1, in.nz / S::min_planes));
  const int run = (in.nz + runs - 1) / runs;
  const dim3 grid(unsigned((in.nx + S::tx - 1) / S::tx), unsigned((in.ny + S::ty - 1) / S::ty),
                  unsigned(in.ncomp * ((in.nz + run - 1) / run)));
  launch(ctx, "tile_sweep3_kernel", tile_sweep3_kernel<T>, grid, dim3(S::threads), S::shared,
         Sweep3<T>{op, in, b, out, bc, omega, reverse ? 1 : 0, run});
}

template void rb_sweep3_into<float>(const Cuda&, const Helmholtz3<float>&, FieldView<const float>, FieldView<const float>,
                                    FieldView<float>, const FieldBoundary&, float, bool);
template void rb_sweep3_into<double>(const Cuda&, const Helmholtz3<double>&, FieldView<const double>,
                                     FieldView<const double>, FieldView<double>, const FieldBoundary&, double, bool);

}  // namespace pdex
