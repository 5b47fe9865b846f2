#pragma once
// Adds one linear solve to a run's solver statistics (summary.json's "solver").
#include <algorithm>
#include <cstddef>

#include "pdex/linalg/solver_settings.hpp"
#include "pdex/time/stepper.hpp"

namespace pdex {

inline void add_solve(SolverTotals& t, const SolveStats& st) {
  constexpr std::size_t kept = 100000;  // per-solve records kept
  ++t.solves;
  t.iterations += st.iterations;
  t.max_iterations = std::max(t.max_iterations, st.iterations);
  t.max_residual = std::max(t.max_residual, st.residual);
  t.seconds += st.seconds;
  if (t.iterations_per_solve.size() < kept) {
    t.iterations_per_solve.push_back(st.iterations);
    t.residual_per_solve.push_back(st.residual);
  }
  if (!st.history.empty()) t.last_history = st.history;  // fixed cycles measure some solves only
  if (!st.converged) ++t.unconverged;
}

}  // namespace pdex
