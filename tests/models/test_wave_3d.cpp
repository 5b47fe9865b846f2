// The wave equation on 3D grids: a standing wave against its analytic solution converges at second
// order for both schemes; a wave that is the same in every plane, between reflecting z sides, is the 2D
// run in every plane (bitwise for the explicit scheme: the z part of the Laplacian is exactly 0); the
// explicit scheme's CFL limit counts the z spacing; the backends agree (OpenMP bitwise).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "models/ard_test_support.hpp"
#include "pdex/models/wave/wave_stepper.hpp"

namespace pdex::test {
namespace {

using std::numbers::pi;

// u = sin(pi x) sin(pi y) sin(pi z) cos(sqrt(3) pi c t) in the unit cube, held at 0 on every face.
WaveModelSpec standing_wave(int n, double dt_over_dx, WaveScheme scheme) {
  WaveModelSpec m;
  m.grid = Grid2{n, n, 1.0 / n, 1.0 / n};
  m.grid.nz = n, m.grid.dz = 1.0 / n;
  m.bc = FieldBoundary::all(BcKind::dirichlet);
  m.dt = dt_over_dx / n;
  m.scheme = scheme;
  m.solver.method = SolverMethod::multigrid;
  m.solver.tol = 1e-11;
  m.u0 = sample3(m.grid, [](double x, double y, double z) { return std::sin(pi * x) * std::sin(pi * y) * std::sin(pi * z); });
  return m;
}

class Wave3dTest : public ArdBackendTest {
 protected:
  std::unique_ptr<Stepper> make(const WaveModelSpec& m) const {
    return make_wave_stepper(m, GetParam().backend, GetParam().precision);
  }
  // The largest error at t = 0.75 on an n^3 grid, dt = ratio dx.
  double error(int n, double ratio, WaveScheme scheme) const {
    const WaveModelSpec m = standing_wave(n, ratio, scheme);
    auto s = make(m);
    const int64_t steps = std::llround(0.75 / m.dt);
    s->advance(steps);
    const double factor = std::cos(std::sqrt(3.0) * pi * m.c * double(steps) * m.dt);
    std::vector<double> exact = m.u0.cells(m.grid.cells());
    for (double& v : exact) v *= factor;
    return max_abs_diff(s->values(0), exact);
  }
};

// Observed orders over n = 8, 16, 32 within [1.8, 2.2] (f32: the coarser pair, its finest error near
// the f32 floor of these runs). Crank-Nicolson at about twice the explicit CFL step.
TEST_P(Wave3dTest, StandingWaveConvergesAtSecondOrderByBothSchemes) {
  for (WaveScheme scheme : {WaveScheme::explicit_central, WaveScheme::crank_nicolson}) {
    const double ratio = scheme == WaveScheme::explicit_central ? 0.4 : 1.2;
    std::vector<double> e;
    for (int n : {8, 16, 32}) e.push_back(error(n, ratio, scheme));
    const std::size_t pairs = f32() ? 1 : 2;
    for (std::size_t k = 0; k < pairs; ++k) {
      const double order = std::log2(e[k] / e[k + 1]);
      EXPECT_GE(order, 1.8) << int(scheme) << ": " << e[k] << " -> " << e[k + 1];
      EXPECT_LE(order, 2.2) << int(scheme) << ": " << e[k] << " -> " << e[k + 1];
    }
  }
}

// The 2D standing wave's initial state copied into every plane, with Neumann z faces: each plane then
// holds the 2D run's values.
TEST_P(Wave3dTest, AWaveUniformInZIsTheTwoDimensionalRunInEveryPlane) {
  for (WaveScheme scheme : {WaveScheme::explicit_central, WaveScheme::crank_nicolson}) {
    WaveModelSpec flat = standing_wave(16, 0.4, scheme);
    flat.grid.nz = 1;
    const std::vector<double> plane0 = flat.u0.cells(16 * 16);
    flat.u0 = plane0;
    WaveModelSpec m = flat;
    m.grid.nz = 5, m.grid.dz = 0.1;
    m.bc.side[front][0] = m.bc.side[back][0] = SideBc{BcKind::neumann, 0.0};
    std::vector<double> planes;
    for (int k = 0; k < m.grid.nz; ++k) planes.insert(planes.end(), plane0.begin(), plane0.end());
    m.u0 = planes;
    auto s2 = make(flat), s3 = make(m);
    s2->advance(30);
    s3->advance(30);
    const std::vector<double> u2 = s2->values(0), u3 = s3->values(0);
    for (int k = 0; k < m.grid.nz; ++k) {
      const std::vector<double> plane(u3.begin() + std::ptrdiff_t(k * u2.size()), u3.begin() + std::ptrdiff_t((k + 1) * u2.size()));
      if (scheme == WaveScheme::explicit_central) {
        EXPECT_EQ(plane, u2) << "plane " << k;
      } else {
        EXPECT_LT(max_abs_diff(plane, u2), tol(1e-9, 1e-5)) << "plane " << k;
      }
    }
  }
}

// Explicit: OpenMP equals serial bitwise, CUDA within rounding; Crank-Nicolson within the solver's
// tolerance. Reflecting sides, a box, an uneven start and drops (the z coordinate drawn too).
TEST_P(Wave3dTest, BackendsAgreeWithSerial) {
  for (WaveScheme scheme : {WaveScheme::explicit_central, WaveScheme::crank_nicolson}) {
    WaveModelSpec m = standing_wave(12, 0.4, scheme);
    m.grid.nz = 7;
    m.bc = FieldBoundary::all(BcKind::neumann);
    std::vector<double> u0(std::size_t(m.grid.cells()));
    for (std::size_t k = 0; k < u0.size(); ++k) u0[k] = 0.1 * double(k % 5);
    m.u0 = u0;
    m.drops = WaveDrops{.every = 10, .radius = 2, .amplitude = 0.5, .seed = 3};
    auto serial = make_wave_stepper(m, Backend::serial, GetParam().precision), other = make(m);
    serial->advance(25);
    other->advance(25);
    if (GetParam().backend == Backend::openmp && scheme == WaveScheme::explicit_central) {
      EXPECT_EQ(other->values(0), serial->values(0));
    }
    EXPECT_LT(max_abs_diff(other->values(0), serial->values(0)), tol(1e-9, 1e-4)) << int(scheme);
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, Wave3dTest, ::testing::ValuesIn(backend_cases()), backend_case_name);

// The largest |u| after 600 explicit steps of a noisy 3D standing wave at dt = factor x the CFL limit,
// which counts 1/dz^2: 1/sqrt(3) of dx on a cube.
double growth(double factor) {
  WaveModelSpec m = standing_wave(12, 0.5, WaveScheme::explicit_central);
  m.dt = factor * wave_max_dt(m);
  std::vector<double> u0 = m.u0.cells(m.grid.cells());
  for (std::size_t k = 0; k < u0.size(); ++k) u0[k] += 1e-3 * std::sin(1.7 * double(k * k % 97));
  m.u0 = u0;
  auto s = make_wave_stepper(m, Backend::serial, Precision::f64);
  s->advance(600);
  const FieldStats st = s->stats(0);
  return std::max(std::fabs(st.min), std::fabs(st.max));
}

TEST(Wave3dStability, ExplicitSchemeIsStableBelowTheCflLimitAndBlowsUpAbove) {
  EXPECT_NEAR(wave_max_dt(standing_wave(12, 0.5, WaveScheme::explicit_central)), 1.0 / (12 * std::sqrt(3.0)), 1e-15);
  EXPECT_LT(growth(0.98), 1.5);
  EXPECT_GT(growth(1.05), 1e3);
}

}  // namespace
}  // namespace pdex::test
