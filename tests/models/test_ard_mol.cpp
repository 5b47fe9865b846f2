// The reaction-diffusion models by the method of lines (time.scheme = "merson" | "rk4", seed 003's
// integrators over seed 000's right-hand side): on a discrete eigenmode of diffusion the semi-discrete
// solution is known exactly, so the error measured is the integrator's alone. Merson keeps it near its
// tolerance and grows its step as the mode decays; rk4 is fourth order; clamping limits each step.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "models/ard_test_support.hpp"

namespace pdex::test {
namespace {

const double pi = 3.14159265358979323846;
const double Du = 0.001, Dv = 0.002;

// u0 = cos(2 pi x) sin(4 pi y) on a periodic 32 x 32 unit square, v0 = u0 / 2: decays at the discrete
// eigenvalue D lambda_h, lambda_h = sum over axes of (4 / h^2) sin^2(pi m h). The diffusivities are small
// enough that accuracy, not stability, bounds the steps at first (Merson's real stability interval is
// about 3.5 / dt, here against the largest eigenvalue 8 Dv / h^2 = 16.4: steps up to about 0.2).
struct Mode {
  ArdSpec spec;
  double lambda_h;
};

Mode diffusion_mode(const std::string& scheme, double dt, double tol) {
  const int n = 32;
  const Grid2 g{n, n, 1.0 / n, 1.0 / n};
  Mode m{inert_diffusion_spec(g, Du, Dv, FieldBoundary::all(BcKind::periodic)), 0};
  m.spec.mol_scheme = scheme;
  m.spec.dt = dt;
  m.spec.tol = tol;
  std::vector<double> u0 = sample(g, [](double x, double y) { return std::cos(2 * pi * x) * std::sin(4 * pi * y); });
  m.spec.initial[0] = u0;
  for (double& v : u0) v /= 2;
  m.spec.initial[1] = u0;
  const double h = 1.0 / n;
  m.lambda_h = 4 / (h * h) * (std::pow(std::sin(pi * h), 2) + std::pow(std::sin(2 * pi * h), 2));
  return m;
}

// Largest deviation of u and v from the exact semi-discrete solution at time t.
double mode_error(const Mode& m, Stepper& s, double t) {
  double err = 0;
  const double du = std::exp(-Du * m.lambda_h * t), dv = std::exp(-Dv * m.lambda_h * t);
  const std::vector<double> u = s.values(0), v = s.values(1), u0 = initial_of(m.spec, 0), v0 = initial_of(m.spec, 1);
  for (std::size_t k = 0; k < u.size(); ++k) err = std::max({err, std::abs(u[k] - du * u0[k]), std::abs(v[k] - dv * v0[k])});
  return err;
}

MolStepper& mol(std::unique_ptr<Stepper>& s) {
  auto* m = dynamic_cast<MolStepper*>(s.get());
  if (!m) throw std::runtime_error("a method-of-lines scheme built no MolStepper");
  return *m;
}

using ArdMolTest = ArdBackendTest;

// The local error per step stays below tol; over ~50 steps the global error stays within a small
// multiple of it, and a tolerance 100x tighter gives a clearly smaller error.
TEST_P(ArdMolTest, MersonKeepsTheTimeErrorNearItsTolerance) {
  const double t_end = 20;  // the v mode decays to 4e-4 of its start
  const double loose_tol = tol(1e-6, 1e-4), tight_tol = loose_tol / 100;
  double errors[2];
  int64_t steps[2];
  for (int k = 0; k < 2; ++k) {
    const Mode m = diffusion_mode("merson", 0.01, k == 0 ? loose_tol : tight_tol);
    auto s = make(m.spec);
    mol(s).advance_to(t_end);
    EXPECT_DOUBLE_EQ(mol(s).time(), t_end);
    errors[k] = mode_error(m, *s, t_end);
    steps[k] = mol(s).step_stats().accepted;
  }
  EXPECT_LT(errors[0], 20 * loose_tol) << steps[0] << " steps";
  EXPECT_LT(errors[1], errors[0] / 5) << "tightening tol 100x must cut the error; steps " << steps[0] << " -> " << steps[1];
  EXPECT_GT(steps[1], steps[0]);
}

// From a first step of 0.01 on a decaying mode the error allows ever larger steps (until the stability
// limit, about 0.2, lets rounding-level high modes grow into the error estimate: Merson then hovers there).
TEST_P(ArdMolTest, MersonGrowsItsStepAsTheModeDecays) {
  const Mode m = diffusion_mode("merson", 0.01, tol(1e-6, 1e-4));
  auto s = make(m.spec);
  mol(s).advance_to(40);
  const StepStats& st = mol(s).step_stats();
  EXPECT_GT(st.tau_max, 10 * 0.01) << st.accepted << " accepted, " << st.rejected << " rejected";
  EXPECT_LT(st.accepted, 40 / 0.01 / 5);
}

// rk4 with fixed steps: halving dt divides the error by about 16.
TEST_P(ArdMolTest, Rk4IsFourthOrderInTime) {
  if (f32()) GTEST_SKIP() << "the f64 cases measure the order; f32 rounding (1e-7) is above the time error";
  double err[2];
  for (int k = 0; k < 2; ++k) {
    const Mode m = diffusion_mode("rk4", k == 0 ? 0.1 : 0.05, 1e-6);
    auto s = make(m.spec);
    mol(s).advance_to(4.0);
    err[k] = mode_error(m, *s, 4.0);
  }
  const double order = std::log2(err[0] / err[1]);
  EXPECT_GT(order, 3.7) << "errors " << err[0] << ", " << err[1];
  EXPECT_LT(order, 4.3) << "errors " << err[0] << ", " << err[1];
}

// With clamping on, no accepted state holds a negative value, however the step made it.
TEST_P(ArdMolTest, ClampingLimitsEveryAcceptedStep) {
  Mode m = diffusion_mode("merson", 0.01, tol(1e-6, 1e-4));
  m.spec.clamp = true;
  auto s = make(m.spec);
  mol(s).advance_to(0.01, 1);
  for (int f = 0; f < 2; ++f) {
    const std::vector<double> x = s->values(f);
    EXPECT_EQ(*std::min_element(x.begin(), x.end()), 0.0) << "field " << f;
    EXPECT_GT(*std::max_element(x.begin(), x.end()), 0.4) << "field " << f;
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, ArdMolTest, ::testing::ValuesIn(backend_cases()), backend_case_name);

}  // namespace
}  // namespace pdex::test
