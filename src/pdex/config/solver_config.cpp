#include "pdex/config/solver_config.hpp"

#include <string>

#include "pdex/core/error.hpp"

namespace pdex {

SolverSettings read_solver(ConfigReader& cfg, SolverSettings s) {
  const std::string method =
      cfg.get_choice("solver.method", {"jacobi", "weighted_jacobi", "rbgs", "sor", "cg", "pcg", "bicgstab", "multigrid"},
                     std::string(solver_method_name(s.method)));
  s.method = parse_solver_method(method);
  s.tol = cfg.get_double("solver.tol", s.tol);
  s.change_tol = cfg.get_double("solver.change_tol", s.change_tol);
  if (s.tol < 0) cfg.fail("solver.tol", "expected a non-negative relative residual");
  if (s.change_tol < 0) cfg.fail("solver.change_tol", "expected a non-negative change");
  s.cycles = int(cfg.get_int("solver.cycles", s.cycles));
  if (s.cycles < 0) cfg.fail("solver.cycles", "expected 0 (cycle to solver.tol) or a positive number of cycles");
  if (s.cycles > 0 && s.method != SolverMethod::multigrid)
    cfg.fail("solver.cycles", "a fixed number of cycles is for solver.method = \"multigrid\"; other methods stop on solver.tol");
  if (s.tol == 0 && s.cycles == 0 && (s.change_tol == 0 || !is_relaxation(s.method)))
    cfg.fail("solver.tol", "expected a positive tolerance (only relaxation methods may stop on solver.change_tol alone)");
  s.check_every = int(cfg.get_int("solver.check_every", s.check_every));
  if (s.check_every < 1) cfg.fail("solver.check_every", "expected a positive number of sweeps");
  s.max_iter = int(cfg.get_int("solver.max_iter", s.max_iter));
  if (s.max_iter < 1) cfg.fail("solver.max_iter", "expected a positive number of iterations");
  s.omega = cfg.get_double("solver.omega", s.omega);
  if (s.omega < 0 || s.omega >= 2) cfg.fail("solver.omega", "expected 0 (the method's default) or a weight in (0, 2)");
  s.preconditioner = parse_preconditioner(cfg.get_choice("solver.preconditioner", {"none", "jacobi", "multigrid"},
                                                         std::string(preconditioner_name(s.preconditioner))));
  const std::string cycle = cfg.get_choice("solver.cycle", {"V", "W"}, s.cycle_gamma == 2 ? "W" : "V");
  s.cycle_gamma = cycle == "W" ? 2 : 1;
  s.pre = int(cfg.get_int("solver.pre_smooth", s.pre));
  s.post = int(cfg.get_int("solver.post_smooth", s.post));
  if (s.pre < 0 || s.post < 0 || s.pre + s.post == 0)
    cfg.fail("solver.pre_smooth", "expected non-negative sweep counts, not both zero");
  s.fmg = cfg.get_bool("solver.fmg", s.fmg);
  if (s.fmg && s.method != SolverMethod::multigrid)
    cfg.fail("solver.fmg", "full multigrid is for solver.method = \"multigrid\" (as a preconditioner multigrid keeps its V cycle)");
  if (s.fmg && s.cycles > 0)
    cfg.fail("solver.fmg", "full multigrid starts a solve to solver.tol; fixed solver.cycles take V cycles from the initial guess");
  return s;
}

nlohmann::json solver_json(const SolverSettings& s) {
  return {{"method", solver_method_name(s.method)}, {"tol", s.tol},         {"change_tol", s.change_tol},
          {"check_every", s.check_every},           {"max_iter", s.max_iter}, {"omega", s.omega},
          {"preconditioner", preconditioner_name(s.preconditioner)},
          {"cycle", s.cycle_gamma == 2 ? "W" : "V"}, {"pre_smooth", s.pre},   {"post_smooth", s.post},
          {"cycles", s.cycles},                     {"fmg", s.fmg}};
}

}  // namespace pdex
