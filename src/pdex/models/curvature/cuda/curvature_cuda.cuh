#pragma once
// Instantiates the curvature-flow engine for the CUDA executor (engine_cuda.cu includes it).
#include "pdex/models/curvature/curvature_stepper_impl.hpp"

namespace pdex {
template std::unique_ptr<CurvatureStepper> make_curvature_stepper_on<Cuda>(const Cuda&, const CurvatureSpec&, Precision);
}
