#include "pdex/linalg/elliptic.hpp"

#include "pdex/core/dispatch.hpp"

namespace pdex {

std::unique_ptr<EllipticSolver> make_elliptic_solver(const EllipticSpec& spec, Backend backend, Precision precision) {
  return with_executor(backend, [&](const auto& ex) { return make_elliptic_solver_on(ex, spec, precision); });
}

}  // namespace pdex
