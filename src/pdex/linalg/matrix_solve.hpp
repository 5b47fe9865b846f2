#pragma once
// Run-time face of the stored-matrix solvers: a user's own system A x = b (`pdex solve`, the tests and
// `pdex bench linalg`), on any backend, precision and storage format. The Krylov methods are the same
// code as the grid solvers' (krylov.hpp).
#include <string_view>
#include <vector>

#include "pdex/core/executor.hpp"
#include "pdex/core/precision.hpp"
#include "pdex/linalg/matrix.hpp"
#include "pdex/linalg/solver_settings.hpp"

namespace pdex {

enum class MatrixFormat { csr, banded, dense };
// cg, pcg (Jacobi), bicgstab (none or Jacobi) solve square systems; cgls least squares.
enum class MatrixMethod { cg, pcg, bicgstab, cgls };

MatrixFormat parse_matrix_format(std::string_view s);  // "csr" | "banded" | "dense"; InputError otherwise
MatrixMethod parse_matrix_method(std::string_view s);  // InputError naming the accepted methods
std::string_view matrix_method_name(MatrixMethod m);

struct MatrixSolve {
  MatrixMethod method = MatrixMethod::cg;
  MatrixFormat format = MatrixFormat::csr;
  double tol = 1e-8;
  int max_iter = 10000;
  bool jacobi = false;  // bicgstab: Jacobi preconditioning (pcg always has it)
};

struct MatrixSolution {
  std::vector<double> x;
  SolveStats stats;
  double true_residual = 0;  // |b - A x| / |b| recomputed in double on the host
};

// Throws InputError for a non-square matrix (except cgls) or sizes that do not match.
MatrixSolution solve_matrix(const CsrMatrix<double>& a, const std::vector<double>& b, const MatrixSolve& s,
                            Backend backend, Precision precision);

// y = A x on a backend, in a format (the tests' cross-format check and the benchmark).
std::vector<double> multiply_matrix(const CsrMatrix<double>& a, const std::vector<double>& x, MatrixFormat format,
                                    Backend backend, Precision precision);

template <class Exec>
MatrixSolution solve_matrix_on(const Exec& ex, const CsrMatrix<double>& a, const std::vector<double>& b,
                               const MatrixSolve& s, Precision precision);
template <class Exec>
std::vector<double> multiply_matrix_on(const Exec& ex, const CsrMatrix<double>& a, const std::vector<double>& x,
                                       MatrixFormat format, Precision precision);

}  // namespace pdex
