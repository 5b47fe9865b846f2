// Instantiates the chemotaxis engine for the CUDA executor (compiled by nvcc).
#include "pdex/models/chemotaxis/chemotaxis_impl.hpp"

namespace pdex {
template std::unique_ptr<Stepper> make_chemotaxis_stepper_on<Cuda>(const Cuda&, const ChemotaxisSpec&, Precision);
}
