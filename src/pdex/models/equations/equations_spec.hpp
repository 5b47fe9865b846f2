#pragma once
// A text model as a run resolves it (model.name = "equations"): the checked program and its inputs.
#include <string>
#include <vector>

#include "pdex/grid/boundary.hpp"
#include "pdex/grid/grid.hpp"
#include "pdex/grid/scalar_spec.hpp"
#include "pdex/models/equations/program.hpp"

namespace pdex {

struct EquationsSpec {
  Grid2 grid;
  eq::TextModel text;
  eq::Program program;
  std::vector<ScalarSpec> params;                // one per text.params
  std::vector<std::vector<double>> initial;      // per species, every cell
  FieldBoundary bc;                              // per species
  std::vector<double> floor;                     // [model.clamp]: per species, -infinity where none
  double dt = 0;
};

}  // namespace pdex
