#pragma once
// Largest stable forward-Euler step of an advection-reaction-diffusion run (diffusion number and
// advection CFL; reaction stiffness is the user's to judge), checked before a run starts.
#include <string>

#include "pdex/models/ard/ard_spec.hpp"

namespace pdex {

struct StableStep {
  double dt_max;       // 0 when no step is stable (centred advection without diffusion)
  std::string reason;  // which bound limits it, in words
};

StableStep ard_stable_step(const ArdSpec& spec);

}  // namespace pdex
