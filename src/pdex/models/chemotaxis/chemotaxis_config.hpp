#pragma once
// The configuration of a chemotaxis run (model.name = "chemotaxis_stokes" | "keller_segel"): the keys of
// docs/config.md's "Chemotaxis" section. The grid's extents are read as for every model; its spacing
// defaults to the unit square ([0, 1]^2, seed 002 sec. 3).
#include <nlohmann/json.hpp>

#include <string>

#include "pdex/config/config_reader.hpp"
#include "pdex/core/precision.hpp"
#include "pdex/models/chemotaxis/chemotaxis_spec.hpp"

namespace pdex {

// Reads [model], [initial] and [solver] (time.dt is the caller's; solver.tol defaults to 1e-8, 1e-5 in
// f32); throws InputError naming file and key.
ChemotaxisSpec read_chemotaxis(ConfigReader& cfg, Grid2 grid, const std::string& base_dir, Precision precision);

// Seed 002's Fig. 1 problem (every default above) on n x n cells of the unit square; dt left to the caller.
ChemotaxisSpec seed002_spec(int n, Precision precision);

// The resolved model section, for summary.json.
nlohmann::json chemotaxis_json(const ChemotaxisSpec& spec);

}  // namespace pdex
