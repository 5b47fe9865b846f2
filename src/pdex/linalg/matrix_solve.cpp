#include "pdex/linalg/matrix_solve.hpp"

#include <string>

#include "pdex/core/dispatch.hpp"
#include "pdex/core/error.hpp"
#include "pdex/linalg/linalg_timing.hpp"

namespace pdex {

namespace {
constexpr std::string_view format_names[] = {"csr", "banded", "dense"};
constexpr std::string_view method_names[] = {"cg", "pcg", "bicgstab", "cgls"};
}  // namespace

MatrixFormat parse_matrix_format(std::string_view s) {
  for (int k = 0; k < int(std::size(format_names)); ++k)
    if (s == format_names[k]) return MatrixFormat(k);
  throw InputError("unknown matrix format '" + std::string(s) + "': expected csr, banded or dense");
}

MatrixMethod parse_matrix_method(std::string_view s) {
  for (int k = 0; k < int(std::size(method_names)); ++k)
    if (s == method_names[k]) return MatrixMethod(k);
  throw InputError("unknown solver '" + std::string(s) +
                   "' for a stored matrix: expected cg, pcg, bicgstab or cgls (least squares)");
}

std::string_view matrix_method_name(MatrixMethod m) { return method_names[int(m)]; }

MatrixSolution solve_matrix(const CsrMatrix<double>& a, const std::vector<double>& b, const MatrixSolve& s,
                            Backend backend, Precision precision) {
  return with_executor(backend, [&](const auto& ex) { return solve_matrix_on(ex, a, b, s, precision); });
}

std::vector<double> multiply_matrix(const CsrMatrix<double>& a, const std::vector<double>& x, MatrixFormat format,
                                    Backend backend, Precision precision) {
  return with_executor(backend, [&](const auto& ex) { return multiply_matrix_on(ex, a, x, format, precision); });
}

LinalgTimings time_linalg(Backend backend, Precision precision, Extents2 n, int repeats) {
  return with_executor(backend, [&](const auto& ex) { return time_linalg_on(ex, precision, n, repeats); });
}

SweepTimings time_sweeps(Backend backend, Precision precision, int n, int repeats) {
  return with_executor(backend, [&](const auto& ex) { return time_sweeps_on(ex, precision, n, repeats); });
}

}  // namespace pdex
