#pragma once
// The relaxation sweeps on CUDA, one launch each over shared-memory tiles: rb_sweep_into, one red-black
// sweep out of place with each cell updated once, x and b read once and x written once (two launches,
// relaxation.hpp's rb_sweep, move the whole field twice: red and black cells share cache lines, so each
// colour's pass reads and writes all of them); and jacobi_sweep.
//
// A block relaxes a tile of tx x ty cells (TileShape). It copies one component's x and b on the tile and a two-cell ring
// into shared memory, all copies in flight at once (cp.async: a sweep does little arithmetic per byte, so its
// speed is the number of bytes in flight), updates the first colour's cells on the tile and the inner ring
// (they read only old values of the other colour), then the second colour's tile cells, which now see their
// neighbours' new values, and writes the tile (pairs of cells as one vector: two scalar stores would each
// write half of every sector, doubling the write traffic through L2). A ring cell is the cell it stands for:
// across a periodic side the cell it wraps to, whose update here is the one its own block makes (same
// inputs); across a Neumann or Dirichlet side the ghost, an image of the cell beside it, which keeps its old
// value as in rb_sweep. That needs the colouring to close across every periodic axis (even lengths); the
// other grids take the copy-and-sweep path. A Jacobi sweep updates every tile cell from the old values.
// Sweeps that ping-pong between two fields alternate the order of their blocks (core/cuda/block_order.cuh).
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "pdex/core/cuda/block_order.cuh"
#include "pdex/core/cuda/cuda_check.hpp"
#include "pdex/core/cuda/cuda_context.hpp"
#include "pdex/core/cuda/parallel_cuda.cuh"
#include "pdex/core/cuda/vec2.cuh"
#include "pdex/grid/boundary.hpp"
#include "pdex/linalg/helmholtz.hpp"
#include "pdex/linalg/relaxation.hpp"

namespace pdex {
namespace tile_sweep_detail {

// A tile of tx x ty cells, its region with the two-cell ring w x h, a block of `threads` threads, and at
// least `min_blocks` blocks a multiprocessor. f32 sweeps are bound by latency more than f64 ones (twice
// the cells per byte): 64x16 tiles of 128 threads, nine a multiprocessor, made them 2-4% faster on the
// H100 than 64x32 tiles of 256 threads, four a multiprocessor (red-black at 4096^2: 82% -> 85% of the
// bandwidth bound), while f64 sweeps, at 95% with the larger tiles, got slower with the smaller.
template <class T>
struct TileShape {
  static constexpr bool f32 = sizeof(T) == sizeof(float);
  static constexpr int tx = 64, ty = f32 ? 16 : 32, w = tx + 4, h = ty + 4;
  static constexpr int threads = f32 ? 128 : 256, min_blocks = f32 ? 9 : 4;
};

// Where region coordinate i (grid index, may lie outside) reads from: the cell itself inside, the
// wrapped cell across a periodic side, the ghost (-1 or n) across another side; beyond the ghost the
// value is never used, so the ghost serves.
__device__ inline int source(int i, int n, bool periodic) {
  if (i >= 0 && i < n) return i;
  if (periodic) return ((i % n) + n) % n;
  return i < 0 ? -1 : n;
}

__device__ inline bool inside(int i, int n, bool periodic) { return periodic || (i >= 0 && i < n); }

template <class T>
struct Sweep {
  Helmholtz<T> op;
  FieldView<const T> in, b;
  FieldView<T> out;
  FieldBoundary bc;
  T omega;
  int first;  // the colour, (i + j) % 2, relaxed first; -1 for a Jacobi sweep
};

// An asynchronous copy of Bytes (4, 8 or 16) from global to shared memory through L1 (cp.async.ca),
// which merges a warp's copies into whole sectors. __pipeline_memcpy_async makes its 16-byte copies
// bypass L1 (.cg), and those fetched 1.8 times the sectors from L2 (Nsight Compute, f64 at 4096^2).
template <int Bytes>
__device__ inline void copy_async(void* dst, const void* src) {
  const unsigned to = unsigned(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"(to), "l"(src), "n"(Bytes) : "memory");
}

__device__ inline double abs_max(double m, double d) { return cuda_detail::max_or_infinity(m, d < 0 ? -d : d); }

// One component's sweep of a block's region, which starts at grid cell (i0, j0) (two cells below and
// left of the tile, at even coordinates, so a region cell's colour is (x + y) % 2 in region
// coordinates (x, y), wrapped or not: periodic lengths are even). `Inside`: the region lies inside
// the grid, so no cell of it wraps or is a ghost, and no tile cell has boundary images. `Lean`: inside,
// and without a per-cell coefficient, so a point update needs neither the cell's offset nor its
// diagonal tests (a sweep in f32 is bound by instructions, and those were a third of them).
// `Measure`: the largest change on the tile is kept.
template <bool Inside, bool Lean, bool Measure, class T>
struct TileSweep {
  static_assert(Inside || !Lean);
  static constexpr int tx = TileShape<T>::tx, ty = TileShape<T>::ty, w = TileShape<T>::w, h = TileShape<T>::h;
  static constexpr int threads = TileShape<T>::threads;
  const Sweep<T>& sw;
  Helmholtz<T> op;  // component c's coefficients as component 0 (constant indices keep them in registers)
  T* xs;
  T* bs;
  int c, i0, j0;
  bool px, py;  // periodic axes of this component

  __device__ int grid_x(int x) const { return Inside ? i0 + x : source(i0 + x, sw.in.nx, px); }
  __device__ int grid_y(int y) const { return Inside ? j0 + y : source(j0 + y, sw.in.ny, py); }

  // The change the point update makes at region cell (x, y), index r = y * w + x.
  __device__ T change(int r, int x, int y) const {
    const T* s = xs + r;
    if constexpr (Lean) {
      return sw.omega * (bs[r] - op.apply5_with(op.beta[0], s[0], s[-1], s[1], s[-w], s[w])) * op.inner_inv[0];
    } else {
      const int i = grid_x(x), j = grid_y(y);
      const int64_t o = sw.in.offset(i, j);
      return sw.omega * (bs[r] - op.apply5(0, o, s[0], s[-1], s[1], s[-w], s[w])) * op.inv_diag(i, j, 0, o);
    }
  }

  // x and b of the region into shared memory, every copy in flight before the block waits for them;
  // inside the grid two values per copy (the region starts at an even column, on an 8- or 16-byte
  // boundary), elsewhere one, each from the cell its region cell stands for.
  __device__ void load() const {
    const T* x = sw.in.comp(c);
    const T* b = sw.b.comp(c);
    if constexpr (Inside) {
      // A warp a row: lane l copies pair l, and lanes below w / 2 - 32 pair l + 32 too.
      static_assert(w / 2 > 32 && w / 2 <= 64);
      constexpr int warps = threads / 32;
      const int lane = int(threadIdx.x) % 32, y0 = int(threadIdx.x) / 32;
      const T* xg = x + sw.in.offset(i0 + 2 * lane, j0 + y0);
      const T* bg = b + sw.b.offset(i0 + 2 * lane, j0 + y0);
      T* xd = xs + y0 * w + 2 * lane;
      T* bd = bs + y0 * w + 2 * lane;
      const bool second = lane < w / 2 - 32;
      for (int y = y0; y < h; y += warps) {
        copy_async<2 * sizeof(T)>(xd, xg);
        copy_async<2 * sizeof(T)>(bd, bg);
        if (second) {
          copy_async<2 * sizeof(T)>(xd + 64, xg + 64);
          copy_async<2 * sizeof(T)>(bd + 64, bg + 64);
        }
        xg += warps * sw.in.pitch, bg += warps * sw.b.pitch, xd += warps * w, bd += warps * w;
      }
    } else {
      for (int k = int(threadIdx.x); k < w * h; k += threads) {
        const int y = k / w, m = k - y * w, i = grid_x(m), j = grid_y(y);
        copy_async<sizeof(T)>(xs + k, x + sw.in.offset(i, j));
        copy_async<sizeof(T)>(bs + k, b + sw.b.offset(i, j));
      }
    }
    __pipeline_commit();
    __pipeline_wait_prior(0);
  }

  // The first colour on the tile and its inner ring: (w - 2) / 2 cells in each of rows 1 .. h - 2.
  __device__ void first_colour(double& largest) const {
    constexpr int per_row = (w - 2) / 2, cells = per_row * (h - 2);
#pragma unroll
    for (int n = 0; n < (cells + threads - 1) / threads; ++n) {
      const int k = int(threadIdx.x) + n * threads;
      if (k >= cells) break;
      const int y = 1 + k / per_row;
      const int x = 1 + 2 * (k % per_row) + ((sw.first + 1 + y) & 1);
      if (!Inside && !(inside(i0 + x, sw.in.nx, px) && inside(j0 + y, sw.in.ny, py))) continue;  // ghosts keep
      const T d = change(y * w + x, x, y);
      xs[y * w + x] += d;
      const bool on_tile = x >= 2 && x < w - 2 && y >= 2 && y < h - 2;
      if (Measure && on_tile) largest = abs_max(largest, double(d));
    }
  }

  // Region cell (x, y) after the sweep: the first colour's new value, or the second colour's (every
  // cell's, in a Jacobi sweep) update from the values around.
  __device__ T swept(int x, int y, double& largest) const {
    const int r = y * w + x;
    T v = xs[r];
    if (((x + y) & 1) != sw.first) {
      const T d = change(r, x, y);
      v += d;
      if (Measure) largest = abs_max(largest, double(d));
    }
    return v;
  }

  // The tile, a pair of cells per thread; inside the grid the pair is stored as one vector (an even
  // column is aligned for it), a warp a row, the row pointer advanced by the pitch.
  __device__ void second_colour_and_store(double& largest) const {
    constexpr int pairs = tx / 2, rows_per_pass = threads / pairs;
    if constexpr (Inside) {
      static_assert(threads % pairs == 0 && ty % rows_per_pass == 0);
      const int x = 2 + 2 * (int(threadIdx.x) % pairs), y0 = 2 + int(threadIdx.x) / pairs;
      T* out = sw.out.comp(c) + sw.out.offset(i0 + x, j0 + y0);
#pragma unroll
      for (int y = y0; y < ty + 2; y += rows_per_pass, out += rows_per_pass * sw.out.pitch)
        store_pair(out, swept(x, y, largest), swept(x + 1, y, largest));
    } else {
      for (int k = int(threadIdx.x); k < pairs * ty; k += threads) {
        const int y = 2 + k / pairs, x = 2 + 2 * (k % pairs);
        const int i = i0 + x, j = j0 + y;
        if (j >= sw.in.ny) break;
#pragma unroll
        for (int q = 0; q < 2 && i + q < sw.in.nx; ++q) {
          const T v = swept(x + q, y, largest);
          sw.out.comp(c)[sw.out.offset(i + q, j)] = v;
          if (near_boundary(sw.out, i + q, j)) push_ghosts(sw.out, sw.bc, c, i + q, j, v);
        }
      }
    }
  }

  __device__ void run(double& largest) const {
    load();
    __syncthreads();
    if (sw.first >= 0) {
      first_colour(largest);
      __syncthreads();
    }
    second_colour_and_store(largest);
  }
};

template <bool Measure, class T>
__global__ void __launch_bounds__(TileShape<T>::threads, TileShape<T>::min_blocks)
    tile_sweep_kernel(Sweep<T> sw, bool reversed_blocks, unsigned long long* word, unsigned* done, double* result,
                      volatile unsigned* flag, unsigned ticket) {
  begin_dependent_grid();
  using S = TileShape<T>;
  __shared__ __align__(16) T xs[S::w * S::h];
  __shared__ __align__(16) T bs[S::w * S::h];
  const int i0 = block_x(reversed_blocks) * S::tx - 2, j0 = block_y(reversed_blocks) * S::ty - 2;
  const bool inside_grid = i0 >= 0 && j0 >= 0 && i0 + S::w <= sw.in.nx && j0 + S::h <= sw.in.ny;
  double largest = 0;
  for (int c = 0; c < sw.in.ncomp; ++c) {
    if (c > 0) __syncthreads();  // the last component's tile is written
    const Helmholtz<T> op = sw.op.component(c);
    const bool px = sw.bc.side[left][c].kind == BcKind::periodic;
    const bool py = sw.bc.side[bottom][c].kind == BcKind::periodic;
    if (inside_grid && !op.d[0]) TileSweep<true, true, Measure, T>{sw, op, xs, bs, c, i0, j0, px, py}.run(largest);
    else if (inside_grid) TileSweep<true, false, Measure, T>{sw, op, xs, bs, c, i0, j0, px, py}.run(largest);
    else TileSweep<false, false, Measure, T>{sw, op, xs, bs, c, i0, j0, px, py}.run(largest);
  }
  if (Measure) cuda_detail::fold_block_max<S::threads>(largest, word, done, result, flag, ticket);
}

// Periodic axes of odd length: the colouring does not close across the wrap.
inline bool colours_close(int nx, int ny, int ncomp, const FieldBoundary& bc) {
  for (int c = 0; c < ncomp; ++c) {
    if (bc.side[left][c].kind == BcKind::periodic && nx % 2) return false;
    if (bc.side[bottom][c].kind == BcKind::periodic && ny % 2) return false;
  }
  return true;
}

// One launch of the sweep; returns the largest |change| when `measure` (waiting for it), else 0.
template <class T>
T launch_sweep(const Cuda& ex, const Sweep<T>& sw, bool measure) {
  using S = TileShape<T>;
  const dim3 grid(unsigned((sw.in.nx + S::tx - 1) / S::tx), unsigned((sw.in.ny + S::ty - 1) / S::ty));
  const CudaContext& ctx = *ex.context;
  double* result = static_cast<double*>(ctx.pinned_result());
  const unsigned ticket = measure ? ctx.next_ticket() : 0;
  const bool reversed_blocks = reverse_block_order(sw.in.data, sw.out.data);
  auto kernel = measure ? tile_sweep_kernel<true, T> : tile_sweep_kernel<false, T>;
  launch(ctx, "tile_sweep_kernel", kernel, grid, dim3(S::threads), 0, sw, reversed_blocks, ctx.max_word(),
         ctx.reduce_count(), result, ctx.pinned_flag(), ticket);
  if (!measure) return T(0);
  ctx.wait_for(ticket);
  return T(*result);
}

}  // namespace tile_sweep_detail

template <class T>
T rb_sweep_into(const Cuda& ex, const Helmholtz<T>& op, FieldView<const T> in, FieldView<const T> b, FieldView<T> out,
                const FieldBoundary& bc, T omega, bool reverse, bool measure) {
  using namespace tile_sweep_detail;
  if (!colours_close(in.nx, in.ny, in.ncomp, bc))
    return detail::copy_and_sweep(ex, op, in, b, out, bc, omega, reverse, measure);
  return launch_sweep(ex, Sweep<T>{op.refreshed(), in, b, out, bc, omega, reverse ? 1 : 0}, measure);
}

template <class T>
T jacobi_sweep(const Cuda& ex, const Helmholtz<T>& op, FieldView<const T> in, FieldView<const T> b, FieldView<T> out,
               const FieldBoundary& bc, T omega, bool measure) {
  return tile_sweep_detail::launch_sweep(ex, tile_sweep_detail::Sweep<T>{op.refreshed(), in, b, out, bc, omega, -1},
                                         measure);
}

}  // namespace pdex
