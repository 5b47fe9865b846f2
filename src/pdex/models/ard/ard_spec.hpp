#pragma once
// A fully resolved advection-reaction-diffusion run, as the configuration layer hands it to the engine.
// Host-side plain data; the engine turns it into device fields and kernel structs. Species c is named
// species[c], starts from initial[c] and diffuses with the parameter "D" + species[c] (Du, Dv, ...).
#include <map>
#include <string>
#include <vector>

#include "pdex/grid/boundary.hpp"
#include "pdex/grid/cell_source.hpp"
#include "pdex/grid/grid.hpp"
#include "pdex/grid/halo.hpp"
#include "pdex/grid/members.hpp"
#include "pdex/grid/scalar_spec.hpp"
#include "pdex/linalg/solver_settings.hpp"
#include "pdex/models/ard/ard_rhs.hpp"

namespace pdex {

constexpr int ard_ghost_width = 1;  // all stencils here reach one cell (corners included)

struct ArdSpec {
  std::string reaction;                      // a name from ard_catalog()
  std::vector<std::string> species{"u", "v"};  // the reaction's, in its order
  std::map<std::string, ScalarSpec> params;  // the reaction's parameters and the diffusivities
  Advection advection = Advection::none;
  ScalarSpec ax, ay, az;                      // velocity components (az: 3D grids)
  bool anisotropic = false;
  ScalarSpec mxx, mxy, myy;                   // diffusion tensor shape M (sigma = D M)
  ScalarSpec mxz, myz, mzz{1.0, {}};          // M's entries across the planes (3D grids)
  bool clamp = true;
  FieldBoundary bc = FieldBoundary::all(BcKind::periodic);
  Grid2 grid;
  std::vector<CellSource> initial = std::vector<CellSource>(2);  // per species
  double dt = 1.0;
  double theta = 0.0;      // 0: forward Euler; > 0: the theta scheme, seed 000 eqs. (11)-(14)
  std::string mol_scheme;  // "merson" | "rk4": the method of lines (dt is then Merson's first step); "": as theta says
  double tol = 1e-6;       // Merson's epsilon (seed 003, Algorithm 4.1)
  SolverSettings solver;   // the theta scheme's linear solves
  bool temporal_blocking = true;  // let CUDA take several steps per launch where it can (periodic, isotropic)
  int steps_per_pass = 0;         // run.steps_per_pass: forward Euler's steps a pass over memory; 0: chosen (euler_plan)
  // An ensemble: grid, initial and parameter cells are then the members' stacked (forward Euler only).
  Members members;
  bool uniform_members = false;  // every parameter of the ensemble is one number within each member
  // A block of a grid split among MPI ranks (grid/blocks.hpp): fills its shared sides' ghosts after every
  // step or stage (the explicit schemes, ard_takes_blocks); null for a whole grid.
  HaloExchange* halo = nullptr;
};

// The diffusivities' parameter names, species by species: "D" + the species' name.
inline std::vector<std::string> diffusivity_names(const ArdSpec& s) {
  std::vector<std::string> names;
  for (const std::string& c : s.species) names.push_back("D" + c);
  return names;
}

// What the family runs as a block of a grid split among MPI ranks: one run (by any scheme and solver),
// not an ensemble's stacked members.
inline bool ard_takes_blocks(const ArdSpec& s) { return s.members.count <= 1; }
inline constexpr const char* ard_block_limits =
    "over MPI ranks the family steps one run at a time: an ensemble's stacked members run with one process";

// What the family runs on a 3D grid: every diffusion (isotropic, per cell, a tensor's) by every scheme,
// advection by a velocity (ax, ay, az), one run at a time (members_in_turn: a sweep's members one after
// another).
inline bool ard_takes_3d(const ArdSpec& s) { return s.members.count <= 1; }
inline constexpr const char* ard_3d_limits =
    "on 3D grids (grid.nz > 1) the family steps one run at a time: a sweep's members run one after another";

}  // namespace pdex
