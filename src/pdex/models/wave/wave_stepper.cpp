#include "pdex/models/wave/wave_stepper.hpp"

#include "pdex/core/dispatch.hpp"

namespace pdex {

std::unique_ptr<Stepper> make_wave_stepper(const WaveModelSpec& spec, Backend backend, Precision precision) {
  return with_executor(backend, [&](const auto& ex) { return make_wave_stepper_on(ex, spec, precision); });
}

}  // namespace pdex
