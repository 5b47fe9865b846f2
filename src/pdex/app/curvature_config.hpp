#pragma once
// The configuration of a curvature-flow run (model.name = "mean_curvature" | "willmore", seed 003):
// the keys of docs/config.md's "Curvature flows" section. The grid and its boundary are read by
// run_config.cpp as for every model.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "pdex/app/config_reader.hpp"
#include "pdex/models/curvature/curvature_spec.hpp"

namespace pdex {

struct CurvatureRun {
  CurvatureSpec spec;
  double t_end = 0;
  int64_t check_every = 100;         // accepted steps between NaN/Inf checks and progress reports
  std::vector<double> output_times;  // simulated times to write outputs at (t_end is always written)
};

// True when model.name names a curvature flow.
bool is_curvature_model(ConfigReader& cfg);

// Reads [model], [time], [initial] and output.times; throws InputError naming the file and key.
CurvatureRun read_curvature(ConfigReader& cfg, const Grid2& grid, const FieldBoundary& bc, const std::string& base_dir);

// The resolved values of those sections, for summary.json.
nlohmann::json curvature_json(const CurvatureRun& run);

}  // namespace pdex
