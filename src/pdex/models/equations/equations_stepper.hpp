#pragma once
// The stepper of a text model: forward Euler over the interpreter (interpreter.hpp) on the host backends.
#include <memory>

#include "pdex/core/executor.hpp"
#include "pdex/core/precision.hpp"
#include "pdex/models/equations/equations_spec.hpp"
#include "pdex/time/stepper.hpp"

namespace pdex {

// Throws BackendUnavailable for CUDA: text models are not compiled for the GPU yet.
std::unique_ptr<Stepper> make_equations_stepper(const EquationsSpec& spec, Backend backend, Precision precision);

}  // namespace pdex
