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
//
// Sweeps may be queued with change tests on the device (device_relaxation.hpp's SweepLog and
// DeviceRelaxation::queued): a queued sweep first reads whether a test before it passed, and a tested one folds its
// largest change into the test's row. A sweep that measures its change for the host is a queue of one.
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "pdex/core/cuda/block_order.cuh"
#include "pdex/core/cuda/cuda_check.hpp"
#include "pdex/core/cuda/cuda_context.hpp"
#include "pdex/core/cuda/parallel_cuda.cuh"
#include "pdex/core/cuda/vec2.cuh"
#include "pdex/core/error.hpp"
#include "pdex/grid/boundary.hpp"
#include "pdex/linalg/grid_ops.hpp"
#include "pdex/linalg/helmholtz.hpp"
#include "pdex/linalg/cuda/region_copy.cuh"
#include "pdex/linalg/cuda/sweeps_cuda.hpp"

namespace pdex {
namespace tile_sweep_detail {

// A tile of tx x ty cells, its region with the two-cell ring w x h, a block of `threads` threads, and at
// least `min_blocks` blocks a multiprocessor. f32 sweeps are bound by latency more than f64 ones (twice
// the cells per byte), so they take 64x16 tiles of 128 threads, nine a multiprocessor, for more blocks in
// flight; f64 sweeps, near the bandwidth bound already, keep 64x32 tiles of 256 threads, four a
// multiprocessor, and would lose with the smaller.
template <class T>
struct TileShape {
  static constexpr bool f32 = sizeof(T) == sizeof(float);
  static constexpr int tx = 64, ty = f32 ? 16 : 32, w = tx + 4, h = ty + 4;
  static constexpr int threads = f32 ? 128 : 256, min_blocks = f32 ? 9 : 4;
};

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

// The largest |change| of a thread's cells, kept as the bits of |change|, which order as the values do
// with NaN above +infinity: two integer instructions a cell, where a maximum in double cost a conversion
// and a NaN test (the f32 sweeps are bound by their instructions).
template <class T>
struct LargestChange {
  static constexpr bool f32 = sizeof(T) == sizeof(float);
  using Bits = std::conditional_t<f32, unsigned, unsigned long long>;
  Bits bits = 0;

  __device__ void add(T d) {
    Bits b;
    if constexpr (f32) b = __float_as_uint(d) & 0x7fffffffu;
    else b = static_cast<Bits>(__double_as_longlong(d)) & 0x7fffffffffffffffull;
    bits = b > bits ? b : bits;
  }
  // Into this block's word of a test's row (SweepLog), by an atomic whose value no thread waits for.
  __device__ void fold_into(unsigned long long* row) const {
    if (bits == 0) return;
    const unsigned block = blockIdx.y * gridDim.x + blockIdx.x;
    atomicMax(row + block % SweepLog::words, static_cast<unsigned long long>(__double_as_longlong(value())));
  }
  __device__ double value() const {  // NaN as +infinity
    T v;
    if constexpr (f32) v = __uint_as_float(bits);
    else v = __longlong_as_double(static_cast<long long>(bits));
    return v == v ? double(v) : __longlong_as_double(0x7ff0000000000000ll);
  }
};

// The largest of a warp's values (bits of values >= 0, which order as the values do).
__device__ inline unsigned warp_max(unsigned m) { return __reduce_max_sync(0xffffffffu, m); }
__device__ inline unsigned long long warp_max(unsigned long long m) {
  for (int off = 16; off > 0; off /= 2) {
    const unsigned long long o = __shfl_xor_sync(0xffffffffu, m, off);
    m = o > m ? o : m;
  }
  return m;
}

// The queue's state as warp 0 reads it at a queued sweep's start (SweepLog): the stop word and, after a
// tested sweep, a word of that test's row a lane. Loaded with the first tile, so that neither waits for
// the other (a sweep stopped this way has read its first component's tile for nothing), and through L1,
// like the tiles (cp.async.ca): the grids before have finished (begin_dependent_grid), and a block that
// reads a stop word from before block 0 of its own grid wrote it decides the same from the row.
struct QueuePeek {
  unsigned stop = 0;
  unsigned long long word = 0;
};

// `L2`: read through L2 only, as a kernel must that reads what other blocks of its grid wrote
// (resident_sweep.cuh).
template <bool L2 = false, class W>
__device__ inline W queue_word(const W* p) {
  return L2 ? __ldcg(p) : __ldca(p);
}

template <bool L2 = false>
__device__ inline QueuePeek peek_queue(QueuedTest q) {
  static_assert(SweepLog::words == 32 && SweepLog::sum_words <= 32);
  QueuePeek p;
  if (threadIdx.x < 32) {
    p.stop = queue_word<L2>(&q.log->stop);
    const SweepLog::Row& row = q.log->rows[q.previous >= 0 ? q.previous : 0];
    if (q.previous >= 0 && !q.residual) p.word = queue_word<L2>(&row.largest[threadIdx.x]);
    if (q.previous >= 0 && q.residual && threadIdx.x < SweepLog::sum_words)
      p.word = static_cast<unsigned long long>(__double_as_longlong(queue_word<L2>(&row.residual2[threadIdx.x])));
  }
  return p;
}

// The sum of a warp's doubles, the same in every block (a fixed order of additions).
__device__ inline double warp_sum(double v) {
  for (int off = 16; off > 0; off /= 2) v += __shfl_xor_sync(0xffffffffu, v, off);
  return v;
}

// Whether the log's stop word (0, or 1 + the test that passed) names a test before the launch whose
// test before is `previous` (-1: none, so any test that passed was earlier). A record of that test or a
// later one is block 0's of the same decision, which a resident queue's blocks make for a round's tests
// at once (resident_sweep.cuh's first_passed): it decides nothing.
__device__ inline bool stopped_before(unsigned stop, int previous) {
  return stop != 0 && (previous < 0 || int(stop) <= previous);
}

// Warp 0 decides whether the launch has nothing to do: a test before it passed, or the test of the
// launch just before passes now (its largest change, or its |b - A x|^2), which block 0 records for the
// launches after. A barrier must follow. Returns the decision in thread 0 (false elsewhere).
__device__ inline bool decide_queue(QueuedTest q, QueuePeek p, bool& stopped) {
  if (threadIdx.x >= 32) return false;
  const bool after_test = q.previous >= 0;
  double value = 0;
  if (after_test && q.residual) value = warp_sum(__longlong_as_double(static_cast<long long>(p.word)));
  if (after_test && !q.residual) value = __longlong_as_double(static_cast<long long>(warp_max(p.word)));
  if (threadIdx.x != 0) return false;
  const bool passed = after_test && value < q.below;  // not +inf or NaN
  stopped = stopped_before(p.stop, q.previous) || passed;
  if (passed && p.stop == 0 && blockIdx.x == 0 && blockIdx.y == 0) q.log->stop = unsigned(q.previous) + 1;
  return stopped;
}

// A block's largest change into its word of the test's row (SweepLog), by an atomic whose value no
// thread waits for. (An atomic a warp would be four times as many on the row's two cache lines.)
template <int Threads, class T>
__device__ void fold_into_row(LargestChange<T> largest, unsigned long long* row) {
  using Bits = typename LargestChange<T>::Bits;
  largest.bits = cuda_detail::block_reduce<Bits, Max<Bits>, Threads>(largest.bits, Max<Bits>{});
  if (threadIdx.x == 0) largest.fold_into(row);
}

// A block's sum into its word of the test's row (the words are added in a fixed order by all who read).
template <int Threads>
__device__ void add_into_row(double s, double* row) {
  s = cuda_detail::block_reduce<double, Sum<double>, Threads>(s, Sum<double>{});
  if (threadIdx.x == 0 && s != 0) atomicAdd(row + (blockIdx.y * gridDim.x + blockIdx.x) % SweepLog::sum_words, s);
}

// The inverse diagonals of a region that crosses the grid's sides, for an operator without per-cell
// coefficients: Helmholtz::inv_diag's values by whether a cell lies in the grid's first or last column
// and row, inv[column[x] + row[y]] at region cell (x, y): a table lookup in place of inv_diag's tests,
// offset and division at every cell of the blocks along the sides, for which a resident queue's blocks
// wait at each grid barrier (resident_sweep.cuh).
template <class T, int W, int H>
struct SideInverses {
  static constexpr int ghost = 16;  // in column[x] or row[y]: the cell is a ghost
  T inv[2 * ghost + 1];             // 0 from `ghost` on: a ghost's change is 0 (change_or_zero)
  unsigned char column[W], row[H];  // 4 * (first column + 2 * last column); first row + 2 * last row
};

// One component's region of a block in shared memory, W x H cells from grid cell (i0, j0) (at even
// coordinates, so a region cell's colour is (x + y) % 2 in region coordinates (x, y), wrapped or not:
// periodic lengths are even), around a tile `Ring` cells in from its edges; what a single sweep
// (TileSweep) and fused sweeps (fused_sweep.cuh) share. `Inside`: the region lies inside the grid, so
// no cell of it wraps or is a ghost, and no tile cell has boundary images. `Lean`: without a per-cell
// coefficient, so a point update needs neither the cell's offset nor its diagonal tests (a sweep in f32
// is bound by instructions, and those are a large share of them): inside the grid every cell's inverse
// diagonal is inner_inv, elsewhere it comes from `sides` (SideInverses, filled by fill_sides). `height`:
// the rows in use, H at most (a resident queue's tiles differ in rows: tile_rows.hpp).
template <int W, int H, int Threads, bool Inside, bool Lean, class T>
struct TileRegion {
  static constexpr int w = W, h = H, threads = Threads;
  const Sweep<T>& sw;
  Helmholtz<T> op;  // component c's coefficients as component 0 (constant indices keep them in registers)
  T* xs;
  T* bs;
  int c, i0, j0;
  bool px, py;  // periodic axes of this component
  SideInverses<T, W, H>* sides = nullptr;  // where Lean and not Inside
  int height = H;

  __device__ int grid_x(int x) const { return Inside ? i0 + x : source(i0 + x, sw.in.nx, px); }
  __device__ int grid_y(int y) const { return Inside ? j0 + y : source(j0 + y, sw.in.ny, py); }
  // Region cell (x, y) is a cell of the grid (not a ghost), wrapped or not.
  __device__ bool is_cell(int x, int y) const {
    if constexpr (Lean && !Inside) return sides->column[x] + sides->row[y] < SideInverses<T, W, H>::ghost;
    return Inside || (inside(i0 + x, sw.in.nx, px) && inside(j0 + y, sw.in.ny, py));
  }

  // The table of `sides` for this region (Lean, not Inside); a barrier must follow.
  __device__ void fill_sides() const {
    static_assert(Lean && !Inside);
    const int nx = sw.in.nx, ny = sw.in.ny;
    constexpr int codes = 2 * SideInverses<T, W, H>::ghost + 1;
    for (int k = int(threadIdx.x); k < codes + W + H; k += threads) {
      if (k < codes) {
        const int cx = k / 4, cy = k % 4;
        sides->inv[k] = k >= sides->ghost        ? T(0)
                        : cx == 0 && cy == 0 ? op.inner_inv[0]
                                             : T(1) / op.diag_at(Edges2{bool(cx & 1), bool(cx & 2), bool(cy & 1), bool(cy & 2)}, 0, op.beta[0]);
      } else if (k < codes + W) {
        const int x = k - codes, i = grid_x(x), ghost = inside(i0 + x, nx, px) ? 0 : sides->ghost;
        sides->column[x] = static_cast<unsigned char>(ghost + 4 * ((i == 0) + 2 * (i == nx - 1)));
      } else {
        const int y = k - codes - W, j = grid_y(y), ghost = inside(j0 + y, ny, py) ? 0 : sides->ghost;
        sides->row[y] = static_cast<unsigned char>(ghost + (j == 0) + 2 * (j == ny - 1));
      }
    }
  }

  // b - A x at region cell index r = y * w + x, whose grid offset is o (unused where Lean).
  __device__ T residual(int r, int64_t o) const {
    const T* s = xs + r;
    if constexpr (Lean) return bs[r] - op.apply5_with(op.beta[0], s[0], s[-1], s[1], s[-w], s[w]);
    else return bs[r] - op.apply5(0, o, s[0], s[-1], s[1], s[-w], s[w]);
  }

  // The lean point update's change at region cell index r, whose inverse diagonal is inv.
  __device__ T lean_change(int r, T inv) const { return sw.omega * residual(r, 0) * inv; }

  // The change at region cell (x, y), index r = y * w + x, and whether it is a grid cell (`cell`); 0 at a
  // ghost. Lean regions along the sides look up the inverse diagonal with no branch on whether the cell
  // is a ghost (a ghost's is 0), so that the stencil's loads need not wait for the lookups: the other
  // blocks wait for these at a resident queue's grid barrier.
  __device__ T change_or_zero(int r, int x, int y, bool& cell) const {
    if constexpr (Lean && !Inside) {
      const int code = sides->column[x] + sides->row[y];
      cell = code < SideInverses<T, W, H>::ghost;
      return lean_change(r, sides->inv[code]);
    } else {
      cell = is_cell(x, y);
      return cell ? change(r, x, y) : T(0);
    }
  }

  // The change the point update makes at region cell (x, y), index r = y * w + x.
  __device__ T change(int r, int x, int y) const {
    if constexpr (Lean && Inside) {
      return lean_change(r, op.inner_inv[0]);
    } else if constexpr (Lean) {
      return lean_change(r, sides->inv[sides->column[x] + sides->row[y]]);
    } else {
      const int i = grid_x(x), j = grid_y(y);
      const int64_t o = sw.in.offset(i, j);
      return sw.omega * residual(r, o) * op.inv_diag(i, j, 0, o);
    }
  }

  // x (from sw.in, or `from`, a field of its layout) and b of the region into shared memory, every copy in
  // flight before the block waits for them; inside the grid two values per copy (the region starts at an
  // even column, on an 8- or 16-byte boundary), a warp a row, elsewhere one, each from the cell its region
  // cell stands for.
  __device__ void load() const { load(sw.in); }
  __device__ void load(const FieldView<const T>& from) const {
    const T* x = from.comp(c);
    const T* b = sw.b.comp(c);
    if constexpr (Inside) {
      // A warp a row: lane l copies pairs l, l + 32, ...
      constexpr int warps = threads / 32;
      const int lane = int(threadIdx.x) % 32, y0 = int(threadIdx.x) / 32;
      const T* xg = x + from.offset(i0 + 2 * lane, j0 + y0);
      const T* bg = b + sw.b.offset(i0 + 2 * lane, j0 + y0);
      T* xd = xs + y0 * w + 2 * lane;
      T* bd = bs + y0 * w + 2 * lane;
      for (int y = y0; y < height; y += warps) {
#pragma unroll
        for (int q = 0; q < (w / 2 + 31) / 32; ++q) {
          if (lane + 32 * q >= w / 2) break;
          copy_async<2 * sizeof(T)>(xd + 64 * q, xg + 64 * q);
          copy_async<2 * sizeof(T)>(bd + 64 * q, bg + 64 * q);
        }
        xg += warps * from.pitch, bg += warps * sw.b.pitch, xd += warps * w, bd += warps * w;
      }
    } else {
      for (int k = int(threadIdx.x); k < w * height; k += threads) {
        const int y = k / w, m = k - y * w, i = grid_x(m), j = grid_y(y);
        copy_async<sizeof(T)>(xs + k, x + from.offset(i, j));
        copy_async<sizeof(T)>(bs + k, b + sw.b.offset(i, j));
      }
    }
    __pipeline_commit();
    __pipeline_wait_prior(0);
  }

  // The tile of Tx columns `Ring` cells in (and all rows but the ring's), each cell's value from
  // swept(x, y), into `to` (sw.out, or a field of its layout), a pair of cells per thread;
  // inside the grid the pair is stored as one vector (an even column is aligned for it; two scalar stores
  // would each write half of every sector), a warp a row, the row pointer advanced by the pitch;
  // elsewhere with the ghost images of the cells beside a side.
  template <int Tx, int Ring, class Swept>
  __device__ void store_tile(FieldView<T> to, Swept swept) const {
    constexpr int pairs = Tx / 2, rows_per_pass = threads / pairs;
    const int ty = height - 2 * Ring;
    if constexpr (Inside) {
      static_assert(threads % pairs == 0);
      const int x = Ring + 2 * (int(threadIdx.x) % pairs), y0 = Ring + int(threadIdx.x) / pairs;
      T* p = to.comp(c) + to.offset(i0 + x, j0 + y0);
#pragma unroll
      for (int y = y0; y < ty + Ring; y += rows_per_pass, p += rows_per_pass * to.pitch)
        store_pair(p, swept(x, y), swept(x + 1, y));
    } else {
      for (int k = int(threadIdx.x); k < pairs * ty; k += threads) {
        const int y = Ring + k / pairs, x = Ring + 2 * (k % pairs);
        const int i = i0 + x, j = j0 + y;
        if (j >= sw.in.ny) break;
#pragma unroll
        for (int q = 0; q < 2 && i + q < sw.in.nx; ++q) {
          const T v = swept(x + q, y);
          to.comp(c)[to.offset(i + q, j)] = v;
          if (near_boundary(to, i + q, j)) push_ghosts(to, sw.bc, c, i + q, j, v);
        }
      }
    }
  }
};

// One component's sweep of a block's region (TileShape: the tile and a two-cell ring). `Measure`: the
// largest change on the tile is kept.
template <bool Inside, bool Lean, bool Measure, class T>
struct TileSweep : TileRegion<TileShape<T>::w, TileShape<T>::h, TileShape<T>::threads, Inside, Lean, T> {
  using S = TileShape<T>;
  using Region = TileRegion<S::w, S::h, S::threads, Inside, Lean, T>;
  using Region::change, Region::load, Region::sw, Region::threads, Region::w, Region::h, Region::xs;

  // The first colour on the tile and its inner ring: (w - 2) / 2 cells in each of rows 1 .. h - 2, a row a
  // warp. (FusedTile::half_sweep's order, two rows a warp, would make this unrolled loop spill.)
  __device__ void first_colour(LargestChange<T>& largest) const {
    constexpr int per_row = (w - 2) / 2, cells = per_row * (h - 2);
#pragma unroll
    for (int n = 0; n < (cells + threads - 1) / threads; ++n) {
      const int k = int(threadIdx.x) + n * threads;
      if (k >= cells) break;
      const int y = 1 + k / per_row;
      const int x = 1 + 2 * (k % per_row) + ((sw.first + 1 + y) & 1);
      if (!this->is_cell(x, y)) continue;  // ghosts keep
      const T d = change(y * w + x, x, y);
      xs[y * w + x] += d;
      if (Measure) largest.add(d);  // on the tile or its inner ring (FusedTile::half_sweep's reason)
    }
  }

  // Region cell (x, y) after the sweep: the first colour's new value, or the second colour's (every
  // cell's, in a Jacobi sweep) update from the values around.
  __device__ T swept(int x, int y, LargestChange<T>& largest) const {
    const int r = y * w + x;
    T v = xs[r];
    if (((x + y) & 1) != sw.first) {
      const T d = change(r, x, y);
      v += d;
      if (Measure) largest.add(d);
    }
    return v;
  }

  // Sweeps the tile; false, with nothing written, where a `queued` sweep has nothing to do. (The test is
  // passed by value: a kernel parameter whose address is taken is copied to local memory.)
  __device__ bool run(LargestChange<T>& largest, QueuedTest test, bool queued) const {
    __shared__ bool stopped;
    const QueuePeek peek = queued ? peek_queue(test) : QueuePeek{};
    load();
    if (queued) decide_queue(test, peek, stopped);
    __syncthreads();
    if (queued && stopped) return false;
    if (sw.first >= 0) {
      first_colour(largest);
      __syncthreads();
    }
    this->template store_tile<S::tx, 2>(sw.out, [&](int x, int y) { return swept(x, y, largest); });
    return true;
  }
};

// One sweep: `Queued` reads the queue's state (test.log) first, `Measure` folds the largest change into
// row test.test. A plain sweep is neither, and its kernel has none of their code. (fused_sweep_kernel
// loops over the components alike; one loop for both, through a generic lambda, made the f64 sweeps
// spill.)
template <bool Measure, bool Queued, class T>
__global__ void __launch_bounds__(TileShape<T>::threads, TileShape<T>::min_blocks)
    tile_sweep_kernel(Sweep<T> sw, bool reversed_blocks, QueuedTest test) {
  begin_dependent_grid();
  using S = TileShape<T>;
  __shared__ __align__(16) T xs[S::w * S::h];
  __shared__ __align__(16) T bs[S::w * S::h];
  const int i0 = block_x(reversed_blocks) * S::tx - 2, j0 = block_y(reversed_blocks) * S::ty - 2;
  const bool inside_grid = i0 >= 0 && j0 >= 0 && i0 + S::w <= sw.in.nx && j0 + S::h <= sw.in.ny;
  LargestChange<T> largest;
  for (int c = 0; c < sw.in.ncomp; ++c) {
    if (c > 0) __syncthreads();  // the last component's tile is written
    const Helmholtz<T> op = sw.op.component(c);
    const bool px = sw.bc.side[left][c].kind == BcKind::periodic;
    const bool py = sw.bc.side[bottom][c].kind == BcKind::periodic;
    const bool queued = Queued && c == 0;
    bool swept;
    if (inside_grid && !op.d[0])
      swept = TileSweep<true, true, Measure, T>{{sw, op, xs, bs, c, i0, j0, px, py}}.run(largest, test, queued);
    else if (inside_grid)
      swept = TileSweep<true, false, Measure, T>{{sw, op, xs, bs, c, i0, j0, px, py}}.run(largest, test, queued);
    else swept = TileSweep<false, false, Measure, T>{{sw, op, xs, bs, c, i0, j0, px, py}}.run(largest, test, queued);
    if (!swept) return;  // every block alike
  }
  if (Measure) fold_into_row<S::threads>(largest, test.log->rows[test.test].largest);
}

template <class T>
void launch_sweep(const Cuda& ex, const Sweep<T>& sw, const QueuedTest& test) {
  using S = TileShape<T>;
  const dim3 grid(unsigned((sw.in.nx + S::tx - 1) / S::tx), unsigned((sw.in.ny + S::ty - 1) / S::ty));
  const bool reversed_blocks = reverse_block_order(sw.in.data, sw.out.data);
  auto kernel = test.test >= 0 ? tile_sweep_kernel<true, true, T>
                : test.log        ? tile_sweep_kernel<false, true, T>
                                  : tile_sweep_kernel<false, false, T>;
  launch(*ex.context, "tile_sweep_kernel", kernel, grid, dim3(S::threads), 0, sw, reversed_blocks, test);
}

// One sweep; returns its largest |change| when `measure` (a queue of one test in the context's scratch,
// waited for), else 0.
template <class T>
T sweep_now(const Cuda& ex, const Sweep<T>& sw, bool measure) {
  if (!measure) {
    launch_sweep(ex, sw, QueuedTest{});
    return T(0);
  }
  static_assert(offsetof(SweepLog, rows) + sizeof(SweepLog::Row) <=
                CudaContext::max_reduce_blocks * CudaContext::max_reduce_value_bytes);
  SweepLog* log = static_cast<SweepLog*>(ex.context->reduce_scratch());  // a log of one row
  clear_sweep_log(ex, log, 1);
  launch_sweep(ex, sw, QueuedTest{log, 0, -1, 0.0});
  SweepLog got;
  read_sweep_log(ex, log, 1, got);
  return T(got.change(0));
}

// A queued residual test (SweepLog): |b - A x|^2 over the interior, every component, each block's share
// summed into a word of the test's row (atomicAdd: the words' sums depend on the blocks' order in the
// last bits, but every launch after reads the same words and adds them in the same order); nothing
// where a test before it passed.
template <class T>
__global__ void __launch_bounds__(cuda_detail::reduce_threads)
    queued_residual_kernel(Helmholtz<T> op, FieldView<const T> x, FieldView<const T> b, QueuedTest q) {
  begin_dependent_grid();
  __shared__ bool stopped;
  if (threadIdx.x == 0) stopped = __ldcg(&q.log->stop) != 0;
  __syncthreads();
  if (stopped) return;
  double s = 0;
  for (int j = int(blockIdx.x); j < x.ny; j += int(gridDim.x))  // a block a row, a warp its consecutive cells
    for (int i = int(threadIdx.x); i < x.nx; i += int(blockDim.x)) s += cell_residual2(op, x, b, i, j);
  s = cuda_detail::block_reduce<double>(s, Sum<double>{});
  if (threadIdx.x == 0 && s != 0) atomicAdd(&q.log->rows[q.test].residual2[blockIdx.x % SweepLog::sum_words], s);
}

}  // namespace tile_sweep_detail

template <class T>
void queued_residual(const Cuda& ex, const Helmholtz<T>& op, FieldView<const T> x, FieldView<const T> b,
                     const QueuedTest& test) {
  using namespace tile_sweep_detail;
  const int blocks = std::min(x.ny, CudaContext::max_reduce_blocks);
  launch(*ex.context, "queued_residual_kernel", queued_residual_kernel<T>, dim3(unsigned(blocks)),
         dim3(cuda_detail::reduce_threads), 0, op, x, b, test);
}

template <class T>
T rb_sweep_into(const Cuda& ex, const Helmholtz<T>& op, FieldView<const T> in, FieldView<const T> b, FieldView<T> out,
                const FieldBoundary& bc, T omega, bool reverse, bool measure) {
  using namespace tile_sweep_detail;
  if (!colours_close(in.extents(), in.ncomp, bc))
    return detail::copy_and_sweep(ex, op, in, b, out, bc, omega, reverse, measure);
  return sweep_now(ex, Sweep<T>{op.refreshed(), in, b, out, bc, omega, reverse ? 1 : 0}, measure);
}

template <class T>
T jacobi_sweep(const Cuda& ex, const Helmholtz<T>& op, FieldView<const T> in, FieldView<const T> b, FieldView<T> out,
               const FieldBoundary& bc, T omega, bool measure) {
  using namespace tile_sweep_detail;
  return sweep_now(ex, Sweep<T>{op.refreshed(), in, b, out, bc, omega, -1}, measure);
}

}  // namespace pdex
