#pragma once
// The [time] keys and output.times of a method-of-lines run (time.scheme = "merson" | "rk4", seed 003):
// simulated time is the clock, Merson chooses the steps, outputs are written at given times. Read the
// same way for the curvature flows and the reaction-diffusion models (docs/config.md).
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "pdex/app/config_reader.hpp"

namespace pdex {

struct MolTime {
  std::string scheme = "merson";     // or "rk4"
  double t_end = 0;
  double tol = 1e-6;                 // Merson's epsilon (Algorithm 4.1)
  double dt = 0;                     // Merson's first step, or rk4's fixed step
  int64_t check_every = 100;         // accepted steps between NaN/Inf checks and progress reports
  std::vector<double> output_times;  // simulated times to write outputs at (t_end is always written)
};

// True when time.scheme names a method-of-lines scheme.
bool is_mol_scheme(ConfigReader& cfg);

// Reads time.scheme, t_end, tol, dt (default `default_dt`; 0: none, the caller picks one; rk4 requires
// it), check_every and output.times; throws InputError naming the file and key.
MolTime read_mol_time(ConfigReader& cfg, double default_dt);

// The resolved values, for summary.json: {"time": {...}, "output_times": [...]}.
nlohmann::json mol_time_json(const MolTime& m);

}  // namespace pdex
