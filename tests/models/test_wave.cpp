// The 2D wave equation (seed 001 sec. 44.4): a standing wave against its analytic solution converges at
// second order in space and time for both schemes, on every backend and precision; the explicit scheme
// is stable just below its CFL limit and blows up just above it, while Crank-Nicolson stays bounded at
// several times that step; reflecting sides conserve the mean displacement.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
#include <vector>

#include "pdex/models/wave/wave_stepper.hpp"

namespace pdex::test {
namespace {

const double pi = 3.14159265358979323846;

// u = sin(pi x) sin(pi y) cos(sqrt(2) pi c t) on the unit square, held at 0 on every side.
WaveModelSpec standing_wave(int n, double dt_over_dx, WaveScheme scheme) {
  WaveModelSpec m;
  m.grid = Grid2{n, n, 1.0 / n, 1.0 / n};
  m.bc = FieldBoundary::all(BcKind::dirichlet);
  m.dt = dt_over_dx / n;
  m.scheme = scheme;
  m.solver.method = SolverMethod::cg;
  m.solver.tol = 1e-11;
  std::vector<double> u0(std::size_t(n) * n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) u0[std::size_t(j) * n + i] = std::sin(pi * m.grid.x(i)) * std::sin(pi * m.grid.y(j));
  m.u0 = u0;
  return m;
}

double max_error(const WaveModelSpec& m, const std::vector<double>& u, double t) {
  double e = 0;
  const double decay = std::cos(std::sqrt(2.0) * pi * m.c * t);
  const std::vector<double> u0 = m.u0.cells(m.grid.cells());
  for (int j = 0; j < m.grid.ny; ++j)
    for (int i = 0; i < m.grid.nx; ++i)
      e = std::max(e, std::fabs(u[std::size_t(j) * m.grid.nx + i] - decay * u0[std::size_t(j) * m.grid.nx + i]));
  return e;
}

using Param = std::tuple<WaveScheme, Backend>;

class WaveTest : public ::testing::TestWithParam<Param> {
 protected:
  void SetUp() override {
    if (!backend_available(backend())) GTEST_SKIP() << "no CUDA device: " << backend_unavailable_reason(backend());
  }
  WaveScheme scheme() const { return std::get<0>(GetParam()); }
  Backend backend() const { return std::get<1>(GetParam()); }

  // The error at t = 0.75 on an n x n grid, dt = ratio dx.
  double error(int n, double ratio) {
    const WaveModelSpec m = standing_wave(n, ratio, scheme());
    auto s = make_wave_stepper(m, backend(), Precision::f64);
    const int64_t steps = std::llround(0.75 / m.dt);
    s->advance(steps);
    return max_error(m, s->values(0), double(steps) * m.dt);
  }
};

TEST_P(WaveTest, StandingWaveConvergesAtSecondOrderInSpaceAndTime) {
  // Crank-Nicolson at twice the explicit CFL step: its time error is then not hidden by the space error.
  const double ratio = scheme() == WaveScheme::explicit_central ? 0.5 : 1.5;
  const double e1 = error(16, ratio), e2 = error(32, ratio), e3 = error(64, ratio);
  const double p1 = std::log2(e1 / e2), p2 = std::log2(e2 / e3);
  RecordProperty("observed_order", std::to_string(p2));
  EXPECT_GE(p2, 1.8) << "errors " << e1 << " " << e2 << " " << e3;
  EXPECT_LE(p2, 2.2) << "errors " << e1 << " " << e2 << " " << e3;
  EXPECT_GE(p1, 1.7);
  EXPECT_LT(e3, 2e-3);
}

TEST_P(WaveTest, ReflectingSidesKeepTheMeanDisplacement) {
  WaveModelSpec m = standing_wave(32, 0.5, scheme());
  m.bc = FieldBoundary::all(BcKind::neumann);
  std::vector<double> u0(std::size_t(m.grid.cells()));
  for (std::size_t k = 0; k < u0.size(); ++k) u0[k] = std::exp(-40 * std::pow(double(k % 32) / 32 - 0.3, 2));
  m.u0 = u0;
  auto s = make_wave_stepper(m, backend(), Precision::f64);
  const double mean0 = s->stats(0).mean;
  s->advance(200);
  EXPECT_NEAR(s->stats(0).mean, mean0, 1e-9) << "no flux through reflecting sides";
  EXPECT_LT(s->stats(0).max, 1.5) << "bounded";
}

std::string name(const ::testing::TestParamInfo<Param>& info) {
  return std::string(std::get<0>(info.param) == WaveScheme::explicit_central ? "explicit" : "crank_nicolson") + "_" +
         std::string(backend_name(std::get<1>(info.param)));
}

INSTANTIATE_TEST_SUITE_P(All, WaveTest,
                         ::testing::Combine(::testing::Values(WaveScheme::explicit_central, WaveScheme::crank_nicolson),
                                            ::testing::Values(Backend::serial, Backend::openmp, Backend::cuda)),
                         name);

// The largest |u| after `steps` steps of a noisy membrane at dt = factor x the CFL limit.
double growth(WaveScheme scheme, double factor, int steps) {
  WaveModelSpec m = standing_wave(32, 1.0, scheme);
  m.dt = factor * wave_max_dt(m);
  std::vector<double> u0 = m.u0.cells(m.grid.cells());
  for (std::size_t k = 0; k < u0.size(); ++k) u0[k] += 1e-3 * std::sin(1.7 * double(k * k % 97));
  m.u0 = u0;
  auto s = make_wave_stepper(m, Backend::serial, Precision::f64);
  s->advance(steps);
  const FieldStats st = s->stats(0);
  return std::max(std::fabs(st.min), std::fabs(st.max));
}

TEST(WaveStability, ExplicitSchemeIsStableBelowTheCflLimitAndBlowsUpAbove) {
  EXPECT_LT(growth(WaveScheme::explicit_central, 0.98, 600), 1.5);
  EXPECT_GT(growth(WaveScheme::explicit_central, 1.05, 600), 1e3);
}

TEST(WaveStability, CrankNicolsonStaysBoundedAtFourTimesTheCflStep) {
  EXPECT_LT(growth(WaveScheme::crank_nicolson, 4.0, 200), 1.5);
}

}  // namespace
}  // namespace pdex::test
