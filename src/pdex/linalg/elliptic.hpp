#pragma once
// Run-time face of the linear solvers for one scalar elliptic problem on a grid,
//   alpha u - beta lap u = f   (Poisson: alpha = 0, beta = 1; a heat step: alpha = 1, beta = dt),
// with boundary conditions per side: the entry point for `pdex run` of the Poisson and Laplace models,
// the tests and `pdex bench implicit`. Vectors are row-major [y][x] interior values.
#include <memory>
#include <vector>

#include "pdex/core/executor.hpp"
#include "pdex/core/precision.hpp"
#include "pdex/grid/boundary.hpp"
#include "pdex/grid/grid.hpp"
#include "pdex/linalg/solver_settings.hpp"

namespace pdex {

struct EllipticSpec {
  Grid2 grid;
  double alpha = 0.0, beta = 1.0;
  FieldBoundary bc = FieldBoundary::all(BcKind::dirichlet);
  SolverSettings solver;
};

class EllipticSolver {
 public:
  virtual ~EllipticSolver() = default;
  // Uploads the right-hand side f and the initial guess u.
  virtual void set(const std::vector<double>& u, const std::vector<double>& f) = 0;
  // Solves on the backend's memory (nothing moves between host and device).
  virtual SolveStats solve() = 0;
  virtual std::vector<double> solution() = 0;
  // |f - A u|_2 / |f|_2 of the current u, recomputed from scratch.
  virtual double relative_residual() = 0;
  virtual int multigrid_levels() const = 0;
  virtual double omega() const = 0;
};

// Throws BackendUnavailable, or InputError for a method that cannot solve this operator.
std::unique_ptr<EllipticSolver> make_elliptic_solver(const EllipticSpec& spec, Backend backend, Precision precision);

template <class Exec>
std::unique_ptr<EllipticSolver> make_elliptic_solver_on(const Exec& ex, const EllipticSpec& spec, Precision precision);

}  // namespace pdex
