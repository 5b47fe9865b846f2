#pragma once
// Chemotaxis models (host-side plain data; docs/models.md "Chemotaxis"):
//   chemotaxis-Stokes, seed 002 eq. (1) in 2D: bacteria n, oxygen c, velocity (u1, u2), pressure P,
//     n_t = lap n - div(n S grad c) - u . grad n,   c_t = lap c - n c - u . grad c,
//     u_t = lap u + grad P + n grad phi,            lap P = -div(n grad phi);
//   Keller-Segel: n_t = lap n - chi div(n grad c) with c_t = lap c + n - c (parabolic-parabolic)
//     or 0 = lap c + n - c (parabolic-elliptic), zero flux on every side.
#include <vector>

#include "pdex/grid/boundary.hpp"
#include "pdex/grid/grid.hpp"
#include "pdex/grid/halo.hpp"
#include "pdex/linalg/solver_settings.hpp"
#include "pdex/models/ard/ard_spec.hpp"

namespace pdex {

enum class ChemotaxisKind { stokes, keller_segel, keller_segel_elliptic };

// The state's components, in this order in one field.
enum ChemotaxisComponent : int { comp_n = 0, comp_c = 1, comp_u1 = 2, comp_u2 = 3 };

struct ChemotaxisSpec {
  ChemotaxisKind kind = ChemotaxisKind::stokes;
  Grid2 grid;
  double dt = 1e-6;
  // Conditions of n, c, u1, u2 (components 0-3). Stokes: Dirichlet (seed 002 sec. 3), u = 0 (no slip);
  // Keller-Segel: zero flux (Neumann) for n and c.
  FieldBoundary bc = FieldBoundary::all(BcKind::dirichlet, 0.0);
  double chi = 1.0;                  // Keller-Segel chemotactic sensitivity
  ScalarSpec s[4] = {{1.0, {}}, {0.0, {}}, {0.0, {}}, {1.0, {}}};  // S = (s[0] s[1]; s[2] s[3]), Stokes
  std::vector<double> phi;           // Stokes: potential on the cells and one ring of ghosts, (ny+2) x (nx+2)
  std::vector<double> n0, c0, u10, u20;  // initial state, row-major [y][x]; u empty: 0
  std::vector<double> sources[4];    // manufactured forcing added to the n, c, u1, u2 equations (empty: none)
  std::vector<double> pressure_source;  // forcing added to the pressure equation's right-hand side (empty: none)
  // The pressure solve (Stokes) or the c solve (parabolic-elliptic). Multigrid reaches 1e-8 in about
  // 10 cycles; a NaN right-hand side (a blown-up state) runs to max_iter before the run's guard sees it.
  SolverSettings solver{.max_iter = 200};
  double growth_warning = 10.0;      // warn when max n exceeds this multiple of its initial maximum
  HaloExchange* halo = nullptr;      // a block of a run over MPI ranks (Keller-Segel): its shared sides' exchange
};

// Cell values extended by one ring of ghosts, each ghost the quadratic through the three cells next to
// it (second order at the faces); (ny+2) x (nx+2), row-major. Needs nx, ny >= 3.
std::vector<double> with_ghost_ring(const std::vector<double>& cells, Extents2 n);

}  // namespace pdex
