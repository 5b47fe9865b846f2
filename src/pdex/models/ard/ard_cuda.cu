// Instantiates the advection-reaction-diffusion engine for the CUDA executor (compiled by nvcc).
#include "pdex/models/ard/ard_stepper_impl.hpp"

namespace pdex {
template std::unique_ptr<Stepper> make_ard_stepper_on<Cuda>(const Cuda&, const ArdSpec&, Precision);
}
