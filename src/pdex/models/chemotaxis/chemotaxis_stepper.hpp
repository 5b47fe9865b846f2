#pragma once
// Builds the engine for the chemotaxis models (chemotaxis_spec.hpp) on a backend and precision chosen
// at run time. Fields: n, c, u1, u2, P (chemotaxis-Stokes) or n, c (Keller-Segel).
#include <memory>

#include "pdex/core/executor.hpp"
#include "pdex/core/precision.hpp"
#include "pdex/models/chemotaxis/chemotaxis_spec.hpp"
#include "pdex/time/stepper.hpp"

namespace pdex {

std::unique_ptr<Stepper> make_chemotaxis_stepper(const ChemotaxisSpec& spec, Backend backend, Precision precision);

template <class Exec>
std::unique_ptr<Stepper> make_chemotaxis_stepper_on(const Exec& ex, const ChemotaxisSpec& spec, Precision precision);

}  // namespace pdex
