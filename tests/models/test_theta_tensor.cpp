// The theta scheme with anisotropic diffusion (seed 000 eqs. 11-14 with sigma = D M): each step solves
// (I - theta dt div(D M grad)) u = b with the nine-point tensor operator (helmholtz.hpp). Every solver
// reaches the same solution on every boundary kind and backend, mass is conserved where no flux leaves,
// Crank-Nicolson is second order in time and backward Euler first, both stay bounded far past the explicit
// limit, and M = I gives the isotropic scheme.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <vector>

#include "models/ard_test_support.hpp"
#include "pdex/core/error.hpp"
#include "pdex/models/ard/ard_stability.hpp"

namespace pdex::test {
namespace {

class ThetaTensorTest : public ArdBackendTest {
 protected:
  // f32 solves stall near 1e-7 times the operator's scale (docs/solvers.md): 1e-4 leaves room.
  double solver_tol() const { return tol(1e-10, 1e-4); }
};

// Backward Euler at 20 times forward Euler's limit, on varying_tensor_spec's tensor and diffusivity.
ArdSpec tensor_step_spec(BcKind kind, SolverMethod method, double solver_tol, const Grid2& grid = Grid2{48, 40}) {
  return backward_euler_far_past_the_limit(varying_tensor_spec(grid, kind), method, solver_tol);
}

std::vector<double> run(const ArdSpec& s, Backend b, Precision p, int64_t steps, int field = 0,
                        SolverTotals* totals = nullptr) {
  auto st = make_ard_stepper(s, b, p);
  st->advance(steps);
  if (totals) *totals = *st->solver_totals();
  return st->values(field);
}

// Each solver against multigrid to a tolerance 100 times tighter, three steps, both species (the solve
// is one block-diagonal system). A residual tol |b| bounds the error by about tol |b| (A = I + a positive
// semi-definite part): |b| is 90 here, so f64 1e-7 and f32 3e-2 (at 1e-4) leave an order of magnitude.
// Where no flux leaves (periodic, Neumann) the total changes by the residual's sum only: 1e-8 and 1e-3
// relative.
TEST_P(ThetaTensorTest, EverySolverReachesTheSameStepOnEveryBoundaryKind) {
  const SolverMethod methods[] = {SolverMethod::jacobi, SolverMethod::weighted_jacobi, SolverMethod::rbgs,
                                  SolverMethod::sor,    SolverMethod::cg,              SolverMethod::pcg,
                                  SolverMethod::bicgstab, SolverMethod::multigrid};
  for (BcKind kind : {BcKind::periodic, BcKind::neumann, BcKind::dirichlet}) {
    ArdSpec ref_spec = tensor_step_spec(kind, SolverMethod::multigrid, solver_tol() / 100);
    if (f32()) ref_spec.solver.tol = solver_tol();
    const std::vector<double> ref = run(ref_spec, GetParam().backend, GetParam().precision, 3);
    for (SolverMethod m : methods) {
      SCOPED_TRACE(std::string(solver_method_name(m)) + ", " + (kind == BcKind::periodic  ? "periodic"
                                                          : kind == BcKind::neumann ? "neumann"
                                                                                    : "dirichlet"));
      const ArdSpec s = tensor_step_spec(kind, m, solver_tol());
      SolverTotals t;
      const std::vector<double> u = run(s, GetParam().backend, GetParam().precision, 3, 0, &t);
      EXPECT_EQ(t.solves, 3);
      EXPECT_EQ(t.unconverged, 0);
      EXPECT_LE(t.max_residual, solver_tol());
      EXPECT_LT(max_abs_diff(u, ref), tol(1e-7, 3e-2));
      if (kind != BcKind::dirichlet) {
        EXPECT_NEAR(total(u) / total(initial_of(s, 0)), 1.0, tol(1e-8, 1e-3));
      }
      EXPECT_GT(max_abs_diff(u, initial_of(s, 0)), 0.1) << "nothing happened";
    }
  }
}

// The same step on every backend: against the serial f64 run, within the solver tolerance's reach
// (above); red-black (four-colour) Gauss-Seidel and multigrid take the same iterations within 10%.
TEST_P(ThetaTensorTest, AgreesWithTheSerialRunInStateAndIterations) {
  for (SolverMethod m : {SolverMethod::rbgs, SolverMethod::multigrid}) {
    SCOPED_TRACE(std::string(solver_method_name(m)));
    const ArdSpec s = tensor_step_spec(BcKind::neumann, m, solver_tol());
    SolverTotals mine, serial;
    const auto u = run(s, GetParam().backend, GetParam().precision, 3, 1, &mine);
    const auto ref = run(tensor_step_spec(BcKind::neumann, m, 1e-10), Backend::serial, Precision::f64, 3, 1, &serial);
    EXPECT_LT(max_abs_diff(u, ref), tol(1e-7, 3e-2));
    if (!f32()) {
      EXPECT_NEAR(double(mine.iterations), double(serial.iterations), 0.1 * double(serial.iterations));
    }
  }
}

// M = I and a constant D: the isotropic theta scheme (five points), to the solver's tolerance.
TEST_P(ThetaTensorTest, IdentityTensorGivesTheIsotropicScheme) {
  ArdSpec iso = inert_diffusion_spec(Grid2{40, 32, 0.5, 0.5}, 0.05, 0.02, FieldBoundary::all(BcKind::neumann));
  iso.initial[0] = uniform_noise(std::size_t(iso.grid.cells()), 2.0, 1.0, 31);
  iso.initial[1] = uniform_noise(std::size_t(iso.grid.cells()), 1.0, 0.5, 32);
  iso.theta = 0.5;
  iso.dt = 30 * ard_stable_step(inert_diffusion_spec(iso.grid, 0.05, 0.02, iso.bc)).dt_max;
  iso.solver.tol = solver_tol();
  ArdSpec aniso = iso;
  aniso.anisotropic = true;
  aniso.mxx = ScalarSpec{1.0, {}};
  aniso.mxy = ScalarSpec{0.0, {}};
  aniso.myy = ScalarSpec{1.0, {}};
  for (int f = 0; f < 2; ++f) {
    const auto a = run(iso, GetParam().backend, GetParam().precision, 10, f);
    const auto b = run(aniso, GetParam().backend, GetParam().precision, 10, f);
    EXPECT_LT(max_abs_diff(a, b), tol(1e-8, 1e-3)) << "field " << f;
    EXPECT_GT(max_abs_diff(a, f == 0 ? initial_of(iso, 0) : initial_of(iso, 1)), 0.1) << "nothing happened";
  }
}

// At forward Euler's own step, Crank-Nicolson follows forward Euler: the two differ by forward Euler's
// time error, a small share of what diffusion changed (0.0021 observed over 60 steps, against changes of
// order 1; 2% of the largest change allowed).
// An implicit part that were not the explicit one's operator would leave a different equation.
TEST_P(ThetaTensorTest, CrankNicolsonAtTheExplicitStepFollowsForwardEuler) {
  const ArdSpec fe = varying_tensor_spec(Grid2{48, 40}, BcKind::neumann);
  ArdSpec cn = fe;
  cn.theta = 0.5;
  cn.solver.tol = solver_tol();
  const auto a = run(fe, GetParam().backend, GetParam().precision, 60);
  const auto b = run(cn, GetParam().backend, GetParam().precision, 60);
  EXPECT_LT(max_abs_diff(a, b), 0.02 * max_abs_diff(a, initial_of(fe, 0)));
}

// Far past the explicit limit (100 times) on the varying tensor, Crank-Nicolson and backward Euler stay
// bounded: no value leaves the initial range (CN's stiff modes flip sign without growing; the tensor's
// nine-point operator is not an M-matrix, so allow 5% of the range), and backward Euler smooths.
TEST_P(ThetaTensorTest, StaysBoundedAtAStepHundredTimesTheExplicitLimit) {
  for (double theta : {0.5, 1.0}) {
    SCOPED_TRACE(theta == 0.5 ? "Crank-Nicolson" : "backward Euler");
    ArdSpec s = varying_tensor_spec(Grid2{48, 40}, BcKind::neumann);
    s.theta = theta;
    s.dt *= 100;
    s.solver.tol = solver_tol();
    const auto u = run(s, GetParam().backend, GetParam().precision, 40);
    const std::vector<double> u0 = initial_of(s, 0);
    const double lo = *std::min_element(u0.begin(), u0.end()), hi = *std::max_element(u0.begin(), u0.end());
    for (double x : u) {
      ASSERT_TRUE(std::isfinite(x));
      ASSERT_GE(x, lo - 0.05 * (hi - lo));
      ASSERT_LE(x, hi + 0.05 * (hi - lo));
    }
    if (theta == 1.0) {
      EXPECT_LT(variance(u), 0.01 * variance(initial_of(s, 0)));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, ThetaTensorTest, ::testing::ValuesIn(backend_cases()), backend_case_name);

// On CUDA a relaxation solve with a tensor takes its sweeps and its tests in one launch, the tests
// decided on the device (LinearSolver::relax_run); the CPU tests on the host. Both must take the same
// sweeps in every solve and reach the same residuals and states (f64, three backward-Euler steps):
// residual tests every sixth sweep; a change test after every sweep, then the residual test (more tests
// than a launch first takes, so the launches double); a change test alone; 48 x 40 cells and 300 x 200
// (a thread a cell and component of a colour) and 640 x 480 (a thread a cell and both components, more
// cells a colour than an H100 holds threads at once, so some threads take two). The residuals agree to 1e-6 relative, or 1e-15 of |b|:
// near convergence a residual is a difference of nearly equal values. A cap between two tests that stops
// every solve short stops both runs with the same error.
TEST(ThetaTensorCuda, RelaxationSolvesTakeTheSweepsAndTestsOfTheCpu) {
  if (!backend_available(Backend::cuda))
    GTEST_SKIP() << "no CUDA device: " << backend_unavailable_reason(Backend::cuda);
  struct Case {
    SolverMethod method;
    int every;
    double change_tol, tol;
    Grid2 grid;
  };
  const Grid2 small{48, 40}, middle{300, 200}, large{640, 480};
  const Case cases[] = {{SolverMethod::sor, 6, 0, 1e-10, small},
                        {SolverMethod::rbgs, 1, 1e-9, 1e-8, small},
                        {SolverMethod::rbgs, 5, 1e-8, 0, small},
                        {SolverMethod::sor, 6, 0, 1e-10, middle},
                        {SolverMethod::sor, 6, 0, 1e-6, large}};
  for (const Case& c : cases)
    for (BcKind kind : {BcKind::periodic, BcKind::neumann, BcKind::dirichlet}) {
      SCOPED_TRACE(std::string(solver_method_name(c.method)) + " every " + std::to_string(c.every) + ", change " +
                   std::to_string(c.change_tol) + ", tol " + std::to_string(c.tol) + ", " +
                   std::to_string(c.grid.nx) + " x " + std::to_string(c.grid.ny) + ", side kind " +
                   std::to_string(int(kind)));
      ArdSpec s = tensor_step_spec(kind, c.method, c.tol, c.grid);
      s.solver.check_every = c.every;
      s.solver.change_tol = c.change_tol;
      SolverTotals t[2];
      std::vector<double> u[2];
      const Backend backends[2] = {Backend::serial, Backend::cuda};
      for (int k = 0; k < 2; ++k) u[k] = run(s, backends[k], Precision::f64, 3, 0, &t[k]);
      EXPECT_EQ(t[1].iterations_per_solve, t[0].iterations_per_solve);
      EXPECT_EQ(t[1].unconverged, 0);
      ASSERT_EQ(t[1].residual_per_solve.size(), t[0].residual_per_solve.size());
      for (std::size_t k = 0; k < t[0].residual_per_solve.size(); ++k) {
        const double want = t[0].residual_per_solve[k], got = t[1].residual_per_solve[k];
        if (c.tol == 0) EXPECT_TRUE(std::isnan(got)) << "no residual test, none measured";
        else EXPECT_NEAR(got, want, 1e-6 * want + 1e-15) << "solve " << k;
      }
      EXPECT_LT(max_abs_diff(u[1], u[0]), 1e-10 * max_abs(u[0]));
    }
  ArdSpec capped = tensor_step_spec(BcKind::neumann, SolverMethod::sor, 1e-14);
  capped.solver.check_every = 4;
  capped.solver.max_iter = 30;
  for (Backend b : {Backend::serial, Backend::cuda}) {
    SCOPED_TRACE(std::string(backend_name(b)));
    try {
      run(capped, b, Precision::f64, 1);
      ADD_FAILURE() << "a solve capped short of its tolerance must stop the run";
    } catch (const NumericalError& e) {
      EXPECT_NE(std::string(e.what()).find("did not converge in 30 iterations"), std::string::npos) << e.what();
    }
  }
}

// Order in time on a rotated constant tensor (periodic, smooth data): the difference between runs at dt
// and dt/2 falls fourfold for Crank-Nicolson and twofold for backward Euler when dt halves. f64, solves
// to 1e-12 so that the solver's error stays far below the time error.
class ThetaTensorOrderTest : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override {
    if (!backend_available(GetParam())) GTEST_SKIP() << "no CUDA device: " << backend_unavailable_reason(GetParam());
  }
};

std::vector<double> rotated_run(double theta, int64_t steps, Backend b) {
  using std::numbers::pi;
  const Grid2 g{32, 32, 1.0 / 32, 1.0 / 32};
  ArdSpec s = inert_diffusion_spec(g, 1.0, 0.5, FieldBoundary::all(BcKind::periodic));
  s.anisotropic = true;
  s.mxx = ScalarSpec{1.0, {}};
  s.mxy = ScalarSpec{0.4, {}};
  s.myy = ScalarSpec{0.6, {}};
  s.initial[0] = sample(g, [](double x, double y) {
    return std::sin(2 * pi * x) * std::cos(2 * pi * y) + std::cos(2 * pi * (x + y));
  });
  s.initial[1] = s.initial[0];
  s.theta = theta;
  s.dt = 0.02 / double(steps);
  s.solver.tol = 1e-12;
  return run(s, b, Precision::f64, steps);
}

double observed_order(double theta, Backend b) {
  const auto u1 = rotated_run(theta, 8, b), u2 = rotated_run(theta, 16, b), u4 = rotated_run(theta, 32, b);
  return std::log2(max_abs_diff(u1, u2) / max_abs_diff(u2, u4));
}

TEST_P(ThetaTensorOrderTest, CrankNicolsonIsSecondOrderAndBackwardEulerFirstOrder) {
  const double cn = observed_order(0.5, GetParam()), be = observed_order(1.0, GetParam());
  std::printf("observed order in time with a rotated tensor: Crank-Nicolson %.3f, backward Euler %.3f\n", cn, be);
  EXPECT_NEAR(cn, 2.0, 0.15);
  EXPECT_NEAR(be, 1.0, 0.15);
}

INSTANTIATE_TEST_SUITE_P(Backends, ThetaTensorOrderTest, ::testing::Values(Backend::openmp, Backend::cuda),
                         [](const auto& p) { return std::string(backend_name(p.param)); });

}  // namespace
}  // namespace pdex::test
