#pragma once
// A field as the host copies it for outputs and checkpoints: the block of rows where the stepper keeps
// it, in one copy (from the device, or host memory), converted to row-major values later, off the run's
// critical path.
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "pdex/time/stepper.hpp"

namespace pdex {

// One field at one output as the host copied it: the block of rows where the stepper keeps it (one copy
// from the device), or its values.
struct FieldCopy {
  std::string name;
  FieldMemory layout;
  std::vector<std::byte> rows;
  std::vector<double> values;

  // Row-major [y][x] values (in the background thread: the copy above is all the run waits for).
  const std::vector<double>& row_major() {
    if (rows.empty() || !values.empty()) return values;
    values.resize(std::size_t(layout.nx) * std::size_t(layout.ny));
    for (int y = 0; y < layout.ny; ++y) {
      const std::byte* row = rows.data() + std::size_t(y) * std::size_t(layout.pitch) * std::size_t(layout.value_bytes);
      double* out = values.data() + std::size_t(y) * std::size_t(layout.nx);
      for (int x = 0; x < layout.nx; ++x) out[x] = layout.value_bytes == 4 ? load<float>(row, x) : load<double>(row, x);
    }
    return values;
  }

  template <class T>
  static double load(const std::byte* row, int x) {
    T v;
    std::memcpy(&v, row + std::size_t(x) * sizeof(T), sizeof(T));
    return double(v);
  }
};

// Copies field f into `spare` (a buffer of an earlier copy: a fresh one costs its page faults), or, where
// the stepper shares no memory, takes its values().
FieldCopy copy_field(Stepper& s, int f, std::vector<std::byte> spare = {});

}  // namespace pdex
