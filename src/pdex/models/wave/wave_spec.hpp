#pragma once
// The wave equation u_tt = c^2 lap u (seed 001 eq. 44-3: a membrane or shallow water surface; on a 3D grid,
// sound in a room), with reflecting (Neumann) or fixed (Dirichlet) sides. Host-side plain data.
#include <array>
#include <cmath>
#include <cstdint>
#include <string_view>

#include "pdex/grid/boundary.hpp"
#include "pdex/grid/cell_source.hpp"
#include "pdex/grid/grid.hpp"
#include "pdex/grid/halo.hpp"
#include "pdex/linalg/solver_settings.hpp"

namespace pdex {

// explicit: central differences in space and time (eqs. 44-5, 44-6), stable for c dt sqrt(1/dx^2 + 1/dy^2) <= 1
// (+ 1/dz^2 on a 3D grid).
// crank_nicolson: the trapezoidal rule on (u_t = w, w_t = c^2 lap u) (eq. 44-7), one SPD solve per step (CG).
enum class WaveScheme { explicit_central, crank_nicolson };

// Drops falling into the pool (the seed's "implicit water surface"): every `every` steps a Gaussian dent
// of depth `amplitude` and radius `radius` (in cells) at a random cell.
struct WaveDrops {
  int64_t every = 0;  // 0: no drops
  double radius = 3, amplitude = 1;
  unsigned seed = 1;
};

struct WaveModelSpec {
  Grid2 grid;
  FieldBoundary bc = FieldBoundary::all(BcKind::neumann);
  double c = 1.0;
  double dt = 0.1;
  WaveScheme scheme = WaveScheme::explicit_central;
  CellSource u0, v0 = 0.0;     // displacement and velocity at t = 0; v0 0: at rest
  WaveDrops drops;
  SolverSettings solver;       // crank_nicolson
  // A block of a run over MPI ranks (models/family.hpp): the exchange that fills its shared sides' ghosts,
  // the whole grid's extents and the block's first cell in it (drops fall on the whole grid).
  HaloExchange* halo = nullptr;
  Extents2 whole{};  // zero: the grid is whole
  std::array<int, 3> first{0, 0, 0};
};

// The explicit scheme's CFL limit on dt.
inline double wave_max_dt(const WaveModelSpec& m) {
  const double z = m.grid.is_3d() ? 1 / (m.grid.dz * m.grid.dz) : 0.0;
  return 1.0 / (m.c * std::sqrt(1 / (m.grid.dx * m.grid.dx) + 1 / (m.grid.dy * m.grid.dy) + z));
}

}  // namespace pdex
