// Instantiates the chemotaxis engine for the Serial executor.
#include "pdex/models/chemotaxis/chemotaxis_impl.hpp"

namespace pdex {
template std::unique_ptr<Stepper> make_chemotaxis_stepper_on<Serial>(const Serial&, const ChemotaxisSpec&, Precision);
}
