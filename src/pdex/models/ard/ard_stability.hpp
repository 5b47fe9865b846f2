#pragma once
// Largest stable forward-Euler step of an advection-reaction-diffusion run (diffusion number and
// advection CFL; reaction stiffness is the user's to judge), checked before a run starts.
#include "pdex/models/ard/ard_spec.hpp"
#include "pdex/time/stable_step.hpp"

namespace pdex {

StableStep ard_stable_step(const ArdSpec& spec);

}  // namespace pdex
