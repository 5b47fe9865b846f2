#pragma once
// Timings of the linear-algebra building blocks on one backend (`pdex bench linalg`, seed 001 Table 44-1):
// the vector reduce and a vector-vector operation, the 5-point operator applied matrix-free against the
// same operator assembled into CSR (cuSPARSE on the GPU), and CG iterations both ways. Each figure is the
// median of `repeats` timed calls after a warm-up, device work finished.
#include "pdex/core/executor.hpp"
#include "pdex/core/precision.hpp"
#include "pdex/grid/extents.hpp"

namespace pdex {

struct LinalgTimings {
  double reduce = 0, axpy = 0;          // seconds per call on a value per cell
  double stencil = 0, csr = 0;          // seconds per y = A x, matrix-free and stored
  double cg_grid = 0, cg_csr = 0;       // seconds per CG iteration, matrix-free and stored
};

LinalgTimings time_linalg(Backend backend, Precision precision, Extents2 n, int repeats);

template <class Exec>
LinalgTimings time_linalg_on(const Exec& ex, Precision precision, Extents2 n, int repeats);

// Seconds per relaxation sweep of the n x n Poisson operator (Dirichlet sides), as the solvers sweep
// (`pdex bench implicit`, issue 3's bandwidth target): Jacobi out of place; red-black Gauss-Seidel / SOR
// (one kernel: omega is a number in it) out of place with rb_sweep_into where the solvers sweep so (the
// GPU), else in place. Each plain (one sweep, as multigrid smooths), with the largest-change test after
// every sweep (seed 004's criterion), and as a solve with the default check_every sweeps between tests;
// on the GPU the last two queued as the solvers queue them (queue_sweeps: out of place, the sweeps
// between two tests fused_sweeps to a launch).
struct SweepTimings {
  double jacobi = 0, jacobi_tested = 0, jacobi_solve = 0;
  double red_black = 0, red_black_tested = 0, red_black_solve = 0;
};

SweepTimings time_sweeps(Backend backend, Precision precision, int n, int repeats);

template <class Exec>
SweepTimings time_sweeps_on(const Exec& ex, Precision precision, int n, int repeats);

}  // namespace pdex
