// Instantiates the curvature-flow engine for the OpenMP executor.
#include "pdex/models/curvature/curvature_stepper_impl.hpp"

namespace pdex {
template std::unique_ptr<CurvatureStepper> make_curvature_stepper_on<OpenMP>(const OpenMP&, const CurvatureSpec&, Precision);
}
