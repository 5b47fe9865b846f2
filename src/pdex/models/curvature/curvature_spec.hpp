#pragma once
// A fully resolved curvature-flow run (seed 003), as the configuration layer hands it to the engine.
// Host-side plain data.
#include <string>
#include <vector>

#include "pdex/grid/boundary.hpp"
#include "pdex/grid/grid.hpp"
#include "pdex/grid/halo.hpp"
#include "pdex/models/curvature/curvature_rhs.hpp"

namespace pdex {

struct CurvatureSpec {
  Flow flow = Flow::mean_curvature;
  Grid2 grid;
  FieldBoundary bc = FieldBoundary::all(BcKind::neumann);  // component 0: phi
  std::vector<double> phi0;   // initial phi, row-major [y][x]; unused when manufactured
  bool manufactured = false;  // forcing and initial state of the manufactured solution (manufactured.hpp)
  double amplitude = 1.0;     // its A
  std::string scheme = "merson";  // or "rk4"
  double tol = 1e-6;              // Merson's epsilon (Algorithm 4.1)
  double dt = 1e-5;               // Merson's first step, or rk4's fixed step
  HaloExchange* halo = nullptr;   // a block of a run over MPI ranks: its shared sides' exchange
};

// The manufactured solution on spec's rectangle: wavenumbers pi / L (Neumann) or pi / (2 L) (Dirichlet,
// value 0). Throws InputError for other boundaries.
Manufactured<double> manufactured_solution(const CurvatureSpec& spec);

}  // namespace pdex
