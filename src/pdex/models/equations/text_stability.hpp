#pragma once
// The stable step of a text model, estimated before a run from its right-hand sides at the initial state.
#include "pdex/models/equations/equations_spec.hpp"
#include "pdex/time/stable_step.hpp"

namespace pdex {

// Forward Euler's largest stable step, |1 + dt lambda| <= 1, by a frozen-coefficient von Neumann
// analysis: at up to 16 x 16 cells spread over the grid, the Jacobian of the discrete right-hand sides
// at the initial state (by differences) on the Fourier modes of wave numbers 0, pi/2 and pi per cell
// along x and y, an n x n matrix whose eigenvalues (one or two species) or Gershgorin discs (more) give
// the step. Modes that grow in the equations themselves (Re lambda >= 0) set no limit. Exact for linear
// diffusion with linear kinetics (the checkerboard and the uniform mode are the extremes); an estimate
// for everything else, which changes as the state does. theta > 0: the share min(1, 2 theta) of the
// implicit terms is taken out (what the theta scheme leaves explicit for stability).
StableStep text_stable_step(const EquationsSpec& spec, double theta);

}  // namespace pdex
