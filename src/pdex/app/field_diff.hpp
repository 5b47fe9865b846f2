#pragma once
// Difference norms between two results of the same run, as pdex compare reports them.
#include <vector>

namespace pdex {

struct FieldDiff {
  double l1 = 0;        // mean |a - b|
  double l2 = 0;        // sqrt(mean (a - b)^2)
  double linf = 0;      // max |a - b|
  double relative = 0;  // ||a - b||_2 / ||a||_2 (0 when both are zero)
};

FieldDiff field_diff(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace pdex
