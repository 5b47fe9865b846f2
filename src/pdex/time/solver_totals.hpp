#pragma once
// Adds one linear solve to a run's solver statistics (summary.json's "solver").
#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>

#include "pdex/core/error.hpp"

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
  if (st.at_floor) ++t.at_floor;
}

// The error for a solve whose residual stopped falling above its tolerance and above the rounding floor
// of its precision (a solve that stops at that floor has converged: SolveStats::at_floor).
inline NumericalError stalled_solve(SolverMethod method, const SolveStats& st) {
  auto fmt = [](double x) {
    char s[32];
    std::snprintf(s, sizeof s, "%.3g", x);
    return std::string(s);
  };
  return NumericalError("the " + std::string(solver_method_name(method)) + " solver stalled at relative residual " +
                        fmt(st.residual) + " after " + std::to_string(st.iterations) + " iterations (no gain in its last " +
                        std::to_string(stall_window) + " tests, above the precision's rounding floor of about " +
                        fmt(st.floor) + "); check that the problem is consistent, loosen solver.tol, "
                        "use precision f64, or try another solver.method");
}

// Adds the solve, then stops the run when it did not converge: a time step built on it would be wrong.
// `also_try`: a remedy the caller adds to the message's list (a time stepper: "reduce time.dt").
inline void record_solve(SolverTotals& t, const SolveStats& st, SolverMethod method, std::string_view also_try = {}) {
  add_solve(t, st);
  if (st.stalled) throw stalled_solve(method, st);
  if (!st.converged)
    throw NumericalError("the " + std::string(solver_method_name(method)) + " solver did not converge in " +
                         std::to_string(st.iterations) + " iterations (relative residual " + std::to_string(st.residual) +
                         ", largest change " + std::to_string(st.change) + "); raise solver.max_iter, loosen solver.tol, " +
                         (also_try.empty() ? std::string() : std::string(also_try) + ", ") +
                         "or use solver.method = \"multigrid\"");
}

}  // namespace pdex
