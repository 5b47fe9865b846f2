// Instantiates the advection-reaction-diffusion engine for the Serial executor.
#include "pdex/models/ard/ard_stepper_impl.hpp"

namespace pdex {
template std::unique_ptr<Stepper> make_ard_stepper_on<Serial>(const Serial&, const ArdSpec&, Precision);
}
