#include "pdex/linalg/solver_settings.hpp"

#include <string>

#include "pdex/core/error.hpp"

namespace pdex {

namespace {
constexpr std::string_view method_names[] = {"jacobi", "weighted_jacobi", "rbgs", "sor",
                                             "cg",     "pcg",             "bicgstab", "multigrid"};
constexpr std::string_view precond_names[] = {"none", "jacobi", "multigrid"};
}  // namespace

std::string_view solver_method_name(SolverMethod m) { return method_names[int(m)]; }

SolverMethod parse_solver_method(std::string_view s) {
  for (int k = 0; k < int(std::size(method_names)); ++k)
    if (s == method_names[k]) return SolverMethod(k);
  throw InputError("unknown solver '" + std::string(s) +
                   "': expected jacobi, weighted_jacobi, rbgs, sor, cg, pcg, bicgstab or multigrid");
}

std::string_view preconditioner_name(Preconditioner p) { return precond_names[int(p)]; }

Preconditioner parse_preconditioner(std::string_view s) {
  for (int k = 0; k < int(std::size(precond_names)); ++k)
    if (s == precond_names[k]) return Preconditioner(k);
  throw InputError("unknown preconditioner '" + std::string(s) + "': expected none, jacobi or multigrid");
}

}  // namespace pdex
