// Instantiates the elliptic solvers for the Serial executor.
#include "pdex/linalg/elliptic_impl.hpp"

namespace pdex {
template std::unique_ptr<EllipticSolver> make_elliptic_solver_on<Serial>(const Serial&, const EllipticSpec&, Precision);
}
