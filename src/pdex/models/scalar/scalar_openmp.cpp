// Instantiates the heat / Poisson engine for the OpenMP executor.
#include "pdex/models/scalar/scalar_impl.hpp"

namespace pdex {
template std::unique_ptr<Stepper> make_scalar_stepper_on<OpenMP>(const OpenMP&, const ScalarModelSpec&, Precision);
}
