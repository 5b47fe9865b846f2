#pragma once
// Instantiates the stored-matrix solvers, the linear-algebra timings and the tiled relaxation sweeps for the
// CUDA executor (engine_cuda.cu includes it).
#include "pdex/linalg/linalg_timing_impl.hpp"
#include "pdex/linalg/matrix_solve_impl.hpp"
#include "pdex/linalg/cuda/fused_sweep.cuh"
#include "pdex/linalg/cuda/resident_sweep.cuh"
#include "pdex/linalg/cuda/sweep_runs.cuh"

namespace pdex {
template MatrixSolution solve_matrix_on<Cuda>(const Cuda&, const CsrMatrix<double>&, const std::vector<double>&,
                                            const MatrixSolve&, Precision);
template std::vector<double> multiply_matrix_on<Cuda>(const Cuda&, const CsrMatrix<double>&, const std::vector<double>&,
                                                    MatrixFormat, Precision);
template LinalgTimings time_linalg_on<Cuda>(const Cuda&, Precision, Extents2, int);
template SweepTimings time_sweeps_on<Cuda>(const Cuda&, Precision, int, int);
template float rb_sweep_into<float>(const Cuda&, const Helmholtz<float>&, FieldView<const float>, FieldView<const float>,
                                    FieldView<float>, const FieldBoundary&, float, bool, bool);
template double rb_sweep_into<double>(const Cuda&, const Helmholtz<double>&, FieldView<const double>,
                                      FieldView<const double>, FieldView<double>, const FieldBoundary&, double, bool,
                                      bool);
template void rb_sweep_pair_into<float>(const Cuda&, const Helmholtz<float>&, FieldView<const float>,
                                        FieldView<const float>, FieldView<float>, const FieldBoundary&, float, bool);
template void rb_sweep_pair_into<double>(const Cuda&, const Helmholtz<double>&, FieldView<const double>,
                                         FieldView<const double>, FieldView<double>, const FieldBoundary&, double,
                                         bool);
template float jacobi_sweep<float>(const Cuda&, const Helmholtz<float>&, FieldView<const float>, FieldView<const float>,
                                   FieldView<float>, const FieldBoundary&, float, bool);
template double jacobi_sweep<double>(const Cuda&, const Helmholtz<double>&, FieldView<const double>,
                                     FieldView<const double>, FieldView<double>, const FieldBoundary&, double, bool);
template void queued_sweep<float>(const Cuda&, const Helmholtz<float>&, bool, int, FieldView<const float>,
                                  FieldView<const float>, FieldView<float>, const FieldBoundary&, float,
                                  const QueuedTest&);
template void queued_sweep<double>(const Cuda&, const Helmholtz<double>&, bool, int, FieldView<const double>,
                                   FieldView<const double>, FieldView<double>, const FieldBoundary&, double,
                                   const QueuedTest&);
template void queued_tested_sweeps<float>(const Cuda&, const Helmholtz<float>&, bool, FieldView<const float>,
                                          FieldView<const float>, FieldView<float>, const FieldBoundary&, float,
                                          const QueuedTest&);
template void queued_tested_sweeps<double>(const Cuda&, const Helmholtz<double>&, bool, FieldView<const double>,
                                           FieldView<const double>, FieldView<double>, const FieldBoundary&, double,
                                           const QueuedTest&);
template bool resident_sweeps<float>(const Cuda&, const Helmholtz<float>&, bool, FieldView<float>, FieldView<float>,
                                     FieldView<const float>, const FieldBoundary&, float, SweepLog*, const QueuePlan&,
                                     double, bool, SweepQueue&);
template bool resident_sweeps<double>(const Cuda&, const Helmholtz<double>&, bool, FieldView<double>,
                                      FieldView<double>, FieldView<const double>, const FieldBoundary&, double,
                                      SweepLog*, const QueuePlan&, double, bool, SweepQueue&);
template void queued_residual<float>(const Cuda&, const Helmholtz<float>&, FieldView<const float>,
                                     FieldView<const float>, const QueuedTest&);
template void queued_residual<double>(const Cuda&, const Helmholtz<double>&, FieldView<const double>,
                                      FieldView<const double>, const QueuedTest&);
template float rb_sweeps<float, false>(const Cuda&, const Helmholtz<float>&, FieldView<float>, FieldView<const float>,
                                       const FieldBoundary&, float, bool, int, bool);
template double rb_sweeps<double, false>(const Cuda&, const Helmholtz<double>&, FieldView<double>,
                                         FieldView<const double>, const FieldBoundary&, double, bool, int, bool);
template float rb_sweeps<float, true>(const Cuda&, const Helmholtz<float, true>&, FieldView<float>,
                                      FieldView<const float>, const FieldBoundary&, float, bool, int, bool);
template double rb_sweeps<double, true>(const Cuda&, const Helmholtz<double, true>&, FieldView<double>,
                                        FieldView<const double>, const FieldBoundary&, double, bool, int, bool);
template bool relax_in_one_launch<float, false>(const Cuda&, const Helmholtz<float>&, FieldView<float>, FieldView<const float>,
                                             const FieldBoundary&, float, SweepLog*, const QueuePlan&, double, double);
template bool relax_in_one_launch<float, true>(const Cuda&, const Helmholtz<float, true>&, FieldView<float>, FieldView<const float>,
                                             const FieldBoundary&, float, SweepLog*, const QueuePlan&, double, double);
template bool relax_in_one_launch<double, false>(const Cuda&, const Helmholtz<double>&, FieldView<double>, FieldView<const double>,
                                             const FieldBoundary&, double, SweepLog*, const QueuePlan&, double, double);
template bool relax_in_one_launch<double, true>(const Cuda&, const Helmholtz<double, true>&, FieldView<double>, FieldView<const double>,
                                             const FieldBoundary&, double, SweepLog*, const QueuePlan&, double, double);
}  // namespace pdex
