#pragma once
// Instantiates the heat / Poisson engine for the CUDA executor (engine_cuda.cu includes it).
#include "pdex/models/scalar/scalar_impl.hpp"

namespace pdex {
template std::unique_ptr<Stepper> make_scalar_stepper_on<Cuda>(const Cuda&, const ScalarModelSpec&, Precision);
}
