#pragma once
// Parameter ensembles (`pdex sweep`, [ensemble] in a file, pdex.sweep in Python): every combination of
// the given parameter values, run as members stacked in one field and advanced together, one launch a
// step (ModelSetup::make_ensemble), each member with the values its run alone would give.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "pdex/app/run_config.hpp"

namespace pdex {

class ConfigReader;

// "F=0.01:0.07:32" (32 values from 0.01 to 0.07, ends included), "F=0.02,0.03" or "F=0.02". Throws
// InputError naming the argument.
SweepParam parse_sweep_param(const std::string& text);

// The file's [ensemble] (NAME = [values] or { from, to, count }) with `params` (--param) replacing or
// adding entries by name. Throws InputError naming the file and key.
std::vector<SweepParam> read_ensemble(ConfigReader& cfg, const std::vector<std::string>& params);

struct SweepResult {
  std::vector<SweepParam> params;
  std::vector<std::vector<double>> member_values;  // [member][parameter]: member m of the combinations in
                                                   // C order, the last parameter varying fastest
  std::vector<std::string> field_names;
  std::vector<std::vector<double>> fields;  // per field, the members' final values [member][y][x]
  int nx = 0, ny = 0;
  int64_t steps = 0;
  double step_seconds = 0, total_seconds = 0;
  std::vector<int> nonfinite_members;  // members with a NaN or Inf somewhere (left as they are)
  nlohmann::json summary;
};

// Runs base.ensemble (base loaded with `cli`; each member is the file loaded again with its values set
// as --set model.params.NAME would). With write_outputs: <dir>/<field>.npy ([member, y, x]), a mosaic
// <dir>/<field>.png for one or two parameters, and <dir>/summary.json. Throws InputError before the run
// for a member that cannot run (unstable dt, a family or scheme without ensembles).
SweepResult run_sweep(const RunConfig& base, const CliOverrides& cli, bool write_outputs = true);

}  // namespace pdex
