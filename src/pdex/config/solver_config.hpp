#pragma once
// The [solver] section of a configuration (docs/config.md), shared by every model with linear solves.
#include <nlohmann/json.hpp>

#include "pdex/config/config_reader.hpp"
#include "pdex/linalg/solver_settings.hpp"

namespace pdex {

// Reads [solver] over `defaults`; throws InputError naming the file and key.
SolverSettings read_solver(ConfigReader& cfg, SolverSettings defaults);
nlohmann::json solver_json(const SolverSettings& s);

}  // namespace pdex
