#pragma once
// The CUDA executor's linear solvers are instantiated once, in engine_cuda.cu; a unit that includes
// this header takes them from there (ard_engine.cu's theta steppers) instead of compiling them again.
#include "pdex/linalg/linear_solver.hpp"

namespace pdex {
PDEX_LINEAR_SOLVERS(extern template class, Cuda)
}  // namespace pdex
