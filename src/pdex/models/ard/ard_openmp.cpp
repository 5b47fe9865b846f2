// Instantiates the advection-reaction-diffusion engine for the OpenMP executor.
#include "pdex/models/ard/ard_stepper_impl.hpp"

namespace pdex {
template std::unique_ptr<Stepper> make_ard_stepper_on<OpenMP>(const OpenMP&, const ArdSpec&, Precision);
}
