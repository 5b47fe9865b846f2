// The linear solvers of the OpenMP executor, compiled once for every unit that uses them (linear_solver.hpp).
#include "pdex/linalg/linear_solver.hpp"

namespace pdex {
PDEX_LINEAR_SOLVERS(template class, OpenMP)
}  // namespace pdex
