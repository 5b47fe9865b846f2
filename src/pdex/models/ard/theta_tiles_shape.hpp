#pragma once
// Tile shape of the one-launch CUDA theta step (theta_tiles.cuh) and the runs it applies to, visible to
// all translation units (the stepper decides with them).
#include <cstddef>

#include "pdex/grid/boundary.hpp"
#include "pdex/linalg/solver_settings.hpp"
#include "pdex/models/ard/ard_spec.hpp"

namespace pdex {

// A block holds a w x hgt region of the grid in shared memory, inside a ring of cells that no sweep
// writes; it solves for the tx x ty tile at its centre. Each red-black half-sweep leaves the outermost
// valid ring stale, so `sweeps` sweeps need a halo of 2 sweeps + 1 cells for the residual at the tile's
// cells. A thread owns `rows` cells down one column for the whole launch, their right-hand sides and
// values in registers.
template <class T>
struct ThetaTiles {
  static constexpr int sweeps = 6;  // the most sweeps a launch takes (solver.check_every's default)
  static constexpr int halo = 2 * sweeps + 1;
  static constexpr int w = sizeof(T) == 4 ? 96 : 64, hgt = sizeof(T) == 4 ? 72 : 64, rows = 8;
  static constexpr int tx = w - 2 * halo, ty = hgt - 2 * halo;
  static constexpr int pitch = w + 2, cells = pitch * (hgt + 2);  // with the ring
  static_assert(hgt % rows == 0 && rows % 2 == 0 && w % 32 == 0 && pitch % 2 == 0);
  static constexpr int threads = w * (hgt / rows);
  static constexpr std::size_t shared_bytes = 2 * cells * sizeof(T);
};

// The runs the one-launch step serves: periodic on every side with even sizes (so that the red-black
// colouring closes across the wrap), constant isotropic diffusion, and a red-black relaxation tested
// by its residual every check_every <= ThetaTiles::sweeps sweeps (a change test needs every sweep's
// largest change, which the launch does not keep).
template <class T>
bool theta_tiles_apply(const ArdSpec& s) {
  const SolverSettings& v = s.solver;
  bool periodic = true;
  for (const auto& side : s.bc.side)
    for (int c = 0; c < 2; ++c) periodic = periodic && side[c].kind == BcKind::periodic;
  return s.temporal_blocking && periodic && s.grid.nx % 2 == 0 && s.grid.ny % 2 == 0 && !s.anisotropic &&
         !s.params.at("Du").varies() && !s.params.at("Dv").varies() &&
         (v.method == SolverMethod::rbgs || v.method == SolverMethod::sor) && v.change_tol == 0 && v.tol > 0 &&
         v.check_every >= 1 && v.check_every <= ThetaTiles<T>::sweeps;
}

}  // namespace pdex
