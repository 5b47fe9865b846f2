#pragma once
// A relaxation solve's whole queue of sweeps and tests (queue_sweeps) in one launch on CUDA, on grids of
// up to a tile a multiprocessor (1024^2 cells on an H100, in tiles of 128 x 64; the tiles along the
// grid's sides take fewer rows and the inner ones more, tile_rows.hpp). Each block keeps its
// tile of x and b with a ring in shared memory for the whole queue. A round is up to three sweeps there,
// or two where three's ring and kept tiles do not fit in shared memory (fused_sweep.cuh's: the same point
// updates, the ghosts set from their images after each sweep); then
// the block writes the cells of its tile that the rings around need to the other field, the blocks meet
// at a grid barrier, and each reloads its ring. Below 1024^2 a launch a sweep, or three (fused_sweep.cuh),
// costs its launch and its wave of tiles more than its bytes; here a sweep costs its arithmetic, the ring
// and half a barrier (about a microsecond).
//
// Tests are made where the queued launches make them: a tested sweep ends a round and folds its largest
// change into its row of the log; after the barrier every block reads the row and stops alike where the
// test passes, writing its whole tile. A residual test sums |b - A x|^2 over the tiles after the next
// ring is loaded, and decides after one more barrier. Change tests after every sweep (seed 004's
// criterion) go a round's sweeps to a round: each sweep's largest change into its row, the tile as each
// but the last left it kept in shared memory, and after the barrier every block stores the tile of the
// first test that passed, so that the queue stops after the same sweep as the launches do. Rounds write to the other
// field and the field read first alternately (round 0 to `other`, so that no block writes x while
// another still loads it), so a round's ring is read from the field no block writes in that round; the
// field ends where the rounds that ran leave it, which SweepQueue::launches_run tells the host, as for
// queued launches.
#include <cooperative_groups.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "pdex/linalg/cuda/fused_sweep.cuh"
#include "pdex/linalg/tile_rows.hpp"

namespace pdex {
namespace tile_sweep_detail {

// Tiles of tx columns and up to `rows` rows (ty in a grid of uniform tiles; tile_rows.hpp), `threads` a
// block; rounds of up to K sweeps, so a ring of 2K cells (red-black) or K rounded up to even (Jacobi;
// FusedShape's rings).
template <class T, bool Jacobi, int TX, int TY, int Threads, int K, int Rows = TY>
struct ResidentShape {
  static constexpr int sweeps = K, ring = Jacobi ? (K + 1) / 2 * 2 : 2 * K;
  static constexpr int tx = TX, ty = TY, rows = Rows, w = tx + 2 * ring, h = rows + 2 * ring, threads = Threads;
  static constexpr int arrays = Jacobi ? 3 : 2;  // x, b (and a Jacobi sweep's new values) a component
  static constexpr std::size_t component_bytes = std::size_t(arrays) * w * h * sizeof(T);
  // The tiles kept through the later sweeps of a round of tested sweeps (ResidentTile::keep), one for
  // each sweep but the last; a Jacobi round's last but one stays in the array its last does not write.
  static constexpr int kept = Jacobi ? K - 2 : K - 1;
  static constexpr std::size_t kept_bytes = std::size_t(kept) * tx * rows * sizeof(T);
  static constexpr std::size_t bytes(int components, bool tested) {
    return components * (component_bytes + (tested ? kept_bytes : 0));
  }
};

// The shared memory a block of a resident queue may take (227 KB on an H100), less the kernel's own
// shared variables.
constexpr std::size_t resident_shared = 227 * 1024 - 4 * 1024;

// The sweeps a round of a resident queue of NC components takes in tiles of TX x TY, `Threads` a block,
// with tested runs (ResidentQueue::runs) or not: three where their arrays, rings and kept tiles fit in a
// block's shared memory (227 KB on an H100), else two. Three a round cross a third fewer grid barriers
// a sweep for a wider ring. Two where three would cost more than they save: in blocks of 1024 threads
// (64 registers a thread) tested runs and f64 spill more with three, and f64 tested runs are slower with
// three at any size.
template <class T, bool Jacobi, int TX, int TY, int Threads, int NC, bool Runs>
constexpr int round_sweeps() {
  constexpr bool f64 = sizeof(T) != sizeof(float);
  constexpr bool spills = Threads > 512 && (Runs || f64);  // at 64 registers a thread
  constexpr bool slower = Runs && f64;
  if (spills || slower) return 2;
  return ResidentShape<T, Jacobi, TX, TY, Threads, 3>::bytes(NC, Runs) <= resident_shared ? 3 : 2;
}

// The shape of a resident queue's tiles of TX x TY cells (rounds of round_sweeps), with room for an
// eighth more rows where shared memory holds them, for the inner tiles of a split that gives the side
// tiles fewer (tile_rows).
template <class T, bool Jacobi, int TX, int TY, int Threads, int NC, bool Runs>
struct ResidentShapeOf {
  static constexpr int K = round_sweeps<T, Jacobi, TX, TY, Threads, NC, Runs>(), more = TY + TY / 16 * 2;
  using Wide = ResidentShape<T, Jacobi, TX, TY, Threads, K, more>;
  using type = std::conditional_t<Wide::bytes(NC, Runs) <= resident_shared, Wide,
                                  ResidentShape<T, Jacobi, TX, TY, Threads, K>>;
};

// The cells of the band D cells wide along the edges of a W x h rectangle, numbered from 0: the rows
// of the bottom and top bands, then the columns between them.
template <int W, int D>
struct Band {
  static constexpr int rows = 2 * D * W;
  int h;
  static constexpr int cells_of(int h) { return rows + 2 * D * (h - 2 * D); }
  __device__ int cells() const { return cells_of(h); }
  // Cell k of the band at (x, y) in the rectangle.
  __device__ void cell(int k, int& x, int& y) const {
    if (k < rows) {
      y = k / W, x = k % W;
      if (y >= D) y += h - 2 * D;
    } else {
      y = D + (k - rows) / (2 * D), x = (k - rows) % (2 * D);
      if (x >= D) x += W - 2 * D;
    }
  }
};

// One component's tile for a round (FusedTile, whose sweeps it makes).
template <class S, bool Jacobi, bool Inside, bool Lean, class T>
struct ResidentTile : FusedTile<S, Jacobi, Inside, Lean, T> {
  using Shape = S;
  using Fused = FusedTile<S, Jacobi, Inside, Lean, T>;
  using Fused::c, Fused::grid_x, Fused::grid_y, Fused::h, Fused::height, Fused::i0, Fused::j0, Fused::ring;
  using Fused::sw, Fused::threads, Fused::w, Fused::xs, Fused::ys;
  T* kept;  // S::kept tiles (keep)

  __device__ int tile_rows() const { return height - 2 * ring; }

  // The ring's cells, where the blocks around wrote them: a thread's (at most two) in registers, all
  // loads in flight before any is stored (load_rings), through L2 (this SM's L1 may hold their lines
  // from two rounds before).
  using Ring = Band<w, ring>;
  static constexpr int ring_loads = (Ring::cells_of(h) + threads - 1) / threads;
  struct RingValues {
    T v[ring_loads];
  };
  // The thread's n-th ring cell at (x, y) in the region; false where it has no n-th.
  __device__ bool ring_cell(int n, int& x, int& y) const {
    const int k = int(threadIdx.x) + n * threads;
    const Ring band{height};
    if (k >= band.cells()) return false;
    band.cell(k, x, y);
    return true;
  }
  __device__ RingValues fetch_ring(const FieldView<T>& from) const {
    const T* p = from.comp(c);
    RingValues r;
#pragma unroll
    for (int n = 0, x, y; n < ring_loads && ring_cell(n, x, y); ++n)
      r.v[n] = __ldcg(p + from.offset(grid_x(x), grid_y(y)));
    return r;
  }
  __device__ void put_ring(const RingValues& r) const {
#pragma unroll
    for (int n = 0, x, y; n < ring_loads && ring_cell(n, x, y); ++n) xs[y * w + x] = r.v[n];
  }

  // A round of n (1 to K) sweeps, the last one's largest change on the tile into `largest`; where
  // `before` is given (tested sweeps), each earlier one's into before[m], and its tile kept (store_kept).
  // A Jacobi sweep leaves the values in the other array (FusedTile::jacobi_sweep swaps the tile's two).
  // The ghosts are left as the last sweep found them: what follows a round either loads the ring, which
  // sets them from their images (load_ring), or stores the tile, whose boundary images are taken from
  // the cells (store_tile).
  __device__ void round(int n, LargestChange<T>& largest, LargestChange<T>* before) {
    if (before) tested_before(n - 1, before, std::make_integer_sequence<int, S::sweeps - 1>{});
    else this->sweeps_before(n - 1);  // apart, so that untested sweeps have no test for `before` a cell
    if constexpr (Jacobi) {
      this->template jacobi_sweep<ring>(&largest);
    } else {
      this->template half_sweep<ring - 1>(sw.first, &largest);
      this->template half_sweep<ring>(1 - sw.first, &largest);
    }
  }
  template <int... M>
  __device__ void tested_before(int before_last, LargestChange<T>* before, std::integer_sequence<int, M...>) {
    ((M < before_last ? (this->template sweep<M>(before + M), keep(M, before_last)) : void()), ...);
  }

  // The tile's cells that rings around may read (all of them where `all`) into `to`: those within `ring`
  // of its edge, or every cell where the grid's end cuts the tiles of a periodic axis (the tile at that
  // end holds images of the first cells, and its ring reads cells from inside other tiles). The whole
  // tile goes with its boundary images.
  __device__ void store(FieldView<T> to, bool all) const {
    if (all) return this->store_swept(to);
    T* const p = to.comp(c);
    const int nx = sw.in.nx, ny = sw.in.ny, ty = tile_rows();
    auto put = [&](int x, int y) {
      const int i = i0 + ring + x, j = j0 + ring + y;
      if (i < nx && j < ny) p[to.offset(i, j)] = xs[(y + ring) * w + x + ring];
    };
    if ((this->px && nx % S::tx) || (this->py && j0 + ring + ty > ny)) {  // cut
      for (int k = int(threadIdx.x); k < S::tx * ty; k += threads) put(k % S::tx, k / S::tx);
      return;
    }
    const Band<S::tx, ring> edge{ty};
    for (int k = int(threadIdx.x); k < edge.cells(); k += threads) {
      int x, y;
      edge.cell(k, x, y);
      put(x, y);
    }
  }

  // The tile after sweep m of the `before_last` before a round's last into kept tile m (none for a
  // Jacobi round's last but one); a barrier follows, before the next sweep changes it.
  __device__ void keep(int m, int before_last) const {
    if (Jacobi && m == before_last - 1) return;
    T* const to = kept + m * S::tx * S::rows;
    for (int k = int(threadIdx.x); k < S::tx * tile_rows(); k += threads)
      to[k] = xs[(ring + k / S::tx) * w + ring + k % S::tx];
    __syncthreads();
  }

  // The whole tile as sweep m of the last round's n left it (m < n - 1) into `to`.
  __device__ void store_kept(FieldView<T> to, int m, int n) const {
    const T* const from = kept + m * S::tx * S::rows;
    const bool in_ys = Jacobi && m == n - 2;
    this->template store_tile<S::tx, ring>(to, [&](int x, int y) {
      return in_ys ? ys[y * w + x] : from[(y - ring) * S::tx + x - ring];
    });
  }

  // |b - A x|^2 over the grid cells of the tile (not their periodic images beyond the grid's end).
  __device__ double residual2() const {
    double s = 0;
    for (int k = int(threadIdx.x); k < S::tx * tile_rows(); k += threads) {
      const int x = ring + k % S::tx, y = ring + k / S::tx, i = i0 + x, j = j0 + y;
      if (i >= sw.in.nx || j >= sw.in.ny) continue;
      const double r = double(this->residual(y * w + x, Lean ? 0 : sw.in.offset(i, j)));
      s += r * r;
    }
    return s;
  }
};

// What a resident queue does: queue_sweeps's plan and tests. `runs`: change tests after every sweep go
// a round's sweeps to a round, the fields of all but the last kept in shared memory until every block
// knows whether their tests passed, so that a test after every sweep does not cost a round, and its grid
// barrier, every sweep.
struct ResidentQueue {
  QueuePlan plan;
  SweepLog* log;
  double below;
  bool residual, runs;

  // The next round from `sweeps` and `tested` tests done: its sweeps (up to `most`), and the tests in it
  // (0 or 1, at its end; with runs one after each of its sweeps).
  PDEX_HD int round(int sweeps, int tested, int most, int& tests) const {
    if (runs) {
      const int left = plan.max_sweeps - sweeps, tests_left = plan.tests - tested;
      const int n = most < left ? most : left;
      tests = n < tests_left ? n : tests_left;
      return tests;
    }
    const int to_test = plan.to_test(sweeps), n = to_test < most ? to_test : most;
    tests = n == to_test ? 1 : 0;
    return n;
  }
};

// The largest changes of a round's n tested sweeps (before[0 .. n - 2] and `last`), in one block
// reduction, into rows[0 .. n - 1] (fold_into_row's words; a reduction a sweep took two barriers more).
template <class T, int K>
struct RoundChanges {
  typename LargestChange<T>::Bits bits[K];
};
template <class T, int K>
struct MaxEach {
  __device__ static RoundChanges<T, K> identity() { return {}; }
  __device__ RoundChanges<T, K> operator()(RoundChanges<T, K> a, const RoundChanges<T, K>& b) const {
#pragma unroll
    for (int m = 0; m < K; ++m) a.bits[m] = b.bits[m] > a.bits[m] ? b.bits[m] : a.bits[m];
    return a;
  }
};
template <int Threads, class T, int K1>
__device__ void fold_into_rows(const LargestChange<T> (&before)[K1], LargestChange<T> last, int n, SweepLog::Row* rows) {
  constexpr int K = K1 + 1;
  RoundChanges<T, K> c;
#pragma unroll
  for (int m = 0; m < K; ++m) c.bits[m] = m < n - 1 ? before[m < K1 ? m : 0].bits : m == n - 1 ? last.bits : 0;
  c = cuda_detail::block_reduce<RoundChanges<T, K>, MaxEach<T, K>, Threads>(c, MaxEach<T, K>{});
  if (threadIdx.x != 0) return;
#pragma unroll
  for (int m = 0; m < K; ++m) {
    LargestChange<T> l;
    l.bits = c.bits[m];
    if (m < n) l.fold_into(rows[m].largest);
  }
}

// Every block alike: the first of tests `test` .. test + count - 1 (their rows complete, behind a grid
// barrier; count <= K) that passed, 0 to count - 1, else -1; block 0 records a pass in the log's stop
// word. `meanwhile()` runs while the rows are read (the next round's ring loads: a block that stops has
// loaded its ring for nothing, and writes only values that the rings around no longer use).
template <int K, class Meanwhile>
__device__ int first_passed(const ResidentQueue& q, int test, int count, Meanwhile meanwhile) {
  __shared__ bool stopped[K];
  auto queued = [&](int m) { return QueuedTest{q.log, -1, test + m, q.below, q.residual}; };
  QueuePeek peek[K];
#pragma unroll
  for (int m = 0; m < K; ++m)
    if (m < count) peek[m] = peek_queue<true>(queued(m));
  meanwhile();
  // Thread 0's decision on the test before, kept in a register: read back from `stopped`, the load was
  // made by every lane of warp 0 while thread 0 wrote the flag (racecheck's warnings).
  bool earlier = false;
#pragma unroll
  for (int m = 0; m < K; ++m) {
    if (m >= count) break;
    if (earlier) peek[m].stop = 1;  // one record, the first pass
    earlier = decide_queue(queued(m), peek[m], stopped[m]);
  }
  __syncthreads();
#pragma unroll
  for (int m = 0; m < K; ++m)
    if (m < count && stopped[m]) return m;
  return -1;
}

// The tiles of a block's NC components, kept for the whole queue (in registers: every index into them is
// a constant once the loops over components unroll; a Jacobi sweep swaps a tile's two arrays).
template <class Tile, int NC>
struct Tiles {
  Tile t[NC];
};

// Every component's ring from `from` (ResidentTile::fetch_ring: all of a thread's loads in flight at
// once), then the ghosts from their images. (Setting the ghosts in the same pass, from `from` where the
// image is a ring cell, spares a barrier but is slower.)
template <class Tile, int NC, class T>
__device__ void load_rings(Tiles<Tile, NC>& tiles, const FieldView<T>& from) {
  typename Tile::RingValues v[NC];
#pragma unroll
  for (int c = 0; c < NC; ++c) v[c] = tiles.t[c].fetch_ring(from);
#pragma unroll
  for (int c = 0; c < NC; ++c) tiles.t[c].put_ring(v[c]);
  __syncthreads();
#pragma unroll
  for (int c = 0; c < NC; ++c) tiles.t[c].refresh_ghosts();
}

template <class Tile, int NC, class T, class S = typename Tile::Shape, int... C>
__device__ Tiles<Tile, NC> make_tiles(const Sweep<T>& sw, T* arrays, SideInverses<T, S::w, S::h>* sides, int i0,
                                      int j0, int height, std::integer_sequence<int, C...>) {
  constexpr int n = S::w * S::h;
  T* const kept = arrays + NC * S::arrays * n;  // after every component's arrays
  auto periodic = [&](int side, int c) { return sw.bc.side[side][c].kind == BcKind::periodic; };
  return {{Tile{{{sw, sw.op.component(C), arrays + C * S::arrays * n, arrays + C * S::arrays * n + n, C, i0, j0,
                  periodic(left, C), periodic(bottom, C), sides ? sides + C : nullptr, height},
                 arrays + C * S::arrays * n + 2 * n},
                kept + C * S::kept * S::tx * S::rows}...}};
}

// A block's part of a resident queue, NC components in the shared memory at `arrays`, its region from
// grid cell (i0, j0), `height` rows; `Runs`: q.runs
// (a kernel of its own, so that the queues without tested runs keep their lean code, which a run-time
// flag would slow). Round r writes to
// `other` (sw.out) where r is even, else to x (sw.in), and reads its ring from the field the round before
// wrote. (One Sweep for all rounds, the fields chosen as views: a choice between two kernel parameters
// by reference would copy both to local memory.)
template <class S, bool Jacobi, bool Inside, bool Lean, int NC, bool Runs, class T>
__device__ void run_resident(const Sweep<T>& sw, const ResidentQueue& q, T* arrays, int i0, int j0, int height) {
  constexpr int K = S::sweeps;
  using Tile = ResidentTile<S, Jacobi, Inside, Lean, T>;
  const FieldView<T> x = as_writable(sw.in);
  constexpr bool sides = Lean && !Inside;
  __shared__ SideInverses<T, S::w, S::h> side_tables[sides ? NC : 1];
  Tiles<Tile, NC> tiles =
      make_tiles<Tile, NC>(sw, arrays, sides ? side_tables : nullptr, i0, j0, height, std::make_integer_sequence<int, NC>{});
  auto store = [&](FieldView<T> to, bool all) {
#pragma unroll
    for (int c = 0; c < NC; ++c) tiles.t[c].store(to, all);
  };
  auto store_kept = [&](FieldView<T> to, int m, int n) {
#pragma unroll
    for (int c = 0; c < NC; ++c) tiles.t[c].store_kept(to, m, n);
  };
#pragma unroll
  for (int c = 0; c < NC; ++c) {
    tiles.t[c].load();
    if constexpr (sides) tiles.t[c].fill_sides();
  }
  __syncthreads();
  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  bool ring_loaded = true;
  for (int sweeps = 0, tests = 0, r = 0;; ++r) {
    const FieldView<T> to = r % 2 ? x : sw.out, from = r % 2 ? sw.out : x;
    if (!ring_loaded) load_rings(tiles, from);
    int tested;
    const int n = q.round(sweeps, tests, K, tested);
    const bool run = Runs && tested > 1;  // a test after each of the round's sweeps
    LargestChange<T> largest, before[K - 1];
#pragma unroll
    for (int c = 0; c < NC; ++c) tiles.t[c].round(n, largest, run ? before : nullptr);
    sweeps += n;
    // Read by the host too.
    if (run) fold_into_rows<S::threads>(before, largest, n, q.log->rows + tests);
    else if (tested) fold_into_row<S::threads>(largest, q.log->rows[tests].largest);
    const bool last = !q.plan.more(sweeps, tests + tested);
    if (last && !run && !(tested && q.residual)) return store(to, true);
    store(to, false);
    grid.sync();
    ring_loaded = false;
    auto next_ring = [&] { load_rings(tiles, to); };
    if (run) {  // the last round's last test is the host's to read
      const int passed =
          last ? first_passed<K>(q, tests, tested - 1, [] {}) : first_passed<K>(q, tests, tested, next_ring);
      if (passed >= 0 && passed < n - 1) return store_kept(to, passed, n);
      if (passed >= 0 || last) return store(to, true);
      ring_loaded = true;
      tests += tested;
      continue;
    }
    if (!tested) continue;
    if (q.residual) {
      next_ring();
      double s = 0;
#pragma unroll
      for (int c = 0; c < NC; ++c) s += tiles.t[c].residual2();
      add_into_row<S::threads>(s, q.log->rows[tests].residual2);
      if (last) return store(to, true);
      grid.sync();
    }
    const int passed =
        q.residual ? first_passed<1>(q, tests, 1, [] {}) : first_passed<1>(q, tests, 1, next_ring);
    if (passed == 0) return store(to, true);
    ring_loaded = true;
    ++tests;
  }
}

// Each block's tile (TileRows::place) for the kernel, read by block index from its parameters: column |
// first row << 8 | rows << 24. (The origin computed in the kernel from TileRows, a chain with a
// division, would stay in registers through the sweeps, where ptxas recomputes one read from a parameter:
// the f32 kernels of 1024 threads would spill more.)
struct TilePlaces {
  static constexpr int most = 512;
  unsigned word[most];

  // False where the tiles do not fit the words.
  bool set(const TileRows& t) {
    if (t.blocks() > most || t.columns > 256) return false;
    for (int b = 0; b < t.blocks(); ++b) {
      int column, tile;
      const ColumnTiles c = t.place(b, column, tile);
      if (c.start(tile) >= 1 << 16 || c.rows(tile) >= 1 << 8) return false;
      word[b] = unsigned(column) | unsigned(c.start(tile)) << 8 | unsigned(c.rows(tile)) << 24;
    }
    return true;
  }
};

// A resident queue (ResidentShape S) of NC components from x (sw.in) and the other field (sw.out), a
// block a tile of `places`.
// Without per-cell coefficients the point update is the lean one (TileRegion), in the blocks along the
// grid's sides too (SideInverses): every round waits at the grid barrier for the slowest block, which
// the general update along the sides would make far slower than the inner ones.
// A kernel per component count: one kernel for both needs many more registers and spills at 1024
// threads. One block a multiprocessor, said: without it, ptxas caps the f32 red-black kernel of 512
// threads and three sweeps a round at 64 registers, and it spills.
template <class S, bool Jacobi, int NC, bool Runs, class T>
__global__ void __launch_bounds__(S::threads, 1) resident_sweep_kernel(Sweep<T> sw, ResidentQueue q, TilePlaces places) {
  extern __shared__ __align__(16) unsigned char resident_arrays[];
  T* const arrays = reinterpret_cast<T*>(resident_arrays);
  const unsigned place = places.word[blockIdx.x];
  const int i0 = int(place & 0xffu) * S::tx - S::ring, j0 = int(place >> 8 & 0xffffu) - S::ring;
  const int height = int(place >> 24) + 2 * S::ring;
  const bool inside = i0 >= 0 && j0 >= 0 && i0 + S::w <= sw.in.nx && j0 + height <= sw.in.ny;
  bool lean = true;
  for (int c = 0; c < NC; ++c) lean = lean && !sw.op.d[c];
  if (lean && inside) run_resident<S, Jacobi, true, true, NC, Runs>(sw, q, arrays, i0, j0, height);
  else if (lean) run_resident<S, Jacobi, false, true, NC, Runs>(sw, q, arrays, i0, j0, height);
  else run_resident<S, Jacobi, false, false, NC, Runs>(sw, q, arrays, i0, j0, height);
}

// The rounds of a resident queue as the kernel takes them (ResidentQueue::round).
inline SweepQueue resident_rounds(const ResidentQueue& rq, int most) {
  SweepQueue q;
  while (rq.plan.more(q.sweeps, q.tests)) {
    int tested;
    q.sweeps += rq.round(q.sweeps, q.tests, most, tested);
    ++q.launches;
    for (int t = 0; t < tested; ++t) q.through_test[q.tests++] = q.launches;
  }
  return q;
}

// How much slower a cell of a block along the grid's sides is than an inner one's, for tile_rows: with
// the lean point update (SideInverses), its table lookups and ghost refreshes make it about 1.45 times
// as slow (a fit to profiles of f32 red-black sweeps with a change test after each); with the general
// one, which every block takes, about as fast.
template <class T>
double side_weight(const Sweep<T>& sw, int components) {
  for (int c = 0; c < components; ++c)
    if (sw.op.d[c]) return 1.0;
  return 1.45;
}

// The queue in one cooperative launch of tiles of shape S, where all its blocks fit on the GPU at once;
// false where not.
template <class S, bool Jacobi, int NC, bool Runs, class T>
bool launch_resident(const Cuda& ex, const Sweep<T>& sw, const ResidentQueue& rq, SweepQueue& q) {
  const CudaContext& ctx = *ex.context;
  const std::size_t bytes = S::bytes(NC, Runs);
  if (!ctx.cooperative_launch()) return false;
  auto kernel = resident_sweep_kernel<S, Jacobi, NC, Runs, T>;
  // One block a multiprocessor, as tile_rows's costs assume, where a multiprocessor holds more: every
  // round waits for the slowest, and one holding two blocks takes both blocks' time.
  if (ctx.resident_blocks(reinterpret_cast<const void*>(kernel), S::threads, bytes) < 1) return false;
  const int blocks = ctx.multiprocessors();
  // The tiles of this kernel's last launch, kept with what they depend on: tile_rows and TilePlaces::set
  // take microseconds on the host, and a theta scheme's run launches a queue every step.
  struct Split {
    Extents2 n{};
    int blocks = 0;
    double weight = 0;
    bool fits = false;
    TileRows tiles;
    TilePlaces places;
  };
  static thread_local Split last;
  const double weight = side_weight(sw, NC);
  if (!(last.n == sw.in.extents()) || last.blocks != blocks || last.weight != weight) {
    last.n = sw.in.extents(), last.blocks = blocks, last.weight = weight;
    last.tiles = tile_rows(sw.in.extents(), S::tx, S::ty, 2 * S::ring, S::rows, blocks, weight);
    last.fits = last.tiles.blocks() <= blocks && last.places.set(last.tiles);
  }
  if (!last.fits) return false;
  launch_cooperative(ctx, "resident_sweep_kernel", kernel, dim3(unsigned(last.tiles.blocks())), dim3(S::threads), bytes,
                     sw, rq, last.places);
  q = resident_rounds(rq, S::sweeps);
  return true;
}

// Tiles of 32 x 16, 64 x 32 or 128 x 64 cells, the first whose blocks are no more than the GPU's
// multiprocessors (one block each: 256^2, 512^2 and 1024^2 are 128 blocks of these); larger grids take
// the queued launches.
template <bool Jacobi, int NC, bool Runs, class T>
bool launch_resident_tiles(const Cuda& ex, const Sweep<T>& sw, const ResidentQueue& rq, SweepQueue& q) {
  using Small = typename ResidentShapeOf<T, Jacobi, 32, 16, 256, NC, Runs>::type;
  using Middle = typename ResidentShapeOf<T, Jacobi, 64, 32, 512, NC, Runs>::type;
  using Large = typename ResidentShapeOf<T, Jacobi, 128, 64, 1024, NC, Runs>::type;
  const std::int64_t sms = ex.context->multiprocessors(), nx = sw.in.nx, ny = sw.in.ny;
  auto blocks = [&](int tx, int ty) { return ((nx + tx - 1) / tx) * ((ny + ty - 1) / ty); };
  if (blocks(Small::tx, Small::ty) <= sms) return launch_resident<Small, Jacobi, NC, Runs>(ex, sw, rq, q);
  if (blocks(Middle::tx, Middle::ty) <= sms) return launch_resident<Middle, Jacobi, NC, Runs>(ex, sw, rq, q);
  return blocks(Large::tx, Large::ty) <= sms && launch_resident<Large, Jacobi, NC, Runs>(ex, sw, rq, q);
}

}  // namespace tile_sweep_detail

template <class T>
bool resident_sweeps(const Cuda& ex, const Helmholtz<T>& op, bool jacobi, FieldView<T> x, FieldView<T> other,
                     FieldView<const T> b, const FieldBoundary& bc, T omega, SweepLog* log, const QueuePlan& plan,
                     double below, bool residual, SweepQueue& q) {
  using namespace tile_sweep_detail;
  if (!jacobi && !colours_close(x.extents(), x.ncomp, bc)) return false;
  const Sweep<T> sw{op.refreshed(), as_const(x), b, other, bc, omega, jacobi ? -1 : 0};
  const ResidentQueue rq{plan, log, below, residual, plan.every == 1 && !residual};
  static_assert(max_solver_components == 2);
  auto launch = [&](auto jacobi_c, auto components) {  // std::bool_constant, std::integral_constant
    constexpr bool J = decltype(jacobi_c)::value;
    constexpr int NC = decltype(components)::value;
    return rq.runs ? launch_resident_tiles<J, NC, true>(ex, sw, rq, q) : launch_resident_tiles<J, NC, false>(ex, sw, rq, q);
  };
  using One = std::integral_constant<int, 1>;
  using Two = std::integral_constant<int, 2>;
  if (x.ncomp == 1) return jacobi ? launch(std::true_type{}, One{}) : launch(std::false_type{}, One{});
  return jacobi ? launch(std::true_type{}, Two{}) : launch(std::false_type{}, Two{});
}

}  // namespace pdex
