#pragma once
// How a run's forward Euler steps (a family's plan: models/ard/ard_euler_plan.hpp, a text model's
// equations_plan.hpp): its schedule and steps a pass, as a run's summary reports them ("schedule").
#include <string>

namespace pdex {

struct EulerPlan {
  enum Kind { cells, strips, tiles, stream, rows, columns } kind = cells;
  int steps_per_pass = 1;

  std::string name() const {
    switch (kind) {
      case strips: return "one pass a step, by strips";
      case tiles: return "temporally blocked tiles, " + std::to_string(steps_per_pass) + " steps a pass";
      case stream: return "register streaming, " + std::to_string(steps_per_pass) + " steps a pass";
      case rows: return "cache-blocked rows, " + std::to_string(steps_per_pass) + " steps a pass";
      case columns: return "one pass a step, by columns";
      default: return "one pass a step, by cells";
    }
  }
};

}  // namespace pdex
