#include "pdex/models/ard/ard_stability.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace pdex {

namespace {
// The largest |D| and the smallest D over every species' diffusivity.
std::pair<double, double> diffusivity_range(const ArdSpec& s) {
  double dmax = 0, dmin = std::numeric_limits<double>::infinity();
  for (const std::string& name : diffusivity_names(s)) {
    auto it = s.params.find(name);
    const ScalarSpec d = it == s.params.end() ? ScalarSpec{} : it->second;
    dmax = std::max(dmax, d.max_abs());
    dmin = std::min(dmin, d.min_value());
  }
  return {dmax, dmin};
}

// Largest eigenvalue bound (Gershgorin) of the discrete diffusion operator per unit diffusivity.
double diffusion_eigen_bound(const ArdSpec& s) {
  const double ix2 = 1 / (s.grid.dx * s.grid.dx), iy2 = 1 / (s.grid.dy * s.grid.dy);
  const double iz2 = s.grid.is_3d() ? 1 / (s.grid.dz * s.grid.dz) : 0.0;
  if (!s.anisotropic) return 4 * (ix2 + iy2 + iz2);
  const double plane = 4 * (s.mxx.max_abs() * ix2 + s.myy.max_abs() * iy2) + 4 * s.mxy.max_abs() / (s.grid.dx * s.grid.dy);
  if (!s.grid.is_3d()) return plane;
  const double across = s.mxz.max_abs() / s.grid.dx + s.myz.max_abs() / s.grid.dy;
  return plane + 4 * s.mzz.max_abs() * iz2 + 4 * across / s.grid.dz;
}
}  // namespace

StableStep ard_stable_step(const ArdSpec& s) {
  const auto [dmax, dmin] = diffusivity_range(s);
  // The theta scheme treats diffusion implicitly: only its explicit share (1 - theta) limits dt, and not at
  // all from theta = 1/2 on (A-stability of Crank-Nicolson and backward Euler).
  const double explicit_share = std::max(0.0, 1 - 2 * s.theta);
  const double lambda = dmax * diffusion_eigen_bound(s) * explicit_share;
  const double inf = std::numeric_limits<double>::infinity();
  StableStep diff{lambda > 0 ? 2 / lambda : inf,
                  s.theta >= 0.5 ? "reaction and advection only (diffusion is implicit); the reaction's own limit "
                                   "is not estimated"
                                 : "diffusion number (Dmax = " + std::to_string(dmax) + ")"};
  if (s.advection == Advection::none) return diff;

  const double axm = s.ax.max_abs(), aym = s.ay.max_abs(), azm = s.grid.is_3d() ? s.az.max_abs() : 0.0;
  if (s.advection == Advection::upwind) {
    const double rate = lambda / 2 + axm / s.grid.dx + aym / s.grid.dy + (s.grid.is_3d() ? azm / s.grid.dz : 0.0);
    return {rate > 0 ? 1 / rate : inf, "upwind advection CFL with diffusion (|a|max = " +
                                           std::to_string(std::hypot(axm, aym, azm)) + ")"};
  }
  // Centred differences with forward Euler: von Neumann needs dt <= 2 Dmin / |a|^2 besides the diffusion bound.
  const double a2 = axm * axm + aym * aym + azm * azm;
  if (a2 == 0) return diff;
  if (dmin <= 0)
    return {0, "centred advection is unstable with forward Euler when a species has no diffusion; "
               "set model.advection.scheme = \"upwind\""};
  const double dt_adv = 2 * dmin / a2;
  if (dt_adv < diff.dt_max) return {dt_adv, "centred advection (2 Dmin / |a|^2)"};
  return diff;
}

}  // namespace pdex
