#pragma once
// Builds the wave-equation engine on a backend and precision chosen at run time.
#include <memory>

#include "pdex/core/executor.hpp"
#include "pdex/core/precision.hpp"
#include "pdex/models/wave/wave_spec.hpp"
#include "pdex/time/stepper.hpp"

namespace pdex {

std::unique_ptr<Stepper> make_wave_stepper(const WaveModelSpec& spec, Backend backend, Precision precision);

template <class Exec>
std::unique_ptr<Stepper> make_wave_stepper_on(const Exec& ex, const WaveModelSpec& spec, Precision precision);

}  // namespace pdex
