#pragma once
// Instantiates the elliptic solvers for the CUDA executor (engine_cuda.cu includes it).
#include "pdex/linalg/elliptic_impl.hpp"

namespace pdex {
template std::unique_ptr<EllipticSolver> make_elliptic_solver_on<Cuda>(const Cuda&, const EllipticSpec&, Precision);
}
