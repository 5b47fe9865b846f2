#pragma once
// The walk of forward Euler's register-streaming kernel (time/cuda/euler_stream.cuh has the design), for
// N <= max_stream_species species: device code only, with no CUDA runtime header, so that NVRTC compiles
// it too (a text model's kernel, models/equations/cuda/text_stream.cuh).
//
// The model comes as an evaluator F, its parameters read through it:
//   static constexpr int ncomp;     N
//   static constexpr bool uniform;  its parameters are numbers: no cell offset is formed for them
//   void eval(const Star<T> (&s)[N], int i, int j, int64_t o, int level, T (&r)[N]) const;
//       the right-hand sides at cell (i, j) (parameters at offset o) of time level `level` (1 .. K)
//   T next(int c, T u, T r, T dt) const;  species c's new value from u and its right-hand side r
#include <cstdint>
#ifndef __CUDACC_RTC__  // NVRTC knows memcpy without it
#include <cstring>
#endif

#include "pdex/grid/boundary.hpp"
#include "pdex/grid/field_view.hpp"
#include "pdex/grid/stencil.hpp"
#include "pdex/time/euler_stream_shape.hpp"
#include "pdex/time/stream_args.hpp"

namespace pdex {

namespace stream_detail {

// Index i of an axis of n cells and g ghosts, as the kernel reads it: wrapped on a periodic axis (once:
// euler_stream_takes asks for axes longer than what a warp reaches past them), else clamped to the
// ghosts (cells beyond them only feed halo cells that no kept cell depends on).
__device__ __forceinline__ int map_index(int i, int n, int g, bool periodic) {
  if (periodic) return i < 0 ? i + n : i >= n ? i - n : i;
  return i < -g ? -g : i >= n + g ? n + g - 1 : i;
}

// A thread's C values of a row as one 16-byte access (aligned: rows start on 128 bytes, first columns are
// multiples of C).
template <class T, int C>
__device__ __forceinline__ void load_vec(const T* p, T (&r)[C]) {
  const float4 x = __ldg(reinterpret_cast<const float4*>(p));
  memcpy(r, &x, 16);
}
template <class T, int C>
__device__ __forceinline__ void store_vec(T* p, const T (&r)[C]) {
  float4 x;
  memcpy(&x, r, 16);
  *reinterpret_cast<float4*>(p) = x;
}

}  // namespace stream_detail

// The walk's code over StreamArgs' data (no members of its own: a kernel takes it as its parameter where
// the host filled a StreamArgs).
template <class T, class Cell>
struct StreamStep : StreamArgs<T, Cell> {
  using S = EulerStream<T>;
  static constexpr int C = S::cols, K = S::steps, H = S::halo, W = S::width;
  using StreamArgs<T, Cell>::in;
  using StreamArgs<T, Cell>::out;
  using StreamArgs<T, Cell>::bc;
  using StreamArgs<T, Cell>::img;
  using StreamArgs<T, Cell>::dt;
  using StreamArgs<T, Cell>::x_periodic;
  using StreamArgs<T, Cell>::y_periodic;
  using StreamArgs<T, Cell>::strips;
  using StreamArgs<T, Cell>::seg_rows;

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
      stream_detail::load_vec<T, C>(p + ln.base, r);
    } else {
#pragma unroll
      for (int q = 0; q < C; ++q) r[q] = p[ln.col[q]];
    }
  }
  template <bool Outer, int N>
  __device__ __forceinline__ void load_rows(const Lane& ln, int j, T (&r)[N][C]) const {
#pragma unroll
    for (int c = 0; c < N; ++c) load_row<Outer>(ln, c, j, r[c]);
  }

  __device__ __forceinline__ int map_row(int j) const { return stream_detail::map_index(j, in.ny, in.ghost, y_periodic); }

  // The offset of the parameters of cell (column base + q, row R): per-cell parameters only.
  template <class F>
  __device__ __forceinline__ int64_t param_offset(const Lane& ln, int q, int R) const {
    if constexpr (F::uniform) return 0;
    else return in.offset(ln.col[q], map_row(R));
  }

  // Level l from level l - 1: h = rows R - 1, R of level l - 1, c = its row R + 1 on entry and level l's
  // row R on return; h moves on to rows R, R + 1. Levels after the first form the ghosts a stencil at a
  // non-periodic side reads from the level's cells: the y sides' by a test a row (the whole warp is on
  // one row), the x sides' by a test a cell only in warps that reach one (Outer).
  template <bool Outer, int N, class F>
  __device__ __forceinline__ void level(const F& f, const Lane& ln, T (&h)[N][2][C], T (&c)[N][C], int R, int l) const {
    const bool images = l > 1;
    if (images && !y_periodic) {  // warp-uniform: every lane is on row R
      if (R == 0)
#pragma unroll
        for (int s = 0; s < N; ++s)
#pragma unroll
          for (int q = 0; q < C; ++q) h[s][0][q] = img.of(bottom, s, h[s][1][q]);
      if (R == in.ny - 1)
#pragma unroll
        for (int s = 0; s < N; ++s)
#pragma unroll
          for (int q = 0; q < C; ++q) c[s][q] = img.of(top, s, h[s][1][q]);
    }
    T west[N], east[N];
#pragma unroll
    for (int s = 0; s < N; ++s) {
      west[s] = __shfl_up_sync(0xffffffffu, h[s][1][C - 1], 1);
      east[s] = __shfl_down_sync(0xffffffffu, h[s][1][0], 1);
    }
    T o[N][C];
#pragma unroll
    for (int q = 0; q < C; ++q) {
      Star<T> st[N];
#pragma unroll
      for (int s = 0; s < N; ++s)
        st[s] = Star<T>{h[s][1][q], q == 0 ? west[s] : h[s][1][q - 1], q == C - 1 ? east[s] : h[s][1][q + 1], h[s][0][q], c[s][q]};
      if (Outer && images && ln.edge) side_images(ln, q, st);
      T r[N];
      f.eval(st, ln.col[q], map_row(R), param_offset<F>(ln, q, R), l, r);
#pragma unroll
      for (int s = 0; s < N; ++s) o[s][q] = f.next(s, st[s].c, r[s], dt);
    }
#pragma unroll
    for (int s = 0; s < N; ++s)
#pragma unroll
      for (int q = 0; q < C; ++q) h[s][0][q] = h[s][1][q], h[s][1][q] = c[s][q], c[s][q] = o[s][q];
  }

  // The west ghost of column 0 and the east one of column nx - 1, where that side is not periodic.
  template <int N>
  __device__ __forceinline__ void side_images(const Lane& ln, int q, Star<T> (&st)[N]) const {
    if (ln.base + q == 0)
#pragma unroll
      for (int s = 0; s < N; ++s) st[s].w = img.of(left, s, st[s].c);
    if (ln.base + q == in.nx - 1)
#pragma unroll
      for (int s = 0; s < N; ++s) st[s].e = img.of(right, s, st[s].c);
  }

  template <int N>
  __device__ __forceinline__ static void copy_rows(T (&to)[N][C], const T (&from)[N][C]) {
#pragma unroll
    for (int s = 0; s < N; ++s)
#pragma unroll
      for (int q = 0; q < C; ++q) to[s][q] = from[s][q];
  }

  // Level l's rows before the walk reaches it: they only enter the history.
  template <int N>
  __device__ __forceinline__ static void shift(T (&h)[N][2][C], const T (&c)[N][C]) {
#pragma unroll
    for (int s = 0; s < N; ++s)
#pragma unroll
      for (int q = 0; q < C; ++q) h[s][0][q] = h[s][1][q], h[s][1][q] = c[s][q];
  }

  // Row R of the last level: the kept columns (their ghost images once the walk is done, push_images).
  template <bool Outer, int N>
  __device__ __forceinline__ void store(const Lane& ln, int R, const T (&c)[N][C]) const {
    if (!ln.any_kept) return;
    const int64_t o = out.offset(ln.base, R);
    if (ln.all_kept) {
#pragma unroll
      for (int s = 0; s < N; ++s) stream_detail::store_vec<T, C>(out.comp(s) + o, c[s]);
    } else {
#pragma unroll
      for (int q = 0; q < C; ++q)
        if (kept_column(ln, q))
#pragma unroll
          for (int s = 0; s < N; ++s) out.comp(s)[o + q] = c[s][q];
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
  template <int N>
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
#pragma unroll
        for (int s = 0; s < N; ++s) push_ghosts(out, bc, s, i, R, out.comp(s)[o]);
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
      ln.col[q] = stream_detail::map_index(ln.base + q, in.nx, in.ghost, x_periodic);
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
    constexpr int N = F::ncomp;
    T h[K][N][2][C];
#pragma unroll
    for (int l = 0; l < K; ++l)
#pragma unroll
      for (int s = 0; s < N; ++s)
#pragma unroll
        for (int q = 0; q < C; ++q) h[l][s][0][q] = h[l][s][1][q] = T(0);
    int row = ln.r0 - K;  // the next row to enter, unwrapped
    T entering[N][C];
    load_rows<Outer>(ln, map_row(row), entering);
#pragma unroll
    for (int i = 0; i < 2 * K; ++i) {
      T c[N][C];
      copy_rows(c, entering);
      ++row;
      load_rows<Outer>(ln, map_row(row), entering);
#pragma unroll
      for (int l = 1; l <= K; ++l) {
        if (i >= 2 * l) level<Outer>(f, ln, h[l - 1], c, row - 1 - l, l);
        else if (i >= 2 * (l - 1)) shift(h[l - 1], c);
      }
    }
    const int end = ln.r0 + seg_rows;  // one past the last row kept
#pragma unroll 1
    for (int R = ln.r0; R < end; ++R) advance<Outer>(f, ln, h, entering, row, R, end);
    push_images<N>(ln);
  }

  // One row of the walk past the first 2K: row R + K enters, every level advances a row, the last
  // level's row R is stored.
  template <bool Outer, class F, int N>
  __device__ __forceinline__ void advance(const F& f, const Lane& ln, T (&h)[K][N][2][C], T (&entering)[N][C], int& row, int R,
                                          int end) const {
    T c[N][C];
    copy_rows(c, entering);
    ++row;
    if (R + 1 < end) load_rows<Outer>(ln, map_row(row), entering);
#pragma unroll
    for (int l = 1; l <= K; ++l) level<Outer>(f, ln, h[l - 1], c, row - 1 - l, l);
    store<Outer>(ln, R, c);
  }
};

// A kernel's body: each warp walks its strip's segment with the evaluator make() returns.
template <class T, class Cell, class Make>
__device__ __forceinline__ void stream_walk(const StreamStep<T, Cell>& s, const Make& make) {
  const auto ln = s.lane();
  if (ln.r0 >= s.in.ny) return;  // warp-uniform: a warp past the last segment
  if (__any_sync(0xffffffffu, ln.edge || !ln.vec)) s.template walk<true>(make(), ln);  // a side's images, or columns wrapped
  else s.template walk<false>(make(), ln);
}

}  // namespace pdex
