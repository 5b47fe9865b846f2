#pragma once
// The advection-reaction-diffusion family's own keys (docs/config.md): [model.advection], a velocity
// that is constant, a preset or given per cell, and [model.diffusion], isotropic or a tensor given per
// component, from one .npy, or aligned with the flow.
#include "pdex/config/field_specs.hpp"
#include "pdex/models/ard/ard_spec.hpp"

namespace pdex {

void read_advection(SpecContext& ctx, ArdSpec& spec);
void read_diffusion(SpecContext& ctx, ArdSpec& spec);

}  // namespace pdex
