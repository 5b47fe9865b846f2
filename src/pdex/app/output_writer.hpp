#pragma once
// Writes a run's fields as <field>_<step>.png / .npy under the output folder.
#include <cstdint>
#include <string>
#include <vector>

#include "pdex/app/run_config.hpp"
#include "pdex/time/stepper.hpp"

namespace pdex {

class OutputWriter {
 public:
  // Creates the output folder; throws Error naming it when that fails.
  OutputWriter(const RunConfig& rc);
  // Writes every requested field and format for `step`; returns the files written.
  std::vector<std::string> write(Stepper& stepper, int64_t step);
  const std::string& dir() const { return dir_; }

 private:
  const RunConfig& rc_;
  std::string dir_;
  int digits_;
};

}  // namespace pdex
