#pragma once
// The stable step of a text model, estimated before a run from its right-hand sides at the initial state.
#include "pdex/models/equations/equations_spec.hpp"
#include "pdex/time/stable_step.hpp"

namespace pdex {

// Forward Euler's largest stable step by Gershgorin's bound on the spectrum of the Jacobian of the
// discrete right-hand sides, 2 / max over rows of sum |d f_s(cell) / d u_r(cell')|, the derivatives by
// differences at up to 16 x 16 cells spread over the grid, at the initial state. Exact for linear
// diffusion (the built-in models' bound); an estimate for everything else, which changes as the state
// does. theta > 0: the share min(1, 2 theta) of the implicit terms is taken out (what the theta scheme
// leaves explicit for stability).
StableStep text_stable_step(const EquationsSpec& spec, double theta);

}  // namespace pdex
