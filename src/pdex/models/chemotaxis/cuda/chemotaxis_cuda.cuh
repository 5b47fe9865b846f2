#pragma once
// Instantiates the chemotaxis engine for the CUDA executor (engine_cuda.cu includes it).
#include "pdex/models/chemotaxis/chemotaxis_impl.hpp"

namespace pdex {
template std::unique_ptr<Stepper> make_chemotaxis_stepper_on<Cuda>(const Cuda&, const ChemotaxisSpec&, Precision);
}
