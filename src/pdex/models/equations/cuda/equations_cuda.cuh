#pragma once
// Instantiates the text-model stepper for the CUDA executor (engine_cuda.cu includes it); its kernels are
// compiled at run time (nvrtc_kernel.cpp).
#include "pdex/models/equations/equations_stepper_impl.hpp"

namespace pdex {
template std::unique_ptr<Stepper> make_equations_stepper_on<Cuda>(const Cuda&, const EquationsSpec&, Precision);
}
