// Instantiates the elliptic solvers for the CUDA executor (compiled by nvcc).
#include "pdex/linalg/elliptic_impl.hpp"

namespace pdex {
template std::unique_ptr<EllipticSolver> make_elliptic_solver_on<Cuda>(const Cuda&, const EllipticSpec&, Precision);
}
