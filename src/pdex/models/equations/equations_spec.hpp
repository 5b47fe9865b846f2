#pragma once
// A text model as a run resolves it (model.name = "equations"): the checked program and its inputs.
#include <memory>
#include <string>
#include <vector>

#include "pdex/config/boundary_text.hpp"
#include "pdex/grid/boundary.hpp"
#include "pdex/grid/cell_source.hpp"
#include "pdex/grid/grid.hpp"
#include "pdex/grid/halo.hpp"
#include "pdex/grid/scalar_spec.hpp"
#include "pdex/linalg/solver_settings.hpp"
#include "pdex/models/equations/program.hpp"

namespace pdex {

// A side's value written as an expression of x, y, t, L_x, L_y, pi and the parameters that are numbers.
struct BoundaryExpression {
  BoundaryText text;
  eq::Program program;
  bool timed = false;  // it uses t
};

struct EquationsSpec {
  Grid2 grid;
  eq::TextModel text;
  eq::Program program;
  std::vector<ScalarSpec> params;                // one per text.params
  std::vector<CellSource> initial;               // per species; a copy shares the cells
  FieldBoundary bc;                              // per species; a side whose value is an expression holds 0
  std::vector<BoundaryExpression> boundary_values;  // those sides' values
  std::vector<double> floor;                     // [model.clamp]: per species, -infinity where none
  std::string scheme = "euler";  // euler | rk4 | merson | theta
  double dt = 0;                 // every step's, or Merson's first
  double tol = 0;                // Merson's
  double theta = 0;              // theta's: the implicit share of the D*lap(u) terms (program.hpp)
  SolverSettings solver;         // theta's
  bool temporal_blocking = true;  // run.temporal_blocking: several steps a pass where the plan finds they pay
  int steps_per_pass = 0;         // run.steps_per_pass; 0: the plan's (equations_plan.hpp)
  // A block of a grid split among MPI ranks (grid/blocks.hpp): its shared ghosts come from the neighbours
  // after every stage (the explicit schemes); null for a whole grid.
  HaloExchange* halo = nullptr;
};

// Marks the parameters that are numbers in the program (Program::constant_params): its kernels take
// them as arguments, not as fields. Once the parameters are read.
inline void mark_constant_params(EquationsSpec& s) {
  s.program.constant_params.clear();
  for (const ScalarSpec& p : s.params) s.program.constant_params.push_back(!p.varies());
}

}  // namespace pdex
