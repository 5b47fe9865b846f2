#pragma once
// A few consecutive rows of one column of a component (ColumnStars), or of two neighbouring columns
// (ColumnPairStars: cells 2m and 2m + 1 of each row, loaded as one vector), with their neighbours,
// loaded all at once so that every load of a thread is in flight together, and each centre value once
// for the three stencils that read it (R rows of one column: 3 R + 2 loads instead of 5 R; of two
// columns: 3 R + 2 instead of 10 R).
#include <cuda_runtime.h>

#include <cstdint>

#include "pdex/core/cuda/vec2.cuh"
#include "pdex/grid/stencil.hpp"

namespace pdex {

template <class T, int R>
struct ColumnStars {
  T c[R + 2], w[R], e[R];  // c[k + 1] is row k's centre; c[0] and c[R + 1] the rows just outside

  // p points at row 0 of the column, rows `pitch` apart.
  __device__ void load(const T* p, int64_t pitch) {
#pragma unroll
    for (int k = 0; k < R + 2; ++k) c[k] = p[(k - 1) * pitch];
#pragma unroll
    for (int k = 0; k < R; ++k) w[k] = p[k * pitch - 1], e[k] = p[k * pitch + 1];
  }

  __device__ Star<T> operator[](int k) const { return {c[k + 1], w[k], e[k], c[k], c[k + 2]}; }
};

template <class T, int R>
struct ColumnPairStars {
  using V = typename Vec2<T>::type;
  V c[R + 2];  // c[k + 1]: row k's pair; c[0] and c[R + 1] the rows just outside
  T w[R], e[R];  // west of the first column, east of the second

  // p points at the first column's row 0, rows `pitch` apart; p must be aligned for V.
  __device__ void load(const T* p, int64_t pitch) {
#pragma unroll
    for (int k = 0; k < R + 2; ++k) c[k] = load_pair(p + (k - 1) * pitch);
#pragma unroll
    for (int k = 0; k < R; ++k) w[k] = p[k * pitch - 1], e[k] = p[k * pitch + 2];
  }

  __device__ Star<T> first(int k) const { return {c[k + 1].x, w[k], c[k + 1].y, c[k].x, c[k + 2].x}; }
  __device__ Star<T> second(int k) const { return {c[k + 1].y, c[k + 1].x, e[k], c[k].y, c[k + 2].y}; }
};

}  // namespace pdex
