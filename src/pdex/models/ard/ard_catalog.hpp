#pragma once
// The kinetics of the advection-reaction-diffusion family (ard_family.cpp describes them to
// `pdex list` and the configuration reader): equations, parameters with defaults, units and slider
// ranges, and defaults for the rest of a run.
#include <string>
#include <vector>

#include "pdex/models/param_desc.hpp"

namespace pdex {

using ParamInfo = ParamDesc;

struct ReactionInfo {
  std::string name;   // the value of model.name
  std::string title;
  std::string equations;  // the kinetics as text
  std::vector<ParamInfo> params;  // reaction parameters, then the diffusivities "D" + species
  bool clamp;             // default for model.clamp
  std::vector<double> initial;  // default uniform initial state, per species
  double dt;              // a suggested step for unit spacing
  std::vector<std::string> species{"u", "v"};
  // The model as equations, one per species (model.name = "equations", model.preset = name): the same
  // right-hand sides, diffusion included, that the built-in kernels compute.
  std::vector<std::string> text = {};
};

const std::vector<ReactionInfo>& ard_catalog();
// Throws InputError listing the known names when `name` is not one.
const ReactionInfo& ard_reaction(const std::string& name);

}  // namespace pdex
