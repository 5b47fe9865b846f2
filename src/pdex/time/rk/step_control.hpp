#pragma once
// Step-size control of Runge-Kutta-Merson (seed 003, Algorithm 4.1, steps 3-4) and the record of it
// that summary.json reports. Host-only: the error estimate reaches the host once per step.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace pdex {

struct StepRecord {
  double t;    // time at the end of the accepted step
  double tau;  // its size
};

struct StepStats {
  int64_t accepted = 0;
  int64_t rejected = 0;
  double tau_min = 0, tau_max = 0;
  std::vector<StepRecord> history;  // every accepted step
  void record(double t, double tau) {
    tau_min = accepted == 0 ? tau : std::min(tau_min, tau);
    tau_max = std::max(tau_max, tau);
    ++accepted;
    history.push_back({t, tau});
  }
};

// Algorithm 4.1 step 4: tau := 0.8 tau (eps / e)^(1/5); the caller takes min(tau, T - t) when it uses
// it, so that an output time does not shrink the step after it. Two guards the seed does not need for
// its runs: the result is capped at `cap` (e = 0 on a steady state would give tau = inf), and a
// non-finite e (the trial step overflowed) shrinks tau tenfold.
inline double merson_next_tau(double tau, double e, double eps, double cap) {
  if (!std::isfinite(e)) return tau / 10;
  return e > 0 ? std::min(0.8 * tau * std::pow(eps / e, 0.2), cap) : cap;
}

}  // namespace pdex
