#pragma once
// A configuration file read, validated and resolved into everything a run needs (docs/config.md).
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pdex/app/curvature_config.hpp"
#include "pdex/app/mol_config.hpp"
#include "pdex/models/chemotaxis/chemotaxis_spec.hpp"
#include "pdex/core/executor.hpp"
#include "pdex/core/precision.hpp"
#include "pdex/models/ard/ard_spec.hpp"
#include "pdex/models/scalar/scalar_spec.hpp"
#include "pdex/models/wave/wave_spec.hpp"

namespace pdex {

struct OutputConfig {
  std::string dir;
  int64_t every = 0;  // write every `every` steps (0: only the initial and final states)
  std::vector<std::string> formats{"png"};
  std::vector<std::string> fields;  // empty: all
  std::string colormap = "viridis";
  bool auto_range = true;
  double range_min = 0, range_max = 1;
  int scale = 1;                    // PNG pixels per cell
  double relief = 0;                // > 0: PNGs shade the field as a height field (io/shading.hpp)
};

struct RunConfig {
  std::string file;
  std::string model;
  ArdSpec spec;                    // the reaction-diffusion models; grid, bc and dt of every model
  bool scalar = false;             // heat, poisson, laplace: one field, `scalar_spec`
  ScalarModelSpec scalar_spec;
  std::vector<std::string> field_names{"u", "v"};
  std::optional<WaveModelSpec> wave;        // model.name = wave (wave_config.hpp)
  std::optional<CurvatureSpec> curvature;    // model.name = mean_curvature | willmore (curvature_config.hpp)
  std::optional<MolTime> mol;                // time.scheme = merson | rk4, and every curvature run (mol_config.hpp)
  std::optional<ChemotaxisSpec> chemotaxis;  // model.name = chemotaxis_stokes | keller_segel (chemotaxis_config.hpp)
  std::string scheme = "euler";
  int64_t steps = 0;
  bool force = false;      // run even when dt exceeds the stable estimate
  int64_t check_every = 0;  // NaN/Inf guard interval in steps
  OutputConfig output;
  Backend backend = Backend::openmp;
  Precision precision = Precision::f32;
  bool progress = true;
  nlohmann::json input;     // the file as read, after --set overrides
  nlohmann::json resolved;  // every value the run uses, defaults included (summary.json's "config")
};

struct CliOverrides {
  std::vector<std::string> sets;  // --set key=value
  std::string backend, precision, out_dir;
};

class ConfigReader;
// Reads time.dt, time.steps | time.t_end, time.force and time.check_every into rc.
void read_time_steps(ConfigReader& cfg, RunConfig& rc);

// Reads and validates `file`; throws InputError naming the file and key for any problem.
RunConfig load_run_config(const std::string& file, const CliOverrides& cli);

}  // namespace pdex
