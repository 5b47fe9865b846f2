#pragma once
// A host-side input over the cells of a grid: one number, or one value per cell (row-major [y][x]).
// Configuration readers produce it; models turn it into a Param (a constant or a device field).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace pdex {

struct ScalarSpec {
  double value = 0.0;
  std::vector<double> cells;
  bool varies() const { return !cells.empty(); }
  double max_abs() const {
    if (!varies()) return std::abs(value);
    double m = 0;
    for (double c : cells) m = std::max(m, std::abs(c));
    return m;
  }
  double min_value() const { return varies() ? *std::min_element(cells.begin(), cells.end()) : value; }
  double max_value() const { return varies() ? *std::max_element(cells.begin(), cells.end()) : value; }
  // Every cell's value, `count` of them.
  std::vector<double> per_cell(std::size_t count) const { return varies() ? cells : std::vector<double>(count, value); }
};

}  // namespace pdex
