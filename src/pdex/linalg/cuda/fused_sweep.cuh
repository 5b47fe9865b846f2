#pragma once
// Several relaxation sweeps in one launch on CUDA (temporal blocking): three for the queued sweeps of a
// relaxation solve between two change tests (DeviceRelaxation::queued), two for a pair of multigrid
// smoothing sweeps (rb_sweep_pair_into). A single sweep reads x and b and
// writes x once; below 4096^2 it is one wave of tiles or a few, and costs its launch and its tiles' latency
// more than its bytes. Here a block copies
// its tile with a ring of `ring` cells into shared memory (tile_sweep.cuh's copies), makes K sweeps there,
// each leaving the ring's outer cells stale (one ring a red-black half-sweep or a Jacobi sweep), and writes
// the tile once: K sweeps for the bytes of one, plus the ring's copies, which mostly hit L2.
//
// Change tests after every sweep (seed 004's criterion) go three to a launch too (two for f64 Jacobi:
// tested_sweeps in device_relaxation.hpp; tested_sweeps_kernel): each sweep's largest change into its row, the
// field after the last written. The launch's input is left as it was, so where a test but the last
// passes, the launch after it makes the sweeps up to that test again from there into the launch's
// output, and the queue ends with the field of single tested launches.
//
// Every cell's update is the one a launch a sweep makes (tile_sweep.cuh's point update, the same operands
// in the same order), so the results are those of K single sweeps. A ring cell is the cell it stands for
// (tile_sweep.cuh): across a periodic side the wrapped cell, relaxed as its own block does; across a
// Neumann or Dirichlet side the ghost, which keeps its value through a sweep and is set from its image
// after it (boundary.hpp's rule), as a single sweep's stores push it.
#include <utility>

#include "pdex/linalg/cuda/tile_sweep.cuh"

namespace pdex {
namespace tile_sweep_detail {

// Tiles of tx x ty cells in a ring of `ring` cells: red-black sweeps stale one ring a half-sweep, Jacobi
// sweeps one a sweep (rounded up to even, so that regions start on even columns: aligned pairs, and a
// region cell's colour is (x + y) % 2). f32 blocks of 256 threads, four a multiprocessor, and f64 blocks
// of 128, five (a sixth would spill), keep enough warps resident to hide the sweeps' latency.
template <class T, int K, bool Jacobi>
struct FusedShape {
  static constexpr bool f32 = sizeof(T) == sizeof(float);
  static constexpr int sweeps = K, ring = Jacobi ? (K + 1) / 2 * 2 : 2 * K;
  static constexpr int tx = 64, ty = f32 ? 32 : 16, w = tx + 2 * ring, h = ty + 2 * ring;
  static constexpr int threads = f32 ? 256 : 128, min_blocks = f32 ? 4 : 5;
};

// The value a ghost beside a side that is not periodic takes from its image u (boundary.hpp).
template <class T>
__device__ inline T ghost_of(const SideBc& s, T u) {
  const detail::GhostImage<T> r = detail::affine_image<T>(s, 0);
  return r.a * u + r.b;
}

// What a launch of tested sweeps does (tested_sweeps_kernel), every block alike: its sweeps; the first
// `again` sweeps of the launch before it again, where one of that launch's tests but the last passed; or
// nothing.
struct TestedStep {
  enum Kind : unsigned char { sweep, redo, none } kind = sweep;
  unsigned char again = 0;
};

// The queue's state as warp 0 of a launch of tested sweeps reads it (peek_queue's way), in shared memory:
// the stop word and the rows the launch before tested (K at most).
template <int K>
struct TestedPeek {
  unsigned long long rows[K][32];
  unsigned stop;
};

// Warp 0 starts copying the queue's state into `p`, by asynchronous copies that hold no registers while
// the tile loads (with the rows in registers, the f32 kernels spilled more); the wait for the tile's
// copies (TileRegion::load) completes them.
template <int K>
__device__ void peek_tested(QueuedTest q, TestedPeek<K>& p) {
  if (threadIdx.x >= 32) return;
  if (threadIdx.x == 0) copy_async<sizeof(unsigned)>(&p.stop, &q.log->stop);
#pragma unroll
  for (int m = 0; m < K; ++m)
    if (q.previous >= 0 && m < q.previous_tests)
      copy_async<sizeof(unsigned long long)>(&p.rows[m][threadIdx.x], &q.log->rows[q.previous + m].largest[threadIdx.x]);
}

// Warp 0 decides the launch's step after the launch before (a barrier must follow): nothing where a
// test before that launch's passed (the stop word names it) or its last test passes now; its sweeps up
// to the first test that passes again, where that is not its last; else its own sweeps, if any. Block 0
// records a pass; a block that reads that record decides the same from the rows.
template <int K>
__device__ void decide_tested(QueuedTest q, const TestedPeek<K>& p, TestedStep& step) {
  if (threadIdx.x >= 32) return;
  double largest[K];
#pragma unroll
  for (int m = 0; m < K; ++m) {
    const unsigned long long word = m < q.previous_tests ? p.rows[m][threadIdx.x] : 0;
    largest[m] = __longlong_as_double(static_cast<long long>(warp_max(word)));
  }
  if (threadIdx.x != 0) return;
  const bool earlier = stopped_before(p.stop, q.previous);
  int passed = -1;
#pragma unroll
  for (int m = K - 1; m >= 0; --m)  // the first that passes; not +inf or NaN
    if (!earlier && q.previous >= 0 && m < q.previous_tests && largest[m] < q.below) passed = m;
  if (earlier || (passed >= 0 && passed == q.previous_tests - 1)) step = {TestedStep::none, 0};
  else if (passed >= 0) step = {TestedStep::redo, static_cast<unsigned char>(passed + 1)};
  else step = {q.tests > 0 ? TestedStep::sweep : TestedStep::none, 0};
  if (passed >= 0 && blockIdx.x == 0 && blockIdx.y == 0) q.log->stop = unsigned(q.previous + passed + 1);
}

// A launch's largest changes on a tile, one a tested sweep: the last sweep's apart, since which sweep is
// last is known at run time only (an array indexed by it would go to local memory).
template <class T, int K>
struct TestedChanges {
  LargestChange<T> before[K - 1], last;
};

// One component's K sweeps of a block's region (FusedShape S); `Inside` and `Lean` as in TileRegion.
template <class S, bool Jacobi, bool Inside, bool Lean, class T>
struct FusedTile : TileRegion<S::w, S::h, S::threads, Inside, Lean, T> {
  using Region = TileRegion<S::w, S::h, S::threads, Inside, Lean, T>;
  using Region::change, Region::is_cell, Region::load, Region::sw, Region::threads, Region::w, Region::h, Region::xs;
  using Region::c, Region::i0, Region::j0, Region::px, Region::py;
  static constexpr int ring = S::ring;
  T* ys;  // a Jacobi sweep's new values

  // The cells of `colour` D or more cells in from the region's edges, in the order of a half-sweep:
  // consecutive k alternate between two rows, so that a warp's cells, every other word of one row and the
  // words between them of the next (w is even), fall on different banks of shared memory. (A row a warp,
  // each shared load and store of the half-sweeps would meet two-way bank conflicts.)
  template <int D>
  __device__ int colour_cells() const {
    return (w - 2 * D) / 2 * (this->height - 2 * D);
  }
  template <int D>
  __device__ static void colour_cell(int k, int colour, int& x, int& y) {
    static_assert(w % 2 == 0 && h % 2 == 0);
    constexpr int two_rows = w - 2 * D;
    const int q = k % two_rows;
    y = D + 2 * (k / two_rows) + (q & 1);
    x = D + 2 * (q >> 1) + ((colour + D + y) & 1);
  }

  // A red-black half-sweep of the cells of `colour` at least D cells in from the region's edge; the largest
  // change into `largest`, where given. Every cell a sweep updates in the region is a grid cell with the
  // value its own block's sweep gives it (the ring's cells are valid as far in as the sweep reaches), so
  // the largest change over them is the tile's, or one of a tile around; every block measures its tile,
  // so the grid's largest is the same, without a test a cell of whether it lies on the tile.
  template <int D>
  __device__ void half_sweep(int colour, LargestChange<T>* largest = nullptr) const {
#pragma unroll 1
    for (int k = int(threadIdx.x); k < colour_cells<D>(); k += threads) {
      int x, y;
      colour_cell<D>(k, colour, x, y);
      bool cell;
      const T d = this->change_or_zero(y * w + x, x, y, cell);
      if (!cell) continue;
      xs[y * w + x] += d;
      if (largest) largest->add(d);
    }
    __syncthreads();
  }

  // A Jacobi sweep of the cells at least D in from the region's edge, from xs into ys; then the two swap.
  // The largest change into `largest`, where given (as half_sweep's).
  template <int D>
  __device__ void jacobi_sweep(LargestChange<T>* largest = nullptr) {
    constexpr int row = w - 2 * D;
    const int cells = row * (this->height - 2 * D);
#pragma unroll 1
    for (int k = int(threadIdx.x); k < cells; k += threads) {
      const int y = D + k / row, x = D + k % row;
      bool cell;
      const T d = this->change_or_zero(y * w + x, x, y, cell);
      if (!cell) continue;
      ys[y * w + x] = xs[y * w + x] + d;
      if (largest) largest->add(d);
    }
    __syncthreads();
    T* const t = xs;
    this->xs = ys;
    ys = t;
  }

  // The ghosts in the region after a sweep, each from its image beside it; corner ghosts are never read.
  __device__ void refresh_ghost_line(int at, int step, bool column, const SideBc& side) const {
    const int length = column ? this->height : w, across = column ? w : this->height;
    if (at < 0 || at >= across || at + step < 0 || at + step >= across) return;
    for (int k = int(threadIdx.x); k < length; k += threads) {
      const bool interior = column ? inside(j0 + k, sw.in.ny, py) : inside(i0 + k, sw.in.nx, px);
      if (!interior) continue;
      const int r = column ? k * w + at : at * w + k, image = r + (column ? step : step * w);
      xs[r] = ghost_of(side, xs[image]);
    }
  }
  __device__ void refresh_ghosts() const {
    if constexpr (!Inside) {
      if (!px) {
        refresh_ghost_line(-1 - i0, 1, true, sw.bc.side[left][c]);
        refresh_ghost_line(sw.in.nx - i0, -1, true, sw.bc.side[right][c]);
      }
      if (!py) {
        refresh_ghost_line(-1 - j0, 1, false, sw.bc.side[bottom][c]);
        refresh_ghost_line(sw.in.ny - j0, -1, false, sw.bc.side[top][c]);
      }
      __syncthreads();
    }
  }

  // The sweeps before the last: m = 0 .. K - 2; the largest change on the tile into `largest`, where given.
  template <int M>
  __device__ void sweep(LargestChange<T>* largest = nullptr) {
    if constexpr (Jacobi) {
      jacobi_sweep<ring - S::sweeps + M + 1>(largest);
    } else {
      half_sweep<2 * M + 1>(sw.first, largest);
      half_sweep<2 * M + 2>(1 - sw.first, largest);
    }
    refresh_ghosts();
  }
  // Sweeps m = 0 .. n - 1 of the K - 1 before the last (n a constant but in a launch of tested sweeps);
  // each one's largest change on the tile into largest[m], where given.
  template <int... M>
  __device__ void sweeps_before(int n, LargestChange<T>* largest, std::integer_sequence<int, M...>) {
    ((M < n ? sweep<M>(largest ? largest + M : nullptr) : void()), ...);
  }
  __device__ void sweeps_before(int n, LargestChange<T>* largest = nullptr) {
    sweeps_before(n, largest, std::make_integer_sequence<int, S::sweeps - 1>{});
  }

  // Tile cell (x, y) after the last sweep (TileSweep::swept).
  __device__ T swept(int x, int y, LargestChange<T>& largest) const {
    T v = xs[y * w + x];
    if (Jacobi || ((x + y) & 1) != sw.first) {
      const T d = change(y * w + x, x, y);
      v += d;
      largest.add(d);
    }
    return v;
  }

  // The last sweep: its first colour on the tile and the ring cell around it (measured on the tile),
  // then the tile's cells of the second colour (every cell, in a Jacobi sweep), stored as
  // TileSweep::second_colour_and_store stores them.
  __device__ void last_sweep_and_store(LargestChange<T>& largest) const {
    if constexpr (!Jacobi) half_sweep<ring - 1>(sw.first, &largest);
    this->template store_tile<S::tx, ring>(sw.out, [&](int x, int y) { return swept(x, y, largest); });
  }

  // The tile as the sweeps so far left it into `to`.
  __device__ void store_swept(FieldView<T> to) const {
    this->template store_tile<S::tx, ring>(to, [&](int x, int y) { return xs[y * w + x]; });
  }

  // A launch of test.tests (1 to K) tested sweeps, the step decided where `decide` (component 0); each
  // sweep's largest change on the tile into `changes`.
  __device__ TestedStep run_tested(TestedChanges<T, S::sweeps>& changes, QueuedTest test, bool decide) {
    __shared__ TestedStep step;
    __shared__ TestedPeek<S::sweeps> peek;
    if (decide) peek_tested(test, peek);
    load();
    if (decide) decide_tested(test, peek, step);
    __syncthreads();
    if (decide && step.kind != TestedStep::sweep) return step;
    sweeps_before(test.tests - 1, changes.before);
    last_sweep_and_store(changes.last);
    return TestedStep{};
  }

  // The first n sweeps (n < K) of the launch before again, untested (TestedStep::redo): from its input,
  // which it only read and which is this launch's output, into its output, this launch's input. (The
  // fields swapped here, not in a Sweep of their own, which would go to local memory.)
  __device__ void sweep_again(int n) {
    load(as_const(sw.out));
    __syncthreads();
    sweeps_before(n);
    store_swept(as_writable(sw.in));
  }

  // The K sweeps; false, with nothing written, where a `queued` launch has nothing to do.
  __device__ bool run(LargestChange<T>& largest, QueuedTest test, bool queued) {
    __shared__ bool stopped;
    const QueuePeek peek = queued ? peek_queue(test) : QueuePeek{};
    load();
    if (queued) decide_queue(test, peek, stopped);
    __syncthreads();
    if (queued && stopped) return false;
    sweeps_before(S::sweeps - 1);
    last_sweep_and_store(largest);
    return true;
  }
};

// f(tile) with component c's FusedTile (shape S) of the block's region at (i0, j0): the lean point
// update inside the grid without a per-cell coefficient, the general one elsewhere (TileRegion).
template <class S, bool Jacobi, class T, class F>
__device__ auto with_fused_tile(const Sweep<T>& sw, T* xs, T* bs, T* ys, int c, int i0, int j0, bool inside_grid,
                                F&& f) {
  const Helmholtz<T> op = sw.op.component(c);
  const bool px = sw.bc.side[left][c].kind == BcKind::periodic;
  const bool py = sw.bc.side[bottom][c].kind == BcKind::periodic;
  if (inside_grid && !op.d[0]) return f(FusedTile<S, Jacobi, true, true, T>{{sw, op, xs, bs, c, i0, j0, px, py}, ys});
  if (inside_grid) return f(FusedTile<S, Jacobi, true, false, T>{{sw, op, xs, bs, c, i0, j0, px, py}, ys});
  return f(FusedTile<S, Jacobi, false, false, T>{{sw, op, xs, bs, c, i0, j0, px, py}, ys});
}

// A block's region of tiles of shape S in shared memory; `reversed`: the blocks in reverse order.
template <class S, class T>
struct FusedBlock {
  T* xs;
  T* bs;
  T* ys;
  int i0, j0;
  bool inside_grid;

  __device__ FusedBlock(const Sweep<T>& sw, bool reversed, T* x, T* b, T* y)
      : xs(x), bs(b), ys(y), i0(block_x(reversed) * S::tx - S::ring), j0(block_y(reversed) * S::ty - S::ring),
        inside_grid(i0 >= 0 && j0 >= 0 && i0 + S::w <= sw.in.nx && j0 + S::h <= sw.in.ny) {}

  template <bool Jacobi, class F>
  __device__ auto with_tile(const Sweep<T>& sw, int c, F&& f) const {
    return with_fused_tile<S, Jacobi>(sw, xs, bs, ys, c, i0, j0, inside_grid, f);
  }
};

// K queued sweeps of every component in one launch; the last one's largest change goes to row test.test
// where that is a row.
template <int K, bool Jacobi, class T>
__global__ void __launch_bounds__(FusedShape<T, K, Jacobi>::threads, FusedShape<T, K, Jacobi>::min_blocks)
    fused_sweep_kernel(Sweep<T> sw, bool reversed_blocks, QueuedTest test) {
  begin_dependent_grid();
  using S = FusedShape<T, K, Jacobi>;
  __shared__ __align__(16) T xs[S::w * S::h];
  __shared__ __align__(16) T bs[S::w * S::h];
  __shared__ __align__(16) T ys[Jacobi ? S::w * S::h : 1];
  const int i0 = block_x(reversed_blocks) * S::tx - S::ring, j0 = block_y(reversed_blocks) * S::ty - S::ring;
  const bool inside_grid = i0 >= 0 && j0 >= 0 && i0 + S::w <= sw.in.nx && j0 + S::h <= sw.in.ny;
  LargestChange<T> largest;
  for (int c = 0; c < sw.in.ncomp; ++c) {
    if (c > 0) __syncthreads();  // the last component's tile is written
    const Helmholtz<T> op = sw.op.component(c);
    const bool px = sw.bc.side[left][c].kind == BcKind::periodic;
    const bool py = sw.bc.side[bottom][c].kind == BcKind::periodic;
    const bool queued = test.log && c == 0;
    bool swept;
    if (inside_grid && !op.d[0])
      swept = FusedTile<S, Jacobi, true, true, T>{{sw, op, xs, bs, c, i0, j0, px, py}, ys}.run(largest, test, queued);
    else if (inside_grid)
      swept = FusedTile<S, Jacobi, true, false, T>{{sw, op, xs, bs, c, i0, j0, px, py}, ys}.run(largest, test, queued);
    else swept = FusedTile<S, Jacobi, false, false, T>{{sw, op, xs, bs, c, i0, j0, px, py}, ys}.run(largest, test, queued);
    if (!swept) return;  // every block alike
  }
  if (test.test >= 0) fold_into_row<S::threads>(largest, test.log->rows[test.test].largest);
}

// The first n sweeps of the launch before again (TestedStep::redo), every component (FusedTile::sweep_again).
template <class S, bool Jacobi, class T>
__device__ void sweep_again(const Sweep<T>& sw, const FusedBlock<S, T>& block, int n) {
  for (int c = 0; c < sw.in.ncomp; ++c) {
    if (c > 0) __syncthreads();  // the last component's tile is written
    block.template with_tile<Jacobi>(sw, c, [n](auto tile) { tile.sweep_again(n); });
  }
}

// A launch of test.tests tested sweeps (0 to K) of every component, a change test after each
// (queued_tested_sweeps), or sweeps of the launch before again; every block alike.
template <bool Jacobi, class T>
__global__ void __launch_bounds__(FusedShape<T, tested_sweeps<T>(Jacobi), Jacobi>::threads,
                                  FusedShape<T, tested_sweeps<T>(Jacobi), Jacobi>::min_blocks)
    tested_sweeps_kernel(Sweep<T> sw, bool reversed_blocks, QueuedTest test) {
  begin_dependent_grid();
  using S = FusedShape<T, tested_sweeps<T>(Jacobi), Jacobi>;
  __shared__ __align__(16) T xs[S::w * S::h];
  __shared__ __align__(16) T bs[S::w * S::h];
  __shared__ __align__(16) T ys[Jacobi ? S::w * S::h : 1];
  const FusedBlock<S, T> block(sw, reversed_blocks, xs, bs, ys);
  TestedStep step;
  if (test.tests == 0) {  // the queue's last launch, with no tile to load while the log is read
    __shared__ TestedStep alone;
    __shared__ TestedPeek<S::sweeps> peek;
    peek_tested(test, peek);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    decide_tested(test, peek, alone);
    __syncthreads();
    step = alone;
  }
  TestedChanges<T, S::sweeps> changes;
  for (int c = 0; c < sw.in.ncomp && step.kind == TestedStep::sweep; ++c) {
    if (c > 0) __syncthreads();  // the last component's tile is written
    step = block.template with_tile<Jacobi>(sw, c, [&](auto tile) { return tile.run_tested(changes, test, c == 0); });
  }
  if (step.kind == TestedStep::redo) return sweep_again<S, Jacobi>(sw, block, step.again);
  if (step.kind == TestedStep::none) return;
#pragma unroll
  for (int m = 0; m < S::sweeps - 1; ++m)
    if (m < test.tests - 1) fold_into_row<S::threads>(changes.before[m], test.log->rows[test.test + m].largest);
  fold_into_row<S::threads>(changes.last, test.log->rows[test.test + test.tests - 1].largest);
}

template <class S, class T, class Kernel>
void launch_tiles(const Cuda& ex, const char* name, Kernel kernel, const Sweep<T>& sw, const QueuedTest& test) {
  const dim3 grid(unsigned((sw.in.nx + S::tx - 1) / S::tx), unsigned((sw.in.ny + S::ty - 1) / S::ty));
  launch(*ex.context, name, kernel, grid, dim3(S::threads), 0, sw, reverse_block_order(sw.in.data, sw.out.data),
         test);
}

template <int K, bool Jacobi, class T>
void launch_fused(const Cuda& ex, const Sweep<T>& sw, const QueuedTest& test) {
  launch_tiles<FusedShape<T, K, Jacobi>>(ex, "fused_sweep_kernel", fused_sweep_kernel<K, Jacobi, T>, sw, test);
}

}  // namespace tile_sweep_detail

template <class T>
void rb_sweep_pair_into(const Cuda& ex, const Helmholtz<T>& op, FieldView<const T> in, FieldView<const T> b,
                        FieldView<T> out, const FieldBoundary& bc, T omega, bool reverse) {
  using namespace tile_sweep_detail;
  if (!colours_close(in.extents(), in.ncomp, bc)) {
    detail::copy_and_sweep(ex, op, in, b, out, bc, omega, reverse, false, 2);
    return;
  }
  launch_fused<2, false>(ex, Sweep<T>{op.refreshed(), in, b, out, bc, omega, reverse ? 1 : 0}, QueuedTest{});
}

template <class T>
void queued_tested_sweeps(const Cuda& ex, const Helmholtz<T>& op, bool jacobi, FieldView<const T> in,
                          FieldView<const T> b, FieldView<T> out, const FieldBoundary& bc, T omega,
                          const QueuedTest& test) {
  using namespace tile_sweep_detail;
  if (!jacobi && !colours_close(in.extents(), in.ncomp, bc))
    throw Error("internal: a queued red-black sweep needs colours that close");
  const Sweep<T> sw{op.refreshed(), in, b, out, bc, omega, jacobi ? -1 : 0};
  using J = FusedShape<T, tested_sweeps<T>(true), true>;
  using RB = FusedShape<T, tested_sweeps<T>(false), false>;
  if (jacobi) launch_tiles<J>(ex, "tested_sweeps_kernel", tested_sweeps_kernel<true, T>, sw, test);
  else launch_tiles<RB>(ex, "tested_sweeps_kernel", tested_sweeps_kernel<false, T>, sw, test);
}

template <class T>
void queued_sweep(const Cuda& ex, const Helmholtz<T>& op, bool jacobi, int sweeps, FieldView<const T> in,
                  FieldView<const T> b, FieldView<T> out, const FieldBoundary& bc, T omega, const QueuedTest& test) {
  using namespace tile_sweep_detail;
  if (!jacobi && !colours_close(in.extents(), in.ncomp, bc))
    throw Error("internal: a queued red-black sweep needs colours that close");
  const Sweep<T> sw{op.refreshed(), in, b, out, bc, omega, jacobi ? -1 : 0};
  if (sweeps == 1) launch_sweep(ex, sw, test);
  else if (sweeps != fused_sweeps) throw Error("internal: a queued launch takes 1 or fused_sweeps sweeps");
  else if (jacobi) launch_fused<fused_sweeps, true>(ex, sw, test);
  else launch_fused<fused_sweeps, false>(ex, sw, test);
}

}  // namespace pdex
