#pragma once
// Builds the engine for an advection-reaction-diffusion run on a backend and precision chosen at run time.
#include <memory>
#include <vector>

#include "pdex/core/executor.hpp"
#include "pdex/core/precision.hpp"
#include "pdex/models/ard/ard_spec.hpp"
#include "pdex/time/stepper.hpp"

namespace pdex {

// The stepper of `spec`'s scheme: forward Euler, theta, or (spec.mol_scheme) a MolStepper. Throws
// BackendUnavailable for a backend this build or machine lacks.
std::unique_ptr<Stepper> make_ard_stepper(const ArdSpec& spec, Backend backend, Precision precision);

// The spec of an ensemble: `members` (specs that differ in parameter values at most) stacked in one
// field (grid/members.hpp), for forward Euler. Throws InputError naming what two members differ in.
ArdSpec stack_members(const std::vector<const ArdSpec*>& members);

// One per executor, each compiled in its own translation unit (the CUDA one by nvcc).
template <class Exec>
std::unique_ptr<Stepper> make_ard_stepper_on(const Exec& ex, const ArdSpec& spec, Precision precision);

}  // namespace pdex
