#pragma once
// Forward Euler on CUDA for isotropic runs (any boundaries), one pass per step: each thread advances two
// neighbouring columns of a few rows, from register copies of them and their neighbours
// (ColumnPairStars: vector loads and stores), forming offsets once, and only threads whose cells touch a
// side test them for ghost images. The shapes (pairs of columns, 1 or 2 rows, 64 threads a block) were the
// fastest of those tried from 512^2 to 8192^2, in f32 and f64.
// The arithmetic is the model's own right-hand side (ArdRhs::eval_star), as in every other schedule.
// Every other step takes its blocks in reverse (core/cuda/block_order.cuh), to start on rows still in L2.
#include <cuda_runtime.h>

#include <cstdint>

#include "pdex/core/cuda/block_order.cuh"
#include "pdex/core/cuda/cuda_check.hpp"
#include "pdex/core/cuda/cuda_context.hpp"
#include "pdex/core/cuda/launch.cuh"
#include "pdex/core/executor.hpp"
#include "pdex/grid/boundary.hpp"
#include "pdex/grid/field_view.hpp"
#include "pdex/grid/members.hpp"
#include "pdex/time/cuda/column_stars.cuh"

namespace pdex {

namespace strips_detail {

constexpr int64_t two_rows_from = int64_t(2048) * 2048;  // cells from which a thread takes two rows (below)

template <class T, class Rhs, int R>
struct StripStep {
  Rhs rhs;
  FieldView<const T> in;
  FieldView<T> out;
  FieldBoundary bc;
  T dt;

  // The new values of the cell at offset o from its stars, by the right-hand side f (rhs, or a member's).
  template <class F>
  __device__ void update(const F& f, const Star<T>& u, const Star<T>& v, int64_t o, T& nu, T& nv) const {
    T r[2];
    f.eval_star(u, v, f.h, o, r);
    nu = f.limit(0, u.c + dt * r[0]);
    nv = f.limit(1, v.c + dt * r[1]);
  }

  // Cells i0 and i0 + 1 (i0 even) of rows j0 .. j0 + R - 1, none with ghost images.
  template <class F>
  __device__ void inner(const F& f, int i0, int j0) const {
    const int64_t o0 = in.offset(i0, j0);
    ColumnPairStars<T, R> u, v;
    u.load(in.comp(0) + o0, in.pitch);
    v.load(in.comp(1) + o0, in.pitch);
#pragma unroll
    for (int k = 0; k < R; ++k) {
      const int64_t o = o0 + k * in.pitch;
      T u0, v0, u1, v1;
      update(f, u.first(k), v.first(k), o, u0, v0);
      update(f, u.second(k), v.second(k), o + 1, u1, v1);
      store_pair(out.comp(0) + o, u0, u1);
      store_pair(out.comp(1) + o, v0, v1);
    }
  }

  // The ghost images of the cells of inner(i0, j0) that touch a side of `own` (rows r0 .. r0 + R - 1
  // there), from the values this thread has just stored.
  __device__ void push_images(const FieldView<T>& own, int i0, int j0, int r0) const {
#pragma unroll 1
    for (int q = 0; q < 2 * R; ++q) {
      const int i = i0 + (q & 1), r = r0 + (q >> 1);
      if (!near_boundary(own, i, r)) continue;
      const int64_t o = in.offset(i, j0 + (q >> 1));
      push_ghosts(own, bc, 0, i, r, out.comp(0)[o]);
      push_ghosts(own, bc, 1, i, r, out.comp(1)[o]);
    }
  }

  // The same for a pair of columns that touches a side (or has one column only), cell by cell, which
  // keeps the kernel's register count that of the inner pairs; rows j0 .. j0 + n - 1, which are rows
  // r0 .. r0 + n - 1 of `own`, the run whose ghosts they write (a member of an ensemble, or out).
  template <class F>
  __device__ void edge(const F& f, const FieldView<T>& own, int i0, int j0, int r0, int n) const {
#pragma unroll 1
    for (int q = 0; q < 2 * n; ++q) {  // one loop, not unrolled: one copy of the ghost writes
      const int i = i0 + (q & 1), j = j0 + (q >> 1), r = r0 + (q >> 1);
      if (i >= in.nx) continue;
      const int64_t o = in.offset(i, j);
      T nu, nv;
      update(f, star_at(in.comp(0), o, in.pitch), star_at(in.comp(1), o, in.pitch), o, nu, nv);
      out.comp(0)[o] = nu;
      out.comp(1)[o] = nv;
      if (near_boundary(own, i, r)) {
        push_ghosts(own, bc, 0, i, r, nu);
        push_ghosts(own, bc, 1, i, r, nv);
      }
    }
  }
};

// Threads: pairs of columns per block row (a warp's loads are coalesced); Rows: block rows, each R grid
// rows tall, stacked so that the rows two of them read are read once from L2 (through L1).
template <int Threads, int Rows, class T, class Rhs, int R>
__global__ void __launch_bounds__(Threads * Rows)
    euler_strips_kernel(StripStep<T, Rhs, R> step, bool reversed_blocks) {
  begin_dependent_grid();
  const FieldView<const T>& in = step.in;
  const int i0 = 2 * (block_x(reversed_blocks) * Threads + int(threadIdx.x));
  const int j0 = (block_y(reversed_blocks) * Rows + int(threadIdx.y)) * R;
  if (i0 >= in.nx || j0 >= in.ny) return;
  const int n = in.ny - j0 < R ? in.ny - j0 : R;
  const int g = in.ghost;
  if (n == R && i0 >= g && i0 + 1 < in.nx - g && j0 >= g && j0 + R <= in.ny - g) step.inner(step.rhs, i0, j0);
  else step.edge(step.rhs, step.out, i0, j0, j0, n);
}

// The same over the members of a stacked ensemble (grid/members.hpp), R dividing the members' period so
// that a thread's rows belong to one member or are ghost rows between two; member_rhs(m) is member m's
// right-hand side. Members are narrow (a warp's pairs of columns reach a side in every row of a 128-wide
// member), so a full pair that touches a side is stepped as an inner one, its ghost images pushed after:
// only those few stores diverge.
// Registers capped for six blocks an SM: the member's right-hand side and side tests would otherwise
// take enough of them to lower the blocks resident, and this kernel waits on latency, not bandwidth.
template <int Threads, int Rows, class T, class Rhs, int R, class MemberRhs>
__global__ void __launch_bounds__(Threads * Rows, 6)
    euler_member_strips_kernel(StripStep<T, Rhs, R> step, Members mb, MemberRhs member_rhs, bool reversed_blocks) {
  begin_dependent_grid();
  const FieldView<const T>& in = step.in;
  const int i0 = 2 * (block_x(reversed_blocks) * Threads + int(threadIdx.x));
  const int j0 = (block_y(reversed_blocks) * Rows + int(threadIdx.y)) * R;
  if (i0 >= in.nx || j0 >= in.ny) return;
  const int m = mb.member(j0), r0 = j0 - mb.row(m, 0);
  if (r0 >= mb.ny) return;
  const int n = mb.ny - r0 < R ? mb.ny - r0 : R;
  const int g = in.ghost;
  const auto& f = member_rhs(m);
  if (n < R || i0 + 1 >= in.nx) return step.edge(f, mb.view(step.out, m), i0, j0, r0, n);
  step.inner(f, i0, j0);
  if (i0 < g || i0 + 1 >= in.nx - g || r0 < g || r0 + R > mb.ny - g) step.push_images(mb.view(step.out, m), i0, j0, r0);
}

template <int Threads, int Rows, int R, class T, class Rhs>
void launch_strips(const CudaContext& ctx, const StripStep<T, Rhs, R>& step) {
  const dim3 grid(unsigned((step.in.nx + 2 * Threads - 1) / (2 * Threads)),
                  unsigned((step.in.ny + R * Rows - 1) / (R * Rows)));
  const bool reversed_blocks = reverse_block_order(step.in.data, step.out.data);
  launch(ctx, "euler_strips", euler_strips_kernel<Threads, Rows, T, Rhs, R>, grid, dim3(Threads, Rows), 0, step,
         reversed_blocks);
}

template <int Threads, int Rows, int R, class T, class Rhs, class MemberRhs>
void launch_member_strips(const CudaContext& ctx, const StripStep<T, Rhs, R>& step, const Members& mb,
                          MemberRhs member_rhs) {
  const dim3 grid(unsigned((step.in.nx + 2 * Threads - 1) / (2 * Threads)),
                  unsigned((step.in.ny + R * Rows - 1) / (R * Rows)));
  const bool reversed_blocks = reverse_block_order(step.in.data, step.out.data);
  launch(ctx, "euler_member_strips", euler_member_strips_kernel<Threads, Rows, T, Rhs, R, MemberRhs>, grid,
         dim3(Threads, Rows), 0, step, mb, member_rhs, reversed_blocks);
}

}  // namespace strips_detail

// One forward Euler step from `in` to `out`, ghosts of `out` written as the cells are (Rhs isotropic).
// Two rows per thread keep more loads in flight, which large grids need to approach the copy bandwidth;
// one row leaves twice the threads, which smaller grids need to fill the GPU. Four rows of threads a
// block (two-row strips) halve the L2 reads.
template <class T, class Rhs>
void euler_strips(const Cuda& ex, const Rhs& rhs, FieldView<const T> in, FieldView<T> out, const FieldBoundary& bc,
                  T dt) {
  using namespace strips_detail;
  const CudaContext& ctx = *ex.context;
  if (int64_t(in.nx) * in.ny >= two_rows_from) launch_strips<64, 4>(ctx, StripStep<T, Rhs, 2>{rhs, in, out, bc, dt});
  else launch_strips<64, 1>(ctx, StripStep<T, Rhs, 1>{rhs, in, out, bc, dt});
}

// One forward Euler step of every member of a stacked ensemble, in one launch (member_rhs as
// ensemble_euler in time/forward_euler.hpp takes it). Two rows a thread where they divide the members'
// period, as for a single run of as many cells.
template <class T, class Rhs, class MemberRhs>
void euler_strips(const Cuda& ex, const Rhs& rhs, FieldView<const T> in, FieldView<T> out, const FieldBoundary& bc,
                  T dt, const Members& members, MemberRhs member_rhs) {
  using namespace strips_detail;
  const CudaContext& ctx = *ex.context;
  if (int64_t(in.nx) * in.ny >= two_rows_from && members.period() % 2 == 0)
    launch_member_strips<64, 4>(ctx, StripStep<T, Rhs, 2>{rhs, in, out, bc, dt}, members, member_rhs);
  else
    launch_member_strips<64, 1>(ctx, StripStep<T, Rhs, 1>{rhs, in, out, bc, dt}, members, member_rhs);
}

}  // namespace pdex
