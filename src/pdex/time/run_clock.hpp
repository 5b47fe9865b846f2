#pragma once
// How a run's clock counts: steps of a fixed dt, or simulated time up to t_end (the integrator, e.g.
// Merson's step control, chooses the steps; the stepper is then a MolStepper).
#include <cstdint>
#include <string>
#include <vector>

namespace pdex {

struct RunClock {
  std::string scheme;                // the value of time.scheme, as resolved
  bool simulated_time = false;
  double dt = 0;                     // the step; by simulated time, the first (Merson) or fixed (rk4) one
  int64_t steps = 0;                 // by steps
  double t_end = 0;                  // by simulated time
  double tol = 0;                    // by simulated time: Merson's epsilon
  std::vector<double> output_times;  // by simulated time: when to write outputs (t_end always)
  int64_t check_every = 100;         // steps between NaN/Inf checks and progress reports
  bool force = false;                // run even where dt exceeds the stable step
};

}  // namespace pdex
