#pragma once
// Parameter ensembles (`pdex sweep`, [ensemble] in a file, pdex.sweep in Python): every combination of
// the given parameter values, run as members stacked in one field and advanced together, one launch a
// step (ModelSetup::make_ensemble), or, where a family or scheme stacks none, one member after another;
// each member with the values its run alone would give.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
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
  std::vector<std::vector<double>> fields;  // per field, the members' final values [member]([z])[y][x]
  int nx = 0, ny = 0, nz = 1;
  std::string in_turn;                      // why the members ran one after another; empty: stacked
  std::vector<int64_t> member_steps;        // steps each member took (all alike when stacked)
  double step_seconds = 0, total_seconds = 0;
  std::vector<int> nonfinite_members;  // members with a NaN or Inf somewhere (left as they are, or NaN
                                       // where a member run in turn stopped)
  std::map<int, std::string> member_errors;  // why members run in turn stopped (NumericalError)
  nlohmann::json summary;

  std::size_t cells() const { return std::size_t(nx) * std::size_t(ny) * std::size_t(nz); }
  // The cell updates of all members' steps.
  double cell_updates() const;
};

// Runs base.ensemble (base loaded with `cli`; each member is the file loaded again with its values set
// as --set model.params.NAME would): stacked in one field where the family can (ModelSetup::
// make_ensemble), else one member after another, each exactly its run alone. With write_outputs:
// <dir>/<field>.npy ([member, y, x], or [member, z, y, x] on a 3D grid), a mosaic <dir>/<field>.png (one
// per section in 3D, <field>_<tag>.png) for one or two parameters, and <dir>/summary.json. Throws
// InputError before the run for a member that cannot run (unstable dt, members that cannot stack).
SweepResult run_sweep(const RunConfig& base, const CliOverrides& cli, bool write_outputs = true);

}  // namespace pdex
