#pragma once
// Forward Euler on CUDA, EulerStream<T>::steps steps a launch by register streaming (the design of
// bench/euler_stream_probe.cu, docs/performance.md): each warp owns a strip of columns and a segment of
// rows, and walks down the rows keeping, for each time level, the last two rows it computed in
// registers; level l's row R is computed from level l - 1's rows R - 1 .. R + 1 as soon as row R + 1
// exists. East and west neighbours across threads come from warp shuffles: no shared memory, no
// barrier, one read and one write of each cell per launch. A strip recomputes a halo of columns each
// side and a segment k - 1 rows above it, so that warps never exchange data.
//
// Every update is the model's own (ArdRhs::eval_star, limit), on the same stars as euler_strips, so the
// result is bitwise that of `steps` one-pass steps. The sides: the first level reads the ghosts of `in`;
// every later level forms the ghost a stencil reads at a non-periodic side as push_ghosts would have
// written it (the same expression, a * cell + b, of the side's image rule), while a periodic axis is
// read across, wrapped. `out`'s ghosts are pushed at the end of each walk.
// Runs that euler_stream_takes (time/euler_stream_shape.hpp).
#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>

#include "pdex/core/cuda/cuda_check.hpp"
#include "pdex/core/cuda/cuda_context.hpp"
#include "pdex/core/cuda/launch.cuh"
#include "pdex/core/executor.hpp"
#include "pdex/grid/boundary.hpp"
#include "pdex/grid/field_view.hpp"
#include "pdex/grid/stencil.hpp"
#include "pdex/time/euler_stream_shape.hpp"

namespace pdex {

namespace stream_detail {

// Index i of an axis of n cells and g ghosts, as the kernel reads it: wrapped on a periodic axis (once:
// euler_stream_takes asks for axes longer than what a warp reaches past them), else clamped to the
// ghosts (cells beyond them only feed halo cells that no kept cell depends on).
__device__ __forceinline__ int map_index(int i, int n, int g, bool periodic) {
  if (periodic) return i < 0 ? i + n : i >= n ? i - n : i;
  return i < -g ? -g : i >= n + g ? n + g - 1 : i;
}

// The ghost image a * cell + b of each non-periodic side, per component (the rule of push_ghosts).
template <class T>
struct Images {
  T a[4][2], b[4][2];
  __device__ __forceinline__ T of(int side, int c, T cell) const { return a[side][c] * cell + b[side][c]; }
};

template <class T>
Images<T> images(const FieldBoundary& bc) {
  Images<T> m{};
  for (int s = 0; s < 4; ++s)
    for (int c = 0; c < 2; ++c) {
      const detail::GhostImage<T> g = detail::affine_image<T>(bc.side[s][c], 0);
      m.a[s][c] = g.a;
      m.b[s][c] = g.b;
    }
  return m;
}

// C values of a row in registers: one vector access where the thread's columns are interior (aligned:
// rows start on 128 bytes, first columns are multiples of C), else value by value.
template <class T, int C>
__device__ __forceinline__ void load_vec(const T* p, T (&r)[C]) {
  static_assert(sizeof(T) * C == 16, "16-byte accesses");
  const float4 x = __ldg(reinterpret_cast<const float4*>(p));
  memcpy(r, &x, 16);
}
template <class T, int C>
__device__ __forceinline__ void store_vec(T* p, const T (&r)[C]) {
  float4 x;
  memcpy(&x, r, 16);
  *reinterpret_cast<float4*>(p) = x;
}

template <class T, class Rhs, bool Uniform>
struct StreamStep {
  using S = EulerStream<T>;
  static constexpr int C = S::cols, K = S::steps, H = S::halo, W = S::width;

  Rhs rhs;
  FieldView<const T> in;
  FieldView<T> out;
  FieldBoundary bc;
  Images<T> img;
  T dt;
  bool x_periodic, y_periodic;
  int strips, seg_rows;

  // A warp's place and a thread's columns base .. base + C - 1 (unwrapped).
  struct Lane {
    int base, r0;
    bool vec;                 // every column interior (a vector access at base)
    bool edge;                // a column is 0 or nx - 1 (images at a non-periodic x side)
    bool all_kept, any_kept;  // columns this thread writes
    bool near_x;              // a kept column has ghost images
    int col[C];               // the columns as read (mapped)
  };

  // The row of component c at (mapped) row j, loaded into r: one vector in the warps whose columns are
  // all interior, value by value (mapped columns) in the outer ones, each without a branch per thread.
  template <bool Outer>
  __device__ __forceinline__ void load_row(const Lane& ln, int c, int j, T (&r)[C]) const {
    const T* p = in.comp(c) + in.offset(0, j);
    if constexpr (!Outer) {
      load_vec<T, C>(p + ln.base, r);
    } else {
#pragma unroll
      for (int q = 0; q < C; ++q) r[q] = p[ln.col[q]];
    }
  }

  __device__ __forceinline__ int map_row(int j) const { return map_index(j, in.ny, in.ghost, y_periodic); }

  // Cell (column base + q, row R)'s new values from its stars (f: the right-hand side, rhs itself or
  // its frozen constants; o its parameters' offset).
  template <class F>
  __device__ __forceinline__ void update(const F& f, const Star<T>& u, const Star<T>& v, int64_t o, T& nu,
                                         T& nv) const {
    T r[2];
    f.eval_star(u, v, f.h, o, r);
    nu = f.limit(0, u.c + dt * r[0]);
    nv = f.limit(1, v.c + dt * r[1]);
  }

  // The offset of the parameters of cell (column base + q, row R): per-cell parameters only.
  __device__ __forceinline__ int64_t param_offset(const Lane& ln, int q, int R) const {
    if constexpr (Uniform) return 0;
    else return in.offset(ln.col[q], map_row(R));
  }

  // Level l from level l - 1: h = rows R - 1, R of level l - 1, c = its row R + 1 on entry and level l's
  // row R on return; h moves on to rows R, R + 1. `images` (a level after the first) forms the ghosts a
  // stencil at a non-periodic side reads, from the level's cells: the y sides' by a test a row (the
  // whole warp is on one row), the x sides' by a test a cell only in warps that reach one (Outer).
  template <bool Outer, class F>
  __device__ __forceinline__ void level(const F& f, const Lane& ln, T (&hu)[2][C], T (&hv)[2][C], T (&cu)[C],
                                        T (&cv)[C], int R, bool images) const {
    if (images && !y_periodic) {  // warp-uniform: every lane is on row R
      if (R == 0)
#pragma unroll
        for (int q = 0; q < C; ++q) hu[0][q] = img.of(bottom, 0, hu[1][q]), hv[0][q] = img.of(bottom, 1, hv[1][q]);
      if (R == in.ny - 1)
#pragma unroll
        for (int q = 0; q < C; ++q) cu[q] = img.of(top, 0, hu[1][q]), cv[q] = img.of(top, 1, hv[1][q]);
    }
    const T uw = __shfl_up_sync(0xffffffffu, hu[1][C - 1], 1), ue = __shfl_down_sync(0xffffffffu, hu[1][0], 1);
    const T vw = __shfl_up_sync(0xffffffffu, hv[1][C - 1], 1), ve = __shfl_down_sync(0xffffffffu, hv[1][0], 1);
    T ou[C], ov[C];
#pragma unroll
    for (int q = 0; q < C; ++q) {
      Star<T> su{hu[1][q], q == 0 ? uw : hu[1][q - 1], q == C - 1 ? ue : hu[1][q + 1], hu[0][q], cu[q]};
      Star<T> sv{hv[1][q], q == 0 ? vw : hv[1][q - 1], q == C - 1 ? ve : hv[1][q + 1], hv[0][q], cv[q]};
      if (Outer && images && ln.edge) side_images(ln, q, su, sv);
      update(f, su, sv, param_offset(ln, q, R), ou[q], ov[q]);
    }
#pragma unroll
    for (int q = 0; q < C; ++q) {
      hu[0][q] = hu[1][q], hu[1][q] = cu[q], cu[q] = ou[q];
      hv[0][q] = hv[1][q], hv[1][q] = cv[q], cv[q] = ov[q];
    }
  }

  // The west ghost of column 0 and the east one of column nx - 1, where that side is not periodic.
  __device__ __forceinline__ void side_images(const Lane& ln, int q, Star<T>& su, Star<T>& sv) const {
    if (ln.base + q == 0) su.w = img.of(left, 0, su.c), sv.w = img.of(left, 1, sv.c);
    if (ln.base + q == in.nx - 1) su.e = img.of(right, 0, su.c), sv.e = img.of(right, 1, sv.c);
  }

  // Level l's rows before the walk reaches it: they only enter the history.
  __device__ __forceinline__ static void shift(T (&hu)[2][C], T (&hv)[2][C], const T (&cu)[C], const T (&cv)[C]) {
#pragma unroll
    for (int q = 0; q < C; ++q) hu[0][q] = hu[1][q], hu[1][q] = cu[q], hv[0][q] = hv[1][q], hv[1][q] = cv[q];
  }

  // Row R of the last level: the kept columns (their ghost images once the walk is done, push_images).
  template <bool Outer>
  __device__ __forceinline__ void store(const Lane& ln, int R, const T (&cu)[C], const T (&cv)[C]) const {
    if (!ln.any_kept) return;
    const int64_t o = out.offset(ln.base, R);
    if (ln.all_kept) {
      store_vec<T, C>(out.comp(0) + o, cu);
      store_vec<T, C>(out.comp(1) + o, cv);
    } else {
#pragma unroll
      for (int q = 0; q < C; ++q)
        if (kept_column(ln, q)) out.comp(0)[o + q] = cu[q], out.comp(1)[o + q] = cv[q];
    }
  }

  __device__ __forceinline__ bool kept_column(const Lane& ln, int q) const {
    const int lc = int(threadIdx.x & 31) * C + q;
    return lc >= H && lc < H + W && ln.base + q < out.nx;
  }

  // The ghost images of the kept cells that have them, from the values the walk stored, once it is done
  // and its history no longer holds registers (pushed row by row, they raised the walk's registers): the
  // rows near the y sides, and every row of a warp whose kept columns reach an x side. Loops not
  // unrolled: one copy of the ghost writes.
  __device__ void push_images(const Lane& ln) const {
    if (!ln.any_kept) return;
    const int end = ln.r0 + seg_rows;
#pragma unroll 1
    for (int R = ln.r0; R < end; ++R) {
      if (!ln.near_x && R >= out.ghost && R < out.ny - out.ghost) continue;
#pragma unroll 1
      for (int q = 0; q < C; ++q) {
        const int i = ln.base + q;
        if (!kept_column(ln, q) || !near_boundary(out, i, R)) continue;
        const int64_t o = out.offset(i, R);
        push_ghosts(out, bc, 0, i, R, out.comp(0)[o]);
        push_ghosts(out, bc, 1, i, R, out.comp(1)[o]);
      }
    }
  }

  __device__ Lane lane() const {
    const int l = int(threadIdx.x & 31);
    const int warp = int((blockIdx.x * blockDim.x + threadIdx.x) >> 5);
    const int strip = warp % strips, seg = warp / strips;
    Lane ln{};
    ln.base = strip * W - H + C * l;
    ln.r0 = seg * seg_rows < in.ny ? min(seg * seg_rows, in.ny - seg_rows) : in.ny;  // last segment ends at ny
    ln.vec = ln.base >= 0 && ln.base + C <= in.nx;
    ln.edge = !x_periodic && ((ln.base <= 0 && ln.base + C > 0) || (ln.base < in.nx && ln.base + C >= in.nx));
    ln.all_kept = true;
    ln.any_kept = false;
    ln.near_x = false;
#pragma unroll
    for (int q = 0; q < C; ++q) {
      ln.col[q] = map_index(ln.base + q, in.nx, in.ghost, x_periodic);
      const bool k = kept_column(ln, q);
      ln.all_kept = ln.all_kept && k;
      ln.any_kept = ln.any_kept || k;
      ln.near_x = ln.near_x || (k && (ln.base + q < out.ghost || ln.base + q >= out.nx - out.ghost));
    }
    return ln;
  }

  // The walk of one warp: rows r0 - K .. r0 + S + K - 1 of `in` enter level 0 one at a time; level l's
  // row R = (row entered) - l is computed once the walk has entered 2 l rows, so the last level's rows
  // r0 .. r0 + S - 1 come out from the 2K-th row on. Outer: the warp's columns reach a side or wrap.
  template <bool Outer, class F>
  __device__ __forceinline__ void walk(const F& f, const Lane& ln) const {
    T hu[K][2][C], hv[K][2][C];
#pragma unroll
    for (int l = 0; l < K; ++l)
#pragma unroll
      for (int q = 0; q < C; ++q) hu[l][0][q] = hu[l][1][q] = hv[l][0][q] = hv[l][1][q] = T(0);
    int row = ln.r0 - K;  // the next row to enter, unwrapped
    T nu[C], nv[C];
    load_row<Outer>(ln, 0, map_row(row), nu);
    load_row<Outer>(ln, 1, map_row(row), nv);
#pragma unroll
    for (int i = 0; i < 2 * K; ++i) {
      T cu[C], cv[C];
#pragma unroll
      for (int q = 0; q < C; ++q) cu[q] = nu[q], cv[q] = nv[q];
      ++row;
      load_row<Outer>(ln, 0, map_row(row), nu);
      load_row<Outer>(ln, 1, map_row(row), nv);
#pragma unroll
      for (int l = 1; l <= K; ++l) {
        if (i >= 2 * l) level<Outer>(f, ln, hu[l - 1], hv[l - 1], cu, cv, row - 1 - l, l > 1);
        else if (i >= 2 * (l - 1)) shift(hu[l - 1], hv[l - 1], cu, cv);
      }
    }
    const int end = ln.r0 + seg_rows;  // one past the last row kept
#pragma unroll 1
    for (int R = ln.r0; R < end; ++R) advance<Outer>(f, ln, hu, hv, nu, nv, row, R, end);
    push_images(ln);
  }

  // One row of the walk past the first 2K: row R + K enters, every level advances a row, the last
  // level's row R is stored.
  template <bool Outer, class F>
  __device__ __forceinline__ void advance(const F& f, const Lane& ln, T (&hu)[K][2][C], T (&hv)[K][2][C],
                                          T (&nu)[C], T (&nv)[C], int& row, int R, int end) const {
    T cu[C], cv[C];
#pragma unroll
    for (int q = 0; q < C; ++q) cu[q] = nu[q], cv[q] = nv[q];
    ++row;
    if (R + 1 < end) {
      load_row<Outer>(ln, 0, map_row(row), nu);
      load_row<Outer>(ln, 1, map_row(row), nv);
    }
#pragma unroll
    for (int l = 1; l <= K; ++l) level<Outer>(f, ln, hu[l - 1], hv[l - 1], cu, cv, row - 1 - l, l > 1);
    store<Outer>(ln, R, cu, cv);
  }
};

template <class T, class Rhs, bool Uniform>
__global__ void __launch_bounds__(EulerStream<T>::threads, EulerStream<T>::min_blocks)
    euler_stream_kernel(const __grid_constant__ StreamStep<T, Rhs, Uniform> step) {
  begin_dependent_grid();
  const StreamStep<T, Rhs, Uniform>& s = step;
  const auto ln = s.lane();
  if (ln.r0 >= s.in.ny) return;  // warp-uniform: a warp past the last segment
  const bool outer = __any_sync(0xffffffffu, ln.edge || !ln.vec);  // a side's images, or columns wrapped
  if constexpr (Uniform) {  // parameters in registers, read once
    if (outer) s.template walk<true>(s.rhs.at(0), ln);
    else s.template walk<false>(s.rhs.at(0), ln);
  } else {
    if (outer) s.template walk<true>(s.rhs, ln);
    else s.template walk<false>(s.rhs, ln);
  }
}

// Whether every parameter of rhs is one number (Param's stride 0 and no cells): then the kernel reads
// them once. Right-hand sides whose parameters cannot be told count as per-cell.
template <class P>
bool uniform_param(const P& p) {
  if constexpr (requires { p.cells; }) return p.cells == nullptr;
  else return true;
}
template <class Rhs>
bool uniform_params(const Rhs& rhs) {
  if constexpr (requires { rhs.reaction; rhs.D[0]; rhs.ax; rhs.ay; }) {
    bool all = uniform_param(rhs.ax) && uniform_param(rhs.ay);
    for (const auto& d : rhs.D) all = all && uniform_param(d);
    rhs.reaction.map([&](const auto& p) {
      all = all && uniform_param(p);
      return p;
    });
    return all;
  } else {
    return false;
  }
}

template <class T, class Rhs, bool Uniform>
void launch_stream(const CudaContext& ctx, const StreamStep<T, Rhs, Uniform>& base) {
  using S = EulerStream<T>;
  const auto kernel = euler_stream_kernel<T, Rhs, Uniform>;
  StreamStep<T, Rhs, Uniform> step = base;
  // One segment for each warp resident at once, in one wave: longer segments recompute fewer rows.
  const int strips = (step.in.nx + S::width - 1) / S::width;
  const int resident = ctx.resident_blocks(reinterpret_cast<const void*>(kernel), S::threads, 0) *
                       (S::threads / 32) * ctx.multiprocessors();
  const int segs = resident / strips > 1 ? resident / strips : 1;
  int rows = (step.in.ny + segs - 1) / segs;
  rows = rows < 2 * S::steps ? 2 * S::steps : rows;  // a walk enters 2 K rows beyond those it keeps
  rows = rows > step.in.ny ? step.in.ny : rows;
  step.strips = strips;
  step.seg_rows = rows;
  const int64_t warps = int64_t(strips) * ((step.in.ny + rows - 1) / rows);
  const int warps_per_block = S::threads / 32;
  const dim3 grid(unsigned((warps + warps_per_block - 1) / warps_per_block));
  launch(ctx, "euler_stream", kernel, grid, dim3(S::threads), 0, step);
}

}  // namespace stream_detail

// EulerStream<T>::steps forward Euler steps from `in` to `out` in one launch, `out`'s ghosts written
// (Rhs isotropic, two species; a run that euler_stream_takes). `in` and `out` must not overlap.
template <class T, class Rhs>
void euler_stream(const Cuda& ex, const Rhs& rhs, FieldView<const T> in, FieldView<T> out, const FieldBoundary& bc,
                  T dt) {
  using namespace stream_detail;
  const CudaContext& ctx = *ex.context;
  const bool xp = axis_kind(bc, left, right, 2) == 1, yp = axis_kind(bc, bottom, top, 2) == 1;
  if (uniform_params(rhs))
    launch_stream(ctx, StreamStep<T, Rhs, true>{rhs, in, out, bc, images<T>(bc), dt, xp, yp, 0, 0});
  else
    launch_stream(ctx, StreamStep<T, Rhs, false>{rhs, in, out, bc, images<T>(bc), dt, xp, yp, 0, 0});
}

}  // namespace pdex
