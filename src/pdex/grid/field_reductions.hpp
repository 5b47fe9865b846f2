#pragma once
// Reductions over the interior of one component of a field (every plane of a 3D one), on any executor.
// Sums accumulate in double so that means of fp32 fields over large grids keep their digits.
#include <cmath>
#include <cstdint>

#include "pdex/core/parallel.hpp"
#include "pdex/grid/field_view.hpp"

namespace pdex {

// Works without <cmath> on the device and without relying on the host's isfinite overloads.
// (inf - inf and NaN - NaN are NaN, which compares unequal to zero.)
template <class T>
PDEX_HD inline bool is_finite(T x) {
  return x - x == T(0);
}

// Component c's value in column i of interior row r (FieldView::interior_rows).
template <class T>
PDEX_HD inline T row_value(const FieldView<const T>& f, int c, int i, int r) {
  return f.comp(c)[f.row_offset(i, r)];
}

template <class Exec, class T>
double field_sum(const Exec& ex, FieldView<const T> f, int c) {
  return reduce<double>(ex, f.interior_rows(), [=] PDEX_HD(int i, int r) { return double(row_value(f, c, i, r)); }, Sum<double>{});
}

template <class Exec, class T>
T field_min(const Exec& ex, FieldView<const T> f, int c) {
  return reduce<T>(ex, f.interior_rows(), [=] PDEX_HD(int i, int r) { return row_value(f, c, i, r); }, Min<T>{});
}

template <class Exec, class T>
T field_max(const Exec& ex, FieldView<const T> f, int c) {
  return reduce<T>(ex, f.interior_rows(), [=] PDEX_HD(int i, int r) { return row_value(f, c, i, r); }, Max<T>{});
}

// Euclidean norm of the interior values (not scaled by the cell area).
template <class Exec, class T>
double field_l2(const Exec& ex, FieldView<const T> f, int c) {
  return std::sqrt(reduce<double>(
      ex, f.interior_rows(),
      [=] PDEX_HD(int i, int r) {
        const double v = row_value(f, c, i, r);
        return v * v;
      },
      Sum<double>{}));
}

template <class Exec, class T>
T field_linf(const Exec& ex, FieldView<const T> f, int c) {
  return reduce<T>(
      ex, f.interior_rows(),
      [=] PDEX_HD(int i, int r) {
        const T v = row_value(f, c, i, r);
        return v < T(0) ? -v : v;
      },
      Max<T>{});
}

// Number of interior cells for which pred(value) holds.
template <class Exec, class T, class Pred>
int64_t field_count_if(const Exec& ex, FieldView<const T> f, int c, Pred pred) {
  return reduce<int64_t>(
      ex, f.interior_rows(), [=] PDEX_HD(int i, int r) { return int64_t(pred(row_value(f, c, i, r)) ? 1 : 0); },
      Sum<int64_t>{});
}

// Linear index (Extents2::index) of the first non-finite interior value, or -1 when all are finite.
template <class Exec, class T>
int64_t first_nonfinite(const Exec& ex, FieldView<const T> f, int c) {
  const int64_t none = INT64_MAX;
  int64_t k = reduce<int64_t>(
      ex, f.interior_rows(),
      [=] PDEX_HD(int i, int r) { return is_finite(row_value(f, c, i, r)) ? none : int64_t(r) * f.nx + i; },
      Min<int64_t>{});
  return k == none ? -1 : k;
}

}  // namespace pdex
