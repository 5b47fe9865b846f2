#include "pdex/models/equations/text_stability.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <string>

#include "pdex/core/format.hpp"
#include "pdex/models/equations/equations_fields.hpp"
#include "pdex/models/equations/interpreter.hpp"

namespace pdex {

namespace {

using Complex = std::complex<double>;
constexpr double unlimited = std::numeric_limits<double>::infinity();

// Cells spread evenly over n, the first and the last included.
std::vector<int> spread(int n, int count) {
  std::vector<int> v;
  for (int k = 0; k < count; ++k) v.push_back(count == 1 ? 0 : int(std::lround(double(k) * (n - 1) / (count - 1))));
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

// Forward Euler's largest step with |1 + dt l| <= 1. None where Re l >= 0: that mode grows in the
// equations themselves, whatever the step.
double euler_step(Complex l) { return l.real() < 0 ? -2 * l.real() / std::norm(l) : unlimited; }

// The same for every eigenvalue in the disc of centre c and radius r (Gershgorin's): the largest dt with
// |1 + dt c| + dt r <= 1, by bisection (the left side is convex in dt, below 1 just after 0).
double disc_step(Complex c, double r) {
  if (c.real() + r >= 0) return unlimited;
  double lo = 0, hi = 2 / (std::abs(c) + r);
  for (int k = 0; k < 60; ++k) {
    const double mid = (lo + hi) / 2;
    (std::abs(1.0 + mid * c) + mid * r <= 1 ? lo : hi) = mid;
  }
  return lo;
}

// The largest stable step for the n x n matrix m (the Jacobian on one Fourier mode): its eigenvalues
// for one or two species, Gershgorin's discs for more.
double mode_step(const Complex m[max_components][max_components], int n) {
  if (n == 1) return euler_step(m[0][0]);
  if (n == 2) {
    const Complex half = (m[0][0] + m[1][1]) / 2.0, root = std::sqrt(half * half - (m[0][0] * m[1][1] - m[0][1] * m[1][0]));
    return std::min(euler_step(half + root), euler_step(half - root));
  }
  double dt = unlimited;
  for (int c = 0; c < n; ++c) {
    double r = 0;
    for (int s = 0; s < n; ++s)
      if (s != c) r += std::abs(m[c][s]);
    dt = std::min(dt, disc_step(m[c][c], r));
  }
  return dt;
}

// The wave numbers per cell of the modes looked at, along each axis: 0, pi/2, pi.
constexpr double wave_numbers[3] = {0.0, 1.5707963267948966, 3.141592653589793};
constexpr int max_modes = 27;  // every combination along x, y and z (9 on a 2D grid)

}  // namespace

StableStep text_stable_step(const EquationsSpec& s, double theta) {
  const int n = int(s.text.species.size()), reach = equations_detail::ghost_of(s);
  const bool volume = s.grid.is_3d();
  const int modes = volume ? 27 : 9, zreach = volume ? reach : 0;
  Field<double> u = equations_detail::initial_state<double>(s, MemorySpace::host);
  const Field<double> params = equations_detail::parameter_field<double>(s, MemorySpace::host);
  eq::StageArgs<double> a = eq::reading(u.cview(), params.cview(), s.grid);
  a.theta = std::min(1.0, 2 * theta);
  a.constants = equations_detail::constants_of<double>(s);
  const eq::TextCell<double> cell(a);
  const eq::Interpreter<double> rhs(s.program);
  const FieldView<double> w = u.view();
  double least = unlimited, f0[max_components], f1[max_components];
  int at_i = 0, at_j = 0, at_k = 0;
  for (const int k : spread(s.grid.nz, volume ? 6 : 1))
    for (const int j : spread(s.grid.ny, 16))
      for (const int i : spread(s.grid.nx, 16)) {
        rhs(cell, i, j, k, f0);
        Complex m[max_modes][max_components][max_components] = {};  // the Jacobian on each mode (kx, ky, kz)
        for (int r = 0; r < n; ++r)
          for (int dk = -zreach; dk <= zreach; ++dk)
            for (int dj = -reach; dj <= reach; ++dj)
              for (int di = -reach; di <= reach; ++di) {
                double& x = w(r, i + di, j + dj, k + dk);
                const double saved = x, delta = 1e-7 * std::max(1.0, std::abs(x));
                x = saved + delta;
                rhs(cell, i, j, k, f1);
                x = saved;
                for (int mode = 0; mode < modes; ++mode) {
                  const double angle =
                      wave_numbers[mode % 3] * di + wave_numbers[mode / 3 % 3] * dj + wave_numbers[mode / 9] * dk;
                  const Complex phase = std::polar(1.0, angle);
                  for (int c = 0; c < n; ++c) m[mode][c][r] += phase * ((f1[c] - f0[c]) / delta);
                }
              }
        for (int mode = 0; mode < modes; ++mode)
          if (const double dt = mode_step(m[mode], n); dt < least) least = dt, at_i = i, at_j = j, at_k = k;
      }
  if (least == unlimited) return {unlimited, "the right-hand sides do not limit the step at the initial state"};
  const std::string where = s.grid.extents().where(s.grid.extents().index(at_i, at_j, at_k));
  return {least, cat({"estimated by a frozen-coefficient von Neumann analysis of the equations' Jacobian at the initial "
                      "state, smallest at ", where})};
}

}  // namespace pdex
