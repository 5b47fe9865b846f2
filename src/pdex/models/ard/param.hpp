#pragma once
// A model parameter as kernels see it: a constant, or a field sharing the state's layout (DESIGN principle 4).
#include <cstdint>

#include "pdex/core/macros.hpp"

namespace pdex {

template <class T>
struct Param {
  T value = T(0);
  const T* cells = nullptr;  // when set, one value per cell at the state's offsets

  // The branch is uniform over a launch, so it costs nothing measurable on CPU or GPU.
  PDEX_HD T at(int64_t offset) const { return cells ? cells[offset] : value; }
};

}  // namespace pdex
