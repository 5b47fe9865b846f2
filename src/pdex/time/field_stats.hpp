#pragma once
// What a Stepper reports of one component of a field: its interior values on the host, and min, max
// and mean (the steppers' values() and stats()).
#include <vector>

#include "pdex/grid/field.hpp"
#include "pdex/grid/field_reductions.hpp"
#include "pdex/time/stepper.hpp"

namespace pdex {

template <class Exec, class T>
FieldStats field_stats(const Exec& ex, FieldView<const T> v, int c) {
  return {double(field_min(ex, v, c)), double(field_max(ex, v, c)), field_sum(ex, v, c) / double(v.extents().cells())};
}

// Interior values of component c, row-major [y][x], copied to the host as double.
template <class T>
std::vector<double> interior_values(const Field<T>& f, int c) {
  const std::vector<T> v = to_space(f, MemorySpace::host).interior(c);
  return std::vector<double>(v.begin(), v.end());
}

}  // namespace pdex
