#pragma once
// A text model's forward Euler, several steps a launch in a streaming walk (time/cuda/stream_walk.cuh):
// the source generated for NVRTC (cuda/nvrtc_kernel.cpp) includes this and names its StarRhs
// (codegen.hpp, Target::stream). Each update performs the one-pass stage's operations (text_cell.hpp's
// stage_cell, RkStores' stores) in their order, so the result is bitwise that of the steps one at a time.
#include <cstdint>

#include "pdex/grid/stencil.hpp"
#include "pdex/models/equations/text_cell.hpp"
#include "pdex/time/cuda/stream_walk.cuh"

namespace pdex::eq {

// Uniform: the program reads no parameter field.
template <class T, int N, bool Uniform, class Rhs>
struct TextStreamEval {
  static constexpr int ncomp = N;
  static constexpr bool uniform = Uniform;
  const TextStreamCell<T>& a;

  __device__ __forceinline__ void eval(const Star<T> (&s)[N], int i, int j, int64_t o, int level, T (&r)[N]) const {
    Rhs{}(a.cell, s, i, j, o, a.t[level - 1], r);
  }
  // Forward Euler's candidate as RkStores::values forms it (the state, no earlier stages' terms, dt k),
  // clamped as RkStores::stored clamps it.
  __device__ __forceinline__ T next(int c, T u, T r, T dt) const { return a.floor.limit(c, u + T(0) + dt * r); }
};

template <class T, int N, bool Uniform, class Rhs>
__device__ __forceinline__ void text_stream(const StreamStep<T, TextStreamCell<T>>& s) {
  stream_walk(s, [&] { return TextStreamEval<T, N, Uniform, Rhs>{s.cell}; });
}

}  // namespace pdex::eq
