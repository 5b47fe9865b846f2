// Boundary conditions seen through a whole run (make_ard_stepper, every backend and precision), with
// the reaction made inert (Turing kinetics with s = 0: f = g = 0 exactly), so only diffusion acts.
#include <gtest/gtest.h>

#include <cmath>

#include "models/ard_test_support.hpp"
#include "pdex/models/ard/ard_stability.hpp"

namespace pdex::test {
namespace {

class BoundaryDiffusionTest : public ArdBackendTest {};

// Zero-flux sides: the five-point sums telescope and mirror ghosts make the boundary fluxes zero, so
// the total is conserved to rounding. Tolerances: f64 1e-12 relative (500 steps of ~1e-16 drift);
// f32 1e-6 (500 steps of ~6e-8 rounding per cell, mostly cancelling: 5e-8 observed).
TEST_P(BoundaryDiffusionTest, NeumannConservesMassUnderPureDiffusion) {
  const Grid2 g{48, 40, 0.5, 0.5};
  ArdSpec s = inert_diffusion_spec(g, 0.05, 0.02, FieldBoundary::all(BcKind::neumann));
  s.initial[0] = uniform_noise(std::size_t(g.cells()), 2.0, 1.0, 1);
  s.initial[1] = sample(g, [](double x, double y) { return x < 8 && y < 6 ? 5.0 : 0.0; });  // mass in a corner
  s.dt = 0.9 * ard_stable_step(s).dt_max;
  auto st = make(s);
  st->advance(500);
  const auto u = st->values(0), v = st->values(1);
  EXPECT_NEAR(total(u) / total(initial_of(s, 0)), 1.0, tol(1e-12, 1e-6));
  EXPECT_NEAR(total(v) / total(initial_of(s, 1)), 1.0, tol(1e-12, 1e-6));
  // Diffusion did act: the noise is mostly gone and the corner's mass has spread.
  EXPECT_LT(variance(u), 0.05 * variance(initial_of(s, 0)));
  EXPECT_GT(v[std::size_t(20) * g.nx + 20], 0.01);
}

// The same on a periodic domain, where every flux has a partner on the opposite side.
TEST_P(BoundaryDiffusionTest, PeriodicConservesMassUnderPureDiffusion) {
  const Grid2 g{40, 48};
  ArdSpec s = inert_diffusion_spec(g, 0.2, 0.1, FieldBoundary::all(BcKind::periodic));
  s.initial[0] = uniform_noise(std::size_t(g.cells()), 2.0, 1.0, 2);
  s.initial[1] = sample(g, [](double x, double) { return x < 2 ? 5.0 : 0.0; });  // a band across the seam
  s.dt = 0.9 * ard_stable_step(s).dt_max;
  auto st = make(s);
  st->advance(500);
  EXPECT_NEAR(total(st->values(0)) / total(initial_of(s, 0)), 1.0, tol(1e-12, 1e-6));
  EXPECT_NEAR(total(st->values(1)) / total(initial_of(s, 1)), 1.0, tol(1e-12, 1e-6));
  EXPECT_LT(variance(st->values(0)), 0.05 * variance(initial_of(s, 0)));
}

// Dirichlet b on every side: the only steady state is u = b. The slowest mode decays by e^-28 over
// the run (16 x 12 cells, D = 0.25); the floor is rounding: f64 1e-11 (3e-13 observed), f32 2e-5 (1.4e-6 observed).
TEST_P(BoundaryDiffusionTest, DirichletDiffusionConvergesToTheBoundaryValue) {
  const Grid2 g{16, 12};
  ArdSpec s = inert_diffusion_spec(g, 0.25, 0.25, FieldBoundary{});
  for (int side = 0; side < 4; ++side) {
    s.bc.side[side][0] = {BcKind::dirichlet, 0.7};
    s.bc.side[side][1] = {BcKind::dirichlet, -0.3};
  }
  s.initial[0] = uniform_noise(std::size_t(g.cells()), 0.0, 1.0, 3);
  s.initial[1] = uniform_noise(std::size_t(g.cells()), 2.0, 1.0, 4);
  s.dt = 0.9 * ard_stable_step(s).dt_max;
  auto st = make(s);
  st->advance(1200);
  const auto u = st->values(0), v = st->values(1);
  for (std::size_t k = 0; k < u.size(); ++k) {
    ASSERT_NEAR(u[k], 0.7, tol(1e-11, 2e-5)) << "cell " << k;
    ASSERT_NEAR(v[k], -0.3, tol(1e-11, 2e-5)) << "cell " << k;
  }
}

// u: Dirichlet 1 on the left, 0 on the right, zero flux at bottom and top; v: periodic in x,
// Dirichlet 2 at the bottom, 3 at the top. Steady states are linear, which the five-point stencil and
// the face-centred Dirichlet ghosts reproduce exactly: u = 1 - x / Lx, v = 2 + y / Ly at cell centres.
TEST_P(BoundaryDiffusionTest, MixedSidesAndComponentsConvergeToTheirLinearSteadyStates) {
  const Grid2 g{12, 10, 0.5, 0.5};
  ArdSpec s = inert_diffusion_spec(g, 0.0625, 0.0625, FieldBoundary::all(BcKind::neumann));
  s.bc.side[left][0] = {BcKind::dirichlet, 1.0};
  s.bc.side[right][0] = {BcKind::dirichlet, 0.0};
  s.bc.side[left][1] = {BcKind::periodic, 0.0};
  s.bc.side[right][1] = {BcKind::periodic, 0.0};
  s.bc.side[bottom][1] = {BcKind::dirichlet, 2.0};
  s.bc.side[top][1] = {BcKind::dirichlet, 3.0};
  s.initial[0] = uniform_noise(std::size_t(g.cells()), 0.5, 0.5, 5);
  s.initial[1] = uniform_noise(std::size_t(g.cells()), 0.0, 1.0, 6);
  s.dt = 0.9 * ard_stable_step(s).dt_max;
  auto st = make(s);
  st->advance(2000);
  const auto u = st->values(0), v = st->values(1);
  const auto u_exact = sample(g, [&](double x, double) { return 1 - x / g.width(); });
  const auto v_exact = sample(g, [&](double, double y) { return 2 + y / g.height(); });
  // The slowest mode decays by e^-30; f64 1e-12 (1.5e-14 observed), f32 5e-5 (7.6e-6 observed).
  EXPECT_LT(max_abs_diff(u, u_exact), tol(1e-12, 5e-5));
  EXPECT_LT(max_abs_diff(v, v_exact), tol(1e-12, 5e-5));
}

INSTANTIATE_TEST_SUITE_P(Backends, BoundaryDiffusionTest, ::testing::ValuesIn(backend_cases()), backend_case_name);

}  // namespace
}  // namespace pdex::test
