#pragma once
// The theta step in one launch on CUDA, for fully periodic runs with constant isotropic diffusion solved
// by red-black Gauss-Seidel or SOR (the runs theta_tiles_apply() selects). Each block copies a region of
// the grid into shared memory: the right-hand side b (eqs. 13-14) and the extrapolated guess x0 = 2 u^n
// - u^{n-1} (or, for a launch that goes on with a solve, the last launch's x) at every cell, then
// `sweeps` red-black sweeps there, each half-sweep updating every cell of
// its colour (the region's outer rings go stale a ring per half-sweep, never reaching the tile), then
// the residual b - A x at the tile's cells, summed with |b|^2 into the solve's relative residual, which
// the last block hands to the host, or tests itself (a queued step, ThetaQueue). The unknowns are
// written unclamped: the residual test decides between the clamp and another launch from them. Seed 000 found the GPU's semi-implicit step
// bound by its many relaxation passes and reductions (sec. 4); here they are one pass over memory and
// one reduction. The arithmetic is the plain path's: theta_b() and the Helmholtz operator's point
// update (relaxation.hpp's relax_point), only the order of work differs.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "pdex/core/cuda/cuda_check.hpp"
#include "pdex/core/cuda/cuda_context.hpp"
#include "pdex/core/cuda/parallel_cuda.cuh"
#include "pdex/core/executor.hpp"
#include "pdex/grid/field_view.hpp"
#include "pdex/linalg/grid_ops.hpp"
#include "pdex/linalg/helmholtz.hpp"
#include "pdex/models/ard/ard_theta.hpp"
#include "pdex/models/ard/theta_tiles_shape.hpp"
#include "pdex/time/cuda/euler_tiles.cuh"

namespace pdex {

namespace theta_tiles_detail {

// A thread's cells: rows y0 .. y0 + rows - 1 of column x of the region, for both species. Row k has
// colour (parity + k) & 1, so a half-sweep updates rows k = 2m + odd, m = 0 .. rows/2 - 1: indices
// known at compile time up to the choice between two of them, which keeps the arrays in registers.
template <class C, class T>
struct Column {
  T x[2][C::rows], b[2][C::rows];
  int col, y0;

  __device__ static int at(int x, int y) { return (y + 1) * C::pitch + x + 1; }

  // One half-sweep: x += omega (b - A x) / diag at this thread's cells of the colour (odd: rows 1, 3, ..).
  __device__ void relax(T* xs, const Helmholtz<T>& op, T omega, int odd) {
#pragma unroll
    for (int m = 0; m < C::rows / 2; ++m) {
      const int k = 2 * m + odd;
#pragma unroll
      for (int c = 0; c < 2; ++c) {
        const T* s = xs + c * C::cells;
        const T own = odd ? x[c][2 * m + 1] : x[c][2 * m];
        const T bk = odd ? b[c][2 * m + 1] : b[c][2 * m];
        // South (row k - 1) and north (row k + 1): this thread's other colour, or the next thread's row.
        // (Out-of-range indices are clamped where the branch is not taken, so that every index is a constant.)
        const bool last = 2 * m + 2 == C::rows;
        const T south = odd ? x[c][2 * m] : m > 0 ? x[c][m > 0 ? 2 * m - 1 : 0] : s[at(col, y0 - 1)];
        const T north = !odd ? x[c][2 * m + 1] : !last ? x[c][last ? 0 : 2 * m + 2] : s[at(col, y0 + C::rows)];
        const T w = s[at(col - 1, y0 + k)], e = s[at(col + 1, y0 + k)];
        const T dx = omega * (bk - op.apply5_with(op.beta[c], own, w, e, south, north)) * op.inner_inv[c];
        const T v = own + dx;
        if (odd) x[c][2 * m + 1] = v;
        else x[c][2 * m] = v;
        xs[c * C::cells + at(col, y0 + k)] = v;
      }
    }
  }
};

// Where a launch's residual goes: to the host (queue null), or to the record of queued steps.
struct ThetaTest {
  Pair* result;
  volatile unsigned* flag;
  unsigned ticket;
  ThetaQueue* queue;
  int step, launch;  // in the queue
  bool last;         // the step's last queued launch
  double tol;

  // A queued launch with nothing to do: its step passed an earlier test, or a step ran out of launches.
  // (Read from L2: the launches before wrote them.)
  __device__ bool idle() const {
    return queue && (__ldcg(&queue->overflow) != 0 || (launch > 0 && __ldcg(&queue->passed) != 0));
  }
  // By the last block to finish, with the launch's sums; resets the count of finished blocks.
  __device__ void report(Pair total, unsigned* done) const {
    if (!queue) return cuda_detail::hand_to_host(total, result, done, flag, ticket);
    const double r = relative_residual(total);
    const bool passed = r <= tol;  // false for NaN
    queue->steps[step].residual[launch] = r;
    queue->steps[step].launches = launch + 1;
    queue->passed = passed;
    queue->result = launch & 1;
    if (!passed && last) queue->overflow = step + 1;
    *done = 0;
  }
};

template <class C, class T, class Rhs>
__global__ void __launch_bounds__(C::threads, 1)
    theta_tiles_kernel(Rhs rhs, FieldView<const T> u, FieldView<const T> from, FieldView<T> out, Helmholtz<T> op,
                       T dt, T theta, T omega, int sweeps, bool extrapolate, int tiles_x, int tiles, Pair* partials,
                       unsigned* done, ThetaTest test) {
  begin_dependent_grid();
  if (test.idle()) return;  // every block alike: the launches before decided
  using Col = Column<C, T>;
  extern __shared__ unsigned char raw[];
  T* xs = reinterpret_cast<T*>(raw);  // [species][cell]: the region's unknowns, cell (x, y) at Col::at(x, y)
  tiles_detail::zero_ring<C>(xs, 2);

  Col t;
  t.col = int(threadIdx.x) % C::w;
  t.y0 = int(threadIdx.x) / C::w * C::rows;
  Pair acc{0, 0};
  for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const int gx0 = tile % tiles_x * C::tx - C::halo, gy0 = tile / tiles_x * C::ty - C::halo;
    const int i = tiles_detail::wrap(gx0 + t.col, u.nx);
#pragma unroll
    for (int k = 0; k < C::rows; ++k) {
      const int64_t o = u.offset(i, tiles_detail::wrap(gy0 + t.y0 + k, u.ny));
      T bo[2];
      ard_detail::theta_b(rhs, u, o, dt, theta, bo);
#pragma unroll
      for (int c = 0; c < 2; ++c) {
        t.b[c][k] = bo[c];
        t.x[c][k] = extrapolate ? T(2) * u.comp(c)[o] - from.comp(c)[o] : from.comp(c)[o];
        xs[c * C::cells + Col::at(t.col, t.y0 + k)] = t.x[c][k];
      }
    }
    __syncthreads();
    // Sizes are even, so the colour of a cell of the region is that of its global image.
    const int parity = (gx0 + t.col + gy0 + t.y0) & 1;
    for (int h = 0; h < 2 * sweeps; ++h) {  // red ((i + j) even) first, as rb_sweep
      t.relax(xs, op, omega, (parity + h) & 1);
      __syncthreads();
    }
#pragma unroll
    for (int k = 0; k < C::rows; ++k) {
      const int x = t.col, y = t.y0 + k;
      const bool mine = x >= C::halo && x < C::w - C::halo && y >= C::halo && y < C::hgt - C::halo &&
                        gx0 + x < out.nx && gy0 + y < out.ny;
      if (!mine) continue;
      const int64_t o = out.offset(gx0 + x, gy0 + y);
#pragma unroll
      for (int c = 0; c < 2; ++c) {
        const T* s = xs + c * C::cells;
        const T ax = op.apply5_with(op.beta[c], t.x[c][k], s[Col::at(x - 1, y)], s[Col::at(x + 1, y)],
                                    s[Col::at(x, y - 1)], s[Col::at(x, y + 1)]);
        const double r = double(t.b[c][k] - ax);
        acc.a += r * r;
        acc.b += double(t.b[c][k]) * double(t.b[c][k]);
        out.comp(c)[o] = t.x[c][k];
      }
    }
    __syncthreads();  // the next tile overwrites shared memory
  }

  // The block's sums, then the last block to finish sums the blocks' in a fixed order (deterministic).
  const PairSum sum{};
  for (int off = 16; off > 0; off /= 2) acc = sum(acc, cuda_detail::shuffle_down(acc, off));
  __shared__ Pair warp_sums[C::threads / 32];
  __shared__ bool last;
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = acc;
  __syncthreads();
  if (threadIdx.x == 0) {
    Pair block{0, 0};
    for (int k = 0; k < C::threads / 32; ++k) block = sum(block, warp_sums[k]);
    partials[blockIdx.x] = block;
    last = cuda_detail::finished(done);
  }
  __syncthreads();
  if (!last || threadIdx.x >= 32) return;
  __threadfence();
  Pair total{0, 0};
  for (int k = int(threadIdx.x); k < int(gridDim.x); k += 32) total = sum(total, cuda_detail::load_l2(partials + k));
  for (int off = 16; off > 0; off /= 2) total = sum(total, cuda_detail::shuffle_down(total, off));
  if (threadIdx.x == 0) test.report(total, done);
}

template <class T, class Rhs, class C = ThetaTiles<T>>
void launch_theta_tiles(const Cuda& ex, const Rhs& rhs, FieldView<const T> u, FieldView<const T> from,
                        FieldView<T> out, const Helmholtz<T>& op, T dt, T theta, T omega, int sweeps, bool extrapolate,
                        const ThetaTest& test) {
  const auto kernel = theta_tiles_kernel<C, T, Rhs>;
  static const int per_sm = [&] {  // once per kernel: shared memory beyond 48 KB must be asked for
    if (C::shared_bytes > 48 * 1024)
      PDEX_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(C::shared_bytes)));
    int n = 0;
    PDEX_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel, C::threads, C::shared_bytes));
    return std::max(n, 1);
  }();
  const CudaContext& ctx = *ex.context;
  const int tiles_x = (u.nx + C::tx - 1) / C::tx, tiles = tiles_x * ((u.ny + C::ty - 1) / C::ty);
  const int blocks = std::min({tiles, per_sm * ctx.multiprocessors(), CudaContext::max_reduce_blocks});
  launch(ctx, "theta_tiles", kernel, dim3(blocks), dim3(C::threads), C::shared_bytes, rhs, u, from, out, op, dt, theta,
         omega, sweeps, extrapolate, tiles_x, tiles, static_cast<Pair*>(ctx.reduce_scratch()), ctx.reduce_count(), test);
}

}  // namespace theta_tiles_detail

// `sweeps` red-black sweeps (<= C::sweeps) of one theta step's solve, with b from u (the state), from
// the guess 2 u - from (extrapolate: `from` is the previous state) or `from` itself, into out
// (unclamped, no ghosts; not `from`); returns {|b - A x|^2, |b|^2} over the cells and both species.
// op: refreshed(), constant coefficients.
template <class T, class Rhs>
Pair theta_tiles(const Cuda& ex, const Rhs& rhs, FieldView<const T> u, FieldView<const T> from, FieldView<T> out,
                 const Helmholtz<T>& op, T dt, T theta, T omega, int sweeps, bool extrapolate) {
  const CudaContext& ctx = *ex.context;
  Pair* result = static_cast<Pair*>(ctx.pinned_result());
  const unsigned ticket = ctx.next_ticket();
  theta_tiles_detail::launch_theta_tiles(ex, rhs, u, from, out, op, dt, theta, omega, sweeps, extrapolate,
                                         {result, ctx.pinned_flag(), ticket, nullptr, 0, 0, false, 0.0});
  ctx.wait_for(ticket);
  return *result;
}

// The same sweeps as launch `launch` of step `step` in the queue, with no host wait: the launch tests
// its residual against tol itself (theta_tiles_detail::ThetaTest); `last`: the step's last one queued.
template <class T, class Rhs>
void theta_tiles_queued(const Cuda& ex, const Rhs& rhs, FieldView<const T> u, FieldView<const T> from,
                        FieldView<T> out, const Helmholtz<T>& op, T dt, T theta, T omega, int sweeps, ThetaQueue* queue,
                        int step, int launch, bool last, double tol) {
  theta_tiles_detail::launch_theta_tiles(ex, rhs, u, from, out, op, dt, theta, omega, sweeps, launch == 0,
                                         {nullptr, nullptr, 0, queue, step, launch, last, tol});
}

}  // namespace pdex
