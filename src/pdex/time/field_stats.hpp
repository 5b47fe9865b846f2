#pragma once
// What a Stepper reports of one component of a field: its interior values on the host, and min, max
// and mean (the steppers' values() and stats()); and the inverse of values(), set_values().
#include <string>
#include <vector>

#include "pdex/core/error.hpp"
#include "pdex/grid/field.hpp"
#include "pdex/grid/field_reductions.hpp"
#include "pdex/grid/fill_ghosts.hpp"
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

// Sets the interior of component c from row-major [y][x] values, in whatever space the field lives, and
// refreshes the ghosts of the field under bc.
template <class T>
void set_interior_values(Field<T>& f, int c, const std::vector<double>& v, const FieldBoundary& bc) {
  if (v.size() != std::size_t(f.grid().cells()))
    throw InputError("expected " + std::to_string(f.grid().cells()) + " values (ny x nx), got " + std::to_string(v.size()));
  Field<T> host = to_space(f, MemorySpace::host);
  host.set_interior(c, std::vector<T>(v.begin(), v.end()));
  fill_ghosts(Serial{}, host, bc);
  copy(f, host);
}

}  // namespace pdex
