#pragma once
// What `pdex list` shows and the configuration layer validates against: every two-species model,
// its equations, its parameters with defaults and units, and its defaults for the rest of a run.
#include <string>
#include <vector>

namespace pdex {

struct ParamInfo {
  std::string name;
  double default_value;
  std::string meaning;
};

struct ReactionInfo {
  std::string name;   // the value of model.name
  std::string title;
  std::string equations;  // f and g as text
  std::vector<ParamInfo> params;  // reaction parameters, then Du and Dv
  bool clamp;             // default for model.clamp
  double u0, v0;          // default uniform initial state
  double dt;              // a suggested step for unit spacing
};

const std::vector<ReactionInfo>& ard_catalog();
// Throws InputError listing the known names when `name` is not one.
const ReactionInfo& ard_reaction(const std::string& name);

}  // namespace pdex
