#pragma once
// A run that may be changed while it goes on, for the surfaces that steer one (the explorer; the
// Python package). A change of any configuration key rebuilds the stepper from the file with every
// change so far applied, as --set would, and carries the stepped fields and the time over; a change the
// configuration refuses leaves the run as it was. The state can be saved as a configuration that
// `pdex run` goes on from.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "pdex/app/run_config.hpp"
#include "pdex/time/stepper.hpp"

namespace pdex {

class Session {
 public:
  // Loads the configuration as `pdex run` does (stability check included); throws InputError.
  Session(std::string file, CliOverrides cli);

  // Replaces the changes made so far by `changes` (key -> TOML value), all or none: throws InputError
  // for one the configuration refuses, or that would change the grid's size.
  void set_changes(const std::map<std::string, std::string>& changes);
  const std::map<std::string, std::string>& changes() const { return changes_; }

  // `steps` steps, without checks (a NumericalError of a linear solve passes through).
  void advance(int64_t steps);
  // To simulated time t: a whole number of steps of dt, or, where the integrator chooses its steps
  // (Merson), landing on t. Throws InputError for a t before now or between two fixed steps.
  void advance_to(double t);
  // Back to the initial state of the configuration as changed, at step and time 0.
  void reset();
  // After stepper().restore(): the step and time of the state that came back.
  void rewind(int64_t step, double t);

  Stepper& stepper() { return *stepper_; }
  const Stepper& stepper() const { return *stepper_; }
  const RunConfig& config() const { return rc_; }
  const std::string& file() const { return file_; }
  int64_t step() const { return step_; }
  double time() const { return t_; }

  // Writes dir/config.toml (the file, every change, the stepped fields as initial .npy files, the
  // backend and precision) and dir/<field>.npy; returns their paths, the configuration first.
  std::vector<std::string> save_config(const std::string& dir, const std::string& saved_by);
  // summary.json's head with the steps, time, fields' statistics and the changes.
  nlohmann::json summary();

 private:
  std::string file_;
  CliOverrides cli_;
  std::map<std::string, std::string> changes_;
  RunConfig rc_;
  std::unique_ptr<Stepper> stepper_;
  std::vector<std::vector<double>> initial_;  // the settable fields at step 0
  int64_t step_ = 0;
  double t_ = 0;
};

}  // namespace pdex
