#pragma once
// Shared pieces of the tests that drive the advection-reaction-diffusion engine through its run-time
// interface, make_ard_stepper(spec, Backend, Precision): each test is written once and instantiated
// for every backend and precision; CUDA cases skip with a message when no device is present.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <numbers>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "pdex/core/executor.hpp"
#include "pdex/core/precision.hpp"
#include "pdex/models/ard/ard_catalog.hpp"
#include "pdex/models/ard/ard_spec.hpp"
#include "pdex/models/ard/ard_stability.hpp"
#include "pdex/models/ard/ard_stepper.hpp"

namespace pdex::test {

struct BackendCase {
  Backend backend;
  Precision precision;
};

inline std::vector<BackendCase> backend_cases(std::vector<Backend> backends = {Backend::serial, Backend::openmp,
                                                                               Backend::cuda},
                                              std::vector<Precision> precisions = {Precision::f64,
                                                                                   Precision::f32}) {
  std::vector<BackendCase> out;
  for (Backend b : backends)
    for (Precision p : precisions) out.push_back({b, p});
  return out;
}

inline std::string backend_case_name(const ::testing::TestParamInfo<BackendCase>& info) {
  return std::string(backend_name(info.param.backend)) + "_" + std::string(precision_name(info.param.precision));
}

inline void PrintTo(const BackendCase& c, std::ostream* os) {
  *os << backend_name(c.backend) << "/" << precision_name(c.precision);
}

// Skips (with the reason) on a backend this build or machine lacks.
class ArdBackendTest : public ::testing::TestWithParam<BackendCase> {
 protected:
  void SetUp() override {
    if (!backend_available(GetParam().backend))
      GTEST_SKIP() << "no CUDA device: " << backend_unavailable_reason(GetParam().backend);
  }
  bool f32() const { return GetParam().precision == Precision::f32; }
  // A tolerance per precision: the f32 one is stated next to each use.
  double tol(double f64_tol, double f32_tol) const { return f32() ? f32_tol : f64_tol; }
  std::unique_ptr<Stepper> make(const ArdSpec& spec) const {
    return make_ard_stepper(spec, GetParam().backend, GetParam().precision);
  }
};

// The catalog's parameter defaults, as `pdex run` resolves them when a configuration names none.
inline std::map<std::string, ScalarSpec> catalog_params(const std::string& reaction) {
  std::map<std::string, ScalarSpec> out;
  for (const ParamInfo& p : ard_reaction(reaction).params) out[p.name] = ScalarSpec{p.default_value, {}};
  return out;
}

inline ArdSpec catalog_spec(const std::string& reaction, const Grid2& grid) {
  ArdSpec s;
  s.reaction = reaction;
  s.params = catalog_params(reaction);
  s.clamp = ard_reaction(reaction).clamp;
  s.dt = ard_reaction(reaction).dt;
  s.grid = grid;
  s.species = ard_reaction(reaction).species;
  s.initial.clear();
  for (double x : ard_reaction(reaction).initial) s.initial.emplace_back(x);
  return s;
}

// Pure diffusion: Turing kinetics with s = 0 make f = g = 0 exactly (0 times a finite number).
inline ArdSpec inert_diffusion_spec(const Grid2& grid, double Du, double Dv, const FieldBoundary& bc) {
  ArdSpec s = catalog_spec("turing", grid);
  s.params["s"] = ScalarSpec{0.0, {}};
  s.params["Du"] = ScalarSpec{Du, {}};
  s.params["Dv"] = ScalarSpec{Dv, {}};
  s.clamp = false;  // the tests below use signed data
  s.bc = bc;
  return s;
}

// Cell-centred samples f(x, y) of a grid, row-major [y][x].
template <class F>
std::vector<double> sample(const Grid2& g, F f) {
  std::vector<double> out(std::size_t(g.cells()));
  for (int j = 0; j < g.ny; ++j)
    for (int i = 0; i < g.nx; ++i) out[std::size_t(j) * g.nx + i] = f(g.x(i), g.y(j));
  return out;
}

// Cell-centred samples f(x, y, z) of a 3D grid, row-major [z][y][x].
template <class F>
std::vector<double> sample3(const Grid2& g, F f) {
  std::vector<double> out(std::size_t(g.cells()));
  for_each_cell(g.extents(), [&](int i, int j, int k) { out[std::size_t(g.extents().index(i, j, k))] = f(g.x(i), g.y(j), g.z(k)); });
  return out;
}

// Species c's initial cells.
inline std::vector<double> initial_of(const ArdSpec& s, std::size_t c) { return s.initial[c].cells(s.grid.cells()); }

inline std::vector<double> uniform_noise(std::size_t n, double mean, double amplitude, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> d(-amplitude, amplitude);
  std::vector<double> out(n);
  for (double& x : out) x = mean + d(rng);
  return out;
}

inline double total(const std::vector<double>& a) {
  double s = 0;
  for (double x : a) s += x;
  return s;
}

inline double mean(const std::vector<double>& a) { return total(a) / double(a.size()); }

inline double variance(const std::vector<double>& a) {
  const double m = mean(a);
  double s = 0;
  for (double x : a) s += (x - m) * (x - m);
  return s / double(a.size());
}

inline double max_abs_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double m = 0;
  for (std::size_t k = 0; k < a.size(); ++k) m = std::max(m, std::abs(a[k] - b[k]));
  return m;
}

inline double max_abs(const std::vector<double>& a) {
  double m = 0;
  for (double x : a) m = std::max(m, std::abs(x));
  return m;
}

// ||a - b||_2 / ||b||_2
inline double rel_l2_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double num = 0, den = 0;
  for (std::size_t k = 0; k < a.size(); ++k) {
    num += (a[k] - b[k]) * (a[k] - b[k]);
    den += b[k] * b[k];
  }
  return std::sqrt(num / den);
}

// A smooth, symmetric positive definite tensor field with a non-zero off-diagonal everywhere near the
// sides (mxx myy - mxy^2 >= 0.25 - 0.16 > 0), and a diffusivity that varies per cell; dt for forward Euler.
inline ArdSpec varying_tensor_spec(const Grid2& g, BcKind kind) {
  using std::numbers::pi;
  ArdSpec s = inert_diffusion_spec(g, 0.3, 0.15, FieldBoundary::all(kind));
  s.anisotropic = true;
  const double lx = g.width(), ly = g.height();
  s.mxx.cells = sample(g, [=](double x, double) { return 1 + 0.5 * std::sin(2 * pi * x / lx); });
  s.myy.cells = sample(g, [=](double, double y) { return 1 + 0.5 * std::cos(2 * pi * y / ly); });
  s.mxy.cells = sample(g, [=](double x, double y) { return 0.4 * std::cos(2 * pi * x / lx) * std::cos(pi * y / ly); });
  s.params["Du"].cells = sample(g, [=](double x, double y) { return 0.2 + 0.1 * std::sin(2 * pi * (x / lx + y / ly)); });
  s.initial[0] = uniform_noise(std::size_t(g.cells()), 2.0, 1.0, 21);
  s.initial[1] = sample(g, [](double x, double y) { return x < 6 && y > 30 ? 4.0 : 0.0; });  // mass against two sides
  s.dt = 0.9 * ard_stable_step(s).dt_max;
  return s;
}

// Spec s stepped by backward Euler at 20 times its explicit step, its solves by `method` to `solver_tol`
// (pcg preconditioned by multigrid).
inline ArdSpec backward_euler_far_past_the_limit(ArdSpec s, SolverMethod method, double solver_tol) {
  s.theta = 1.0;
  s.dt *= 20;
  s.solver.method = method;
  s.solver.tol = solver_tol;
  if (method == SolverMethod::pcg) s.solver.preconditioner = Preconditioner::multigrid;
  return s;
}

// Connected components (4-connectivity, wrapping around the periodic sides) of the cells where
// (u > threshold) == above.
inline int components(const std::vector<double>& u, int nx, int ny, double threshold, bool above) {
  std::vector<char> seen(u.size(), 0);
  std::vector<int> stack;
  auto in_set = [&](int k) { return (u[std::size_t(k)] > threshold) == above; };
  int count = 0;
  for (int start = 0; start < nx * ny; ++start) {
    if (seen[std::size_t(start)] || !in_set(start)) continue;
    ++count;
    seen[std::size_t(start)] = 1;
    stack.assign(1, start);
    while (!stack.empty()) {
      const int k = stack.back(), i = k % nx, j = k / nx;
      stack.pop_back();
      const int next[4] = {j * nx + (i + 1) % nx, j * nx + (i + nx - 1) % nx, ((j + 1) % ny) * nx + i,
                           ((j + ny - 1) % ny) * nx + i};
      for (int q : next)
        if (!seen[std::size_t(q)] && in_set(q)) {
          seen[std::size_t(q)] = 1;
          stack.push_back(q);
        }
    }
  }
  return count;
}

// Spots: one phase of u thresholded at its mean splits into 5 to 400 islands, the other is (nearly) one
// connected sea (u is depleted in the spots: the islands lie below the mean).
inline void expect_spot_pattern(const std::vector<double>& u, const Grid2& g) {
  const double m = mean(u);
  const int below = components(u, g.nx, g.ny, m, false), above = components(u, g.nx, g.ny, m, true);
  const int spots = std::max(below, above);
  EXPECT_GE(spots, 5) << below << " regions below the mean, " << above << " above";
  EXPECT_LE(spots, 400) << below << " regions below the mean, " << above << " above";
  EXPECT_LE(std::min(below, above), 3) << "no connected background: not a spot pattern";
}

}  // namespace pdex::test
