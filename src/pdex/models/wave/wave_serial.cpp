// Instantiates the wave-equation engine for the Serial executor.
#include "pdex/models/wave/wave_impl.hpp"

namespace pdex {
template std::unique_ptr<Stepper> make_wave_stepper_on<Serial>(const Serial&, const WaveModelSpec&, Precision);
}
