#pragma once
// What a linear solve is asked to do and what it reports (host-side plain data; docs/solvers.md).
#include <cmath>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace pdex {

enum class SolverMethod { jacobi, weighted_jacobi, rbgs, sor, cg, pcg, bicgstab, multigrid };
enum class Preconditioner { none, jacobi, multigrid };

struct SolverSettings {
  SolverMethod method = SolverMethod::multigrid;
  double tol = 1e-8;         // relative residual |b - A x|_2 / |b|_2 to reach; 0: no residual test
  double change_tol = 0;     // relaxation: largest change of a sweep to reach first (L-infinity); 0: off
  int check_every = 6;       // relaxation: sweeps between tests (seed 000 sec. 3.2.3: "every fourth to sixth")
  int max_iter = 20000;      // sweeps, Krylov iterations or cycles
  double omega = 0;          // relaxation weight; 0: the method's default (SOR: near-optimal, computed)
  Preconditioner preconditioner = Preconditioner::jacobi;  // pcg, bicgstab
  int cycle_gamma = 1;       // multigrid: 1 V cycle, 2 W cycle
  int pre = 2, post = 2;     // multigrid smoothing sweeps
  int cycles = 0;            // multigrid: > 0: exactly this many cycles per solve, no convergence test
  bool fmg = false;          // multigrid to tol: the first cycle is full multigrid, from scratch (MultigridCycle::fmg)
};

struct SolveStats {
  int iterations = 0;          // sweeps, Krylov iterations or cycles
  double residual = 0;         // final relative residual (NaN when not measured: a change test or fixed cycles)
  double change = 0;           // relaxation: largest change of the last tested sweep
  bool converged = false;
  bool stalled = false;         // stopped before max_iter: the residual stopped falling (residual_stalled)
  bool at_floor = false;        // converged: stopped above tol, at the rounding floor of the precision
  double floor = 0;             // multigrid: that floor's relative residual, where estimated (0: not)
  double seconds = 0;
  std::vector<double> history;  // relative residual at each test
};

// Whether a solve's residual has stopped falling: none of the last stall_window tests went below 0.9 times
// the best before them (NaN counts as no progress). Multigrid cuts the residual tenfold or more a cycle
// on the problems it suits, so one that stops gaining sits on the rounding floor of its precision (f32
// Poisson: about 1e-7 (8 / h^2) |x| / |b|, 6e-3 at 1024^2), where more cycles only spend time, or, where
// its residual is well above that floor (LinearSolver::rounding_floor), fails.
constexpr std::size_t stall_window = 10;
inline bool residual_stalled(const std::vector<double>& history) {
  if (history.size() <= stall_window) return false;
  const std::size_t split = history.size() - stall_window;
  double before = HUGE_VAL, recent = HUGE_VAL;
  for (std::size_t k = 0; k < history.size(); ++k) {
    double& best = k < split ? before : recent;
    if (history[k] < best) best = history[k];
  }
  return !(recent < 0.9 * before);
}

std::string_view solver_method_name(SolverMethod m);
// Throws InputError naming the accepted methods.
SolverMethod parse_solver_method(std::string_view s);
std::string_view preconditioner_name(Preconditioner p);
Preconditioner parse_preconditioner(std::string_view s);
// True for methods that relax point by point (the change test applies to them).
inline bool is_relaxation(SolverMethod m) {
  return m == SolverMethod::jacobi || m == SolverMethod::weighted_jacobi || m == SolverMethod::rbgs ||
         m == SolverMethod::sor;
}

}  // namespace pdex
