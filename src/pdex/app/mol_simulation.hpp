#pragma once
// The run loop of a method-of-lines run (curvature flows, and reaction-diffusion with time.scheme =
// "merson" | "rk4"): the clock is simulated time (Merson chooses the steps), outputs are written at
// output.times, and summary.json records the steps, the rejected steps and the step sizes.
#include "pdex/app/simulation.hpp"

namespace pdex {

RunResult run_mol_simulation(const RunConfig& rc, const RunOptions& options);

}  // namespace pdex
