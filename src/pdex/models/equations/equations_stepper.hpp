#pragma once
// The stepper of a text model: its right-hand sides compiled at run time (text_step.hpp), every scheme.
#include <memory>
#include <string>
#include <vector>

#include "pdex/core/executor.hpp"
#include "pdex/core/precision.hpp"
#include "pdex/models/equations/equations_spec.hpp"
#include "pdex/time/stepper.hpp"

namespace pdex {

std::unique_ptr<Stepper> make_equations_stepper(const EquationsSpec& spec, Backend backend, Precision precision);

// The same on an executor (equations_stepper_impl.hpp; instantiated in equations_host.cpp and the CUDA unit).
template <class Exec>
std::unique_ptr<Stepper> make_equations_stepper_on(const Exec& ex, const EquationsSpec& spec, Precision precision);

// Algebraic species a (model.algebraic's order) at every cell, from the species' interior values at time
// t: the interpreter in double precision, the species' ghosts filled as their boundaries say.
std::vector<double> algebraic_values(const EquationsSpec& spec, int a, const std::vector<std::vector<double>>& species, double t);

// The output fields: the species, then the algebraic species.
std::vector<std::string> output_fields(const eq::TextModel& text);

}  // namespace pdex
