#pragma once
// A Simulation owns the clock and the output schedule for every model family: it builds the family's
// Stepper, advances it in chunks (schedule.hpp), writes outputs, guards against NaN/Inf, reports
// progress and warnings, and records everything in summary.json.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "pdex/app/checkpoint.hpp"
#include "pdex/app/run_config.hpp"
#include "pdex/time/stepper.hpp"

namespace pdex {

struct RunResult {
  int64_t steps = 0;
  double step_seconds = 0;   // wall time spent advancing (outputs and checks excluded)
  double total_seconds = 0;  // set-up to finish
  std::vector<std::string> field_names;
  std::vector<FieldStats> stats;
  std::vector<std::vector<double>> final_values;  // filled when requested
  nlohmann::json summary;
};

struct RunOptions {
  bool write_outputs = true;
  bool keep_final_values = false;
  RestartFrom restart;  // a checkpoint to continue (dir empty: start from the configuration's state)
};

// No files written; the final values kept (pdex compare, tests).
inline RunOptions final_values_only() {
  RunOptions o;
  o.write_outputs = false;
  o.keep_final_values = true;
  return o;
}

// Throws InputError (bad set-up, unstable dt, a checkpoint of another configuration), BackendUnavailable,
// NumericalError (NaN/Inf: the message names the step or time, field and cell; outputs written before it
// and a summary.json with status "failed" remain), Error (an output or checkpoint that could not be
// written: likewise), Interrupted (SIGINT/SIGTERM under an InterruptGuard: a checkpoint and the summary,
// status "interrupted", were written).
RunResult run_simulation(const RunConfig& rc, const RunOptions& options = {});

// Refuses a dt above the model's stable step unless time.force is set; returns summary.json's
// "stability" (null where the scheme has no such rule).
nlohmann::json check_stability(const RunConfig& rc);

// summary.json's head: the configuration, model, scheme, backend, device, precision, grid and dt (and the
// stability check's verdict unless null).
nlohmann::json summary_head(const RunConfig& rc, const nlohmann::json& stability);

// summary.json's "fields": min, max and mean of each; and writing the summary into `dir`.
nlohmann::json stats_json(const std::vector<std::string>& names, const std::vector<FieldStats>& stats);
void write_summary(const std::string& dir, const nlohmann::json& summary);

}  // namespace pdex
