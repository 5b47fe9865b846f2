#pragma once
// The stepper of a text model: forward Euler, its right-hand sides compiled at run time (text_step.hpp).
#include <memory>

#include "pdex/core/executor.hpp"
#include "pdex/core/precision.hpp"
#include "pdex/models/equations/equations_spec.hpp"
#include "pdex/time/stepper.hpp"

namespace pdex {

std::unique_ptr<Stepper> make_equations_stepper(const EquationsSpec& spec, Backend backend, Precision precision);

// The same on an executor (equations_stepper_impl.hpp; instantiated in equations_host.cpp and the CUDA unit).
template <class Exec>
std::unique_ptr<Stepper> make_equations_stepper_on(const Exec& ex, const EquationsSpec& spec, Precision precision);

}  // namespace pdex
