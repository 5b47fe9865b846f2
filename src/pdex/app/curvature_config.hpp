#pragma once
// The configuration of a curvature-flow run (model.name = "mean_curvature" | "willmore", seed 003):
// the keys of docs/config.md's "Curvature flows" section. The grid and its boundary are read by
// run_config.cpp as for every model, the clock by mol_config.cpp.
#include <nlohmann/json.hpp>

#include <string>

#include "pdex/app/config_reader.hpp"
#include "pdex/app/mol_config.hpp"
#include "pdex/models/curvature/curvature_spec.hpp"

namespace pdex {

// True when model.name names a curvature flow.
bool is_curvature_model(ConfigReader& cfg);

// Reads [model] and [initial]; the clock, `time`, was read by read_mol_time (mol_config.hpp). Throws
// InputError naming the file and key.
CurvatureSpec read_curvature(ConfigReader& cfg, const Grid2& grid, const FieldBoundary& bc, const std::string& base_dir,
                             const MolTime& time);

// The resolved model and boundary, for summary.json.
nlohmann::json curvature_json(const CurvatureSpec& spec);

}  // namespace pdex
