#pragma once
// Two neighbouring values of a row as one vector access: a warp's 8- or 16-byte accesses cover whole
// 32-byte sectors, where two scalar stores would each write half of every sector they touch.
#include <cuda_runtime.h>

namespace pdex {

template <class T>
struct Vec2;
template <>
struct Vec2<float> {
  using type = float2;
};
template <>
struct Vec2<double> {
  using type = double2;
};

// The pair of values at p (aligned for the vector).
template <class T>
__device__ inline typename Vec2<T>::type load_pair(const T* p) {
  return *reinterpret_cast<const typename Vec2<T>::type*>(p);
}

// Stores a pair of values at p (aligned for the vector).
template <class T>
__device__ inline void store_pair(T* p, T a, T b) {
  *reinterpret_cast<typename Vec2<T>::type*>(p) = typename Vec2<T>::type{a, b};
}

}  // namespace pdex
