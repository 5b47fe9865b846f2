// Instantiates the wave-equation engine for the CUDA executor (compiled by nvcc).
#include "pdex/models/wave/wave_impl.hpp"

namespace pdex {
template std::unique_ptr<Stepper> make_wave_stepper_on<Cuda>(const Cuda&, const WaveModelSpec&, Precision);
}
