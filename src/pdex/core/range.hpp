#pragma once
// Index ranges over which kernels run. Plain data, usable on the device.
#include <cstdint>

namespace pdex {

// Half-open 2D index box [i0, i1) x [j0, j1) in interior cell coordinates.
struct Range2 {
  int i0 = 0, i1 = 0, j0 = 0, j1 = 0;
  constexpr int64_t width() const { return i1 - i0; }
  constexpr int64_t height() const { return j1 - j0; }
  constexpr int64_t size() const { return width() * height(); }
  constexpr bool empty() const { return i1 <= i0 || j1 <= j0; }
};

}  // namespace pdex
