#pragma once
// A model parameter as kernels see it: a constant, or a field sharing the state's layout (DESIGN principle 4).
#include <cstdint>

#include "pdex/core/macros.hpp"

namespace pdex {

template <class T>
struct Param {
  T value = T(0);
  const T* cells = nullptr;  // a field (stride 1), or on host executors the constant's own storage (stride 0)
  int64_t stride = 0;

  PDEX_HD T at(int64_t offset) const {
#if defined(__CUDA_ARCH__)
    // A warp-uniform branch costs nothing on the GPU and keeps constants in registers.
    return stride ? cells[offset] : value;
#else
    // Branch-free, so that host loops over cells vectorize (a branch around a load cannot be if-converted).
    return cells[offset * stride];
#endif
  }
};

// A parameter known to be the same in every cell: host executors use it when no parameter of a run
// varies, so that the compiler keeps constants in registers instead of loading them every cell; a
// CUDA kernel that updates one cell many times holds its cell's values as ConstParams (ArdRhs::at).
template <class T>
struct ConstParam {
  T value = T(0);
  ConstParam() = default;
  explicit ConstParam(const Param<T>& p) : value(p.value) {}
  PDEX_HD explicit ConstParam(T v) : value(v) {}
  PDEX_HD T at(int64_t) const { return value; }
};

}  // namespace pdex
