#pragma once
// Convergence study of the curvature flows against the manufactured solution (seed 003 Section 5):
// space-time errors in the norms of eqs. 31-33 and the experimental order of convergence, eq. 34.
#include <cstdint>
#include <vector>

#include "pdex/core/executor.hpp"
#include "pdex/core/precision.hpp"
#include "pdex/models/curvature/curvature_spec.hpp"

namespace pdex {

struct VerifyOptions {
  Flow flow = Flow::mean_curvature;
  BcKind boundary = BcKind::neumann;  // neumann or dirichlet (value 0)
  Backend backend = Backend::openmp;
  Precision precision = Precision::f64;
  std::vector<int> sizes{16, 32, 64, 128};
  double half_width = 4.0;  // the domain (-L, L)^2; seed 003 uses L = 4
  double amplitude = 1.0;
  double t_end = 0.1;       // seed 003: T = 0.1
  int samples = 10;         // time levels k theta, theta = T / samples, of eqs. 31-33
  double tol = 1e-8;        // Merson's epsilon
  double dt = 1e-5;         // Merson's first step
};

struct EocRow {
  int n = 0;
  double l1 = 0, l2 = 0, linf = 0;              // eqs. 31-33
  double eoc_l1 = 0, eoc_l2 = 0, eoc_linf = 0;  // eq. 34 against the previous row (0 in the first)
  int64_t steps = 0, rejected = 0;
  double seconds = 0;                           // stepping wall time (error evaluations excluded)
};

// The spec of one grid of the study.
CurvatureSpec verification_spec(const VerifyOptions& o, int n);

// The errors on one n x n grid (the EOC fields left 0).
EocRow curvature_errors(const VerifyOptions& o, int n);

// Sets finer's EOC (eq. 34) against the coarser grid's errors.
void set_eoc(const EocRow& coarser, EocRow& finer);

// One row per size of o.sizes, in the order given.
std::vector<EocRow> curvature_eoc(const VerifyOptions& o);

}  // namespace pdex
