#pragma once
// A Dirichlet or Robin side's value written as an expression (of x, y and t, for a text model), as
// grid.boundary holds it (grid_config.hpp reads it).
#include <string>

namespace pdex {

// Its ghosts' offset is `factor` times the value at the face (2 for Dirichlet, 1 / (a/2 + b/h) for
// Robin: boundary.hpp).
struct BoundaryText {
  int side = 0, field = 0;
  std::string key, text;
  double factor = 0;
};

}  // namespace pdex
