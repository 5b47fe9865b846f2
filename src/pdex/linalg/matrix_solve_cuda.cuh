#pragma once
// Instantiates the stored-matrix solvers and the linear-algebra timings for the CUDA executor (engine_cuda.cu includes it).
#include "pdex/linalg/linalg_timing_impl.hpp"
#include "pdex/linalg/matrix_solve_impl.hpp"

namespace pdex {
template MatrixSolution solve_matrix_on<Cuda>(const Cuda&, const CsrMatrix<double>&, const std::vector<double>&,
                                            const MatrixSolve&, Precision);
template std::vector<double> multiply_matrix_on<Cuda>(const Cuda&, const CsrMatrix<double>&, const std::vector<double>&,
                                                    MatrixFormat, Precision);
template LinalgTimings time_linalg_on<Cuda>(const Cuda&, Precision, int, int, int);
}  // namespace pdex
