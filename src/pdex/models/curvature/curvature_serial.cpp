// Instantiates the curvature-flow engine for the Serial executor.
#include "pdex/models/curvature/curvature_stepper_impl.hpp"

namespace pdex {
template std::unique_ptr<CurvatureStepper> make_curvature_stepper_on<Serial>(const Serial&, const CurvatureSpec&, Precision);
}
