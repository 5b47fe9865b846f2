// Instantiates the stored-matrix solvers for the Serial executor.
#include "pdex/linalg/matrix_solve_impl.hpp"

namespace pdex {
template MatrixSolution solve_matrix_on<Serial>(const Serial&, const CsrMatrix<double>&, const std::vector<double>&,
                                            const MatrixSolve&, Precision);
template std::vector<double> multiply_matrix_on<Serial>(const Serial&, const CsrMatrix<double>&, const std::vector<double>&,
                                                    MatrixFormat, Precision);
}  // namespace pdex
