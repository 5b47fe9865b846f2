#include "pdex/models/curvature/curvature_stepper.hpp"

#include <cmath>

#include "pdex/core/dispatch.hpp"
#include "pdex/core/error.hpp"

namespace pdex {

namespace {
// The wavenumber along one axis: pi / L for Neumann sides, pi / (2 L) for Dirichlet sides of value 0.
double wavenumber(const SideBc& lo, const SideBc& hi, double half_width) {
  const double pi = 3.14159265358979323846;
  if (lo.kind == BcKind::neumann && hi.kind == BcKind::neumann) return pi / half_width;
  if (lo.kind == BcKind::dirichlet && hi.kind == BcKind::dirichlet && lo.value == 0 && hi.value == 0)
    return pi / (2 * half_width);
  throw InputError("the manufactured solution needs both sides of an axis Neumann, or both Dirichlet with value 0");
}
}  // namespace

Manufactured<double> manufactured_solution(const CurvatureSpec& spec) {
  const Grid2& g = spec.grid;
  const double lx = g.width() / 2, ly = g.height() / 2;
  return {spec.amplitude, wavenumber(spec.bc.side[left][0], spec.bc.side[right][0], lx),
          wavenumber(spec.bc.side[bottom][0], spec.bc.side[top][0], ly), g.x0 + lx, g.y0 + ly};
}

std::unique_ptr<CurvatureStepper> make_curvature_stepper(const CurvatureSpec& spec, Backend backend,
                                                         Precision precision) {
  if (spec.manufactured) manufactured_solution(spec);  // refuse unsupported boundaries before allocating
  return with_executor(backend, [&](const auto& ex) { return make_curvature_stepper_on(ex, spec, precision); });
}

}  // namespace pdex
