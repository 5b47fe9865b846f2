// Instantiates the chemotaxis engine for the OpenMP executor.
#include "pdex/models/chemotaxis/chemotaxis_impl.hpp"

namespace pdex {
template std::unique_ptr<Stepper> make_chemotaxis_stepper_on<OpenMP>(const OpenMP&, const ChemotaxisSpec&, Precision);
}
