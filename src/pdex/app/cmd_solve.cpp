// pdex solve A.mtx b.mtx: a user's own linear system (docs/linalg.md). Prints iterations, residual and
// time; writes the solution as a Matrix Market vector.
#include <cstdio>
#include <string>

#include "pdex/app/commands.hpp"
#include "pdex/core/error.hpp"
#include "pdex/linalg/matrix_market.hpp"
#include "pdex/linalg/matrix_solve.hpp"

namespace pdex {

int cmd_solve(const SolveOptions& o) {
  const CsrMatrix<double> a = read_matrix_market(o.matrix);
  const std::vector<double> b = read_matrix_market_vector(o.rhs);
  MatrixSolve s;
  s.method = parse_matrix_method(o.solver);
  s.format = parse_matrix_format(o.format);
  s.tol = o.tol;
  s.max_iter = o.max_iter;
  s.jacobi = o.jacobi;
  const Backend backend = o.backend == "auto" ? best_backend() : parse_backend(o.backend);
  const Precision precision = parse_precision(o.precision);
  std::printf("pdex solve: %s (%d x %d, %lld nonzeros), %s, %s storage, %s, %s\n", o.matrix.c_str(), a.rows, a.cols,
              (long long)a.nnz(), o.solver.c_str(), o.format.c_str(), std::string(backend_name(backend)).c_str(),
              o.precision.c_str());
  const MatrixSolution sol = solve_matrix(a, b, s, backend, precision);
  std::printf("  %s after %d iterations: relative residual %.3e (recomputed in f64: %.3e), %.3f ms\n",
              sol.stats.converged ? "converged" : "NOT converged", sol.stats.iterations, sol.stats.residual,
              sol.true_residual, sol.stats.seconds * 1e3);
  if (!o.out.empty()) {
    write_matrix_market_vector(o.out, sol.x);
    std::printf("  solution written to %s\n", o.out.c_str());
  }
  return sol.stats.converged ? 0 : 1;
}

}  // namespace pdex
