// Instantiates the wave-equation engine for the OpenMP executor.
#include "pdex/models/wave/wave_impl.hpp"

namespace pdex {
template std::unique_ptr<Stepper> make_wave_stepper_on<OpenMP>(const OpenMP&, const WaveModelSpec&, Precision);
}
