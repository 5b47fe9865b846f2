#pragma once
// One scalar field u with diffusion: the heat equation u_t = D lap u + f, and its steady state, the
// Poisson problem -D lap u = f (Laplace: f = 0), as seed 004 solves it. Host-side plain data.
#include <string>
#include <vector>

#include "pdex/grid/boundary.hpp"
#include "pdex/grid/cell_source.hpp"
#include "pdex/grid/grid.hpp"
#include "pdex/grid/halo.hpp"
#include "pdex/linalg/solver_settings.hpp"

namespace pdex {

struct ScalarModelSpec {
  bool steady = false;       // poisson / laplace: each step is one solve of -D lap u = f from the current u
  Grid2 grid;
  FieldBoundary bc = FieldBoundary::all(BcKind::dirichlet);
  double D = 1.0;
  std::vector<double> source;  // f per cell, row-major; empty: 0
  CellSource u0;               // initial state or initial guess
  double dt = 1.0;             // heat only
  double theta = 0.0;          // heat only: 0 forward Euler, > 0 the theta scheme
  SolverSettings solver;       // steady problems and the theta scheme
  // A block of a grid split among MPI ranks (grid/blocks.hpp): its shared ghosts come from the
  // neighbours after every step and in the solves; null for a whole grid.
  HaloExchange* halo = nullptr;
};

}  // namespace pdex
