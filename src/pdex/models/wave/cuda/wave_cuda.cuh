#pragma once
// Instantiates the wave-equation engine for the CUDA executor (engine_cuda.cu includes it).
#include "pdex/models/wave/wave_impl.hpp"

namespace pdex {
template std::unique_ptr<Stepper> make_wave_stepper_on<Cuda>(const Cuda&, const WaveModelSpec&, Precision);
}
