// Instantiates the elliptic solvers for the OpenMP executor.
#include "pdex/linalg/elliptic_impl.hpp"

namespace pdex {
template std::unique_ptr<EllipticSolver> make_elliptic_solver_on<OpenMP>(const OpenMP&, const EllipticSpec&, Precision);
}
