#pragma once
// Reduction operators: an identity and an associative combine, usable on host and device.
#include <cstdint>
#include <limits>

#include "pdex/core/macros.hpp"

namespace pdex {

template <class T>
struct Sum {
  PDEX_HD static constexpr T identity() { return T(0); }
  PDEX_HD constexpr T operator()(T a, T b) const { return a + b; }
};

template <class T>
struct Min {
  PDEX_HD static constexpr T identity() { return std::numeric_limits<T>::max(); }
  PDEX_HD constexpr T operator()(T a, T b) const { return b < a ? b : a; }
};

template <class T>
struct Max {
  PDEX_HD static constexpr T identity() { return std::numeric_limits<T>::lowest(); }
  PDEX_HD constexpr T operator()(T a, T b) const { return a < b ? b : a; }
};

}  // namespace pdex
