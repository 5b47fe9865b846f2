#pragma once
// Builds the engine for the heat / Poisson / Laplace models on a backend and precision chosen at run time.
#include <memory>

#include "pdex/core/executor.hpp"
#include "pdex/core/precision.hpp"
#include "pdex/models/scalar/scalar_spec.hpp"
#include "pdex/time/stepper.hpp"

namespace pdex {

std::unique_ptr<Stepper> make_scalar_stepper(const ScalarModelSpec& spec, Backend backend, Precision precision);

template <class Exec>
std::unique_ptr<Stepper> make_scalar_stepper_on(const Exec& ex, const ScalarModelSpec& spec, Precision precision);

}  // namespace pdex
