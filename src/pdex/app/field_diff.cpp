#include "pdex/app/field_diff.hpp"

#include <cmath>

#include "pdex/core/error.hpp"

namespace pdex {

FieldDiff field_diff(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size() || a.empty()) throw Error("field_diff: fields of different or zero size");
  double s1 = 0, s2 = 0, sa = 0, mx = 0;
  for (std::size_t k = 0; k < a.size(); ++k) {
    const double d = std::abs(a[k] - b[k]);
    s1 += d, s2 += d * d, sa += a[k] * a[k];
    mx = std::max(mx, d);
  }
  const double n = double(a.size());
  return {s1 / n, std::sqrt(s2 / n), mx, sa > 0 ? std::sqrt(s2 / sa) : (s2 > 0 ? INFINITY : 0.0)};
}

}  // namespace pdex
