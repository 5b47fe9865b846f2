// Instantiates the stored-matrix solvers and the linear-algebra timings for the OpenMP executor.
#include "pdex/linalg/linalg_timing_impl.hpp"
#include "pdex/linalg/matrix_solve_impl.hpp"

namespace pdex {
template MatrixSolution solve_matrix_on<OpenMP>(const OpenMP&, const CsrMatrix<double>&, const std::vector<double>&,
                                            const MatrixSolve&, Precision);
template std::vector<double> multiply_matrix_on<OpenMP>(const OpenMP&, const CsrMatrix<double>&, const std::vector<double>&,
                                                    MatrixFormat, Precision);
template LinalgTimings time_linalg_on<OpenMP>(const OpenMP&, Precision, Extents2, int);
template SweepTimings time_sweeps_on<OpenMP>(const OpenMP&, Precision, int, int);
}  // namespace pdex
