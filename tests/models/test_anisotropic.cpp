// The anisotropic operator div(D M grad u) (grid/stencil.hpp div_tensor; ArdSpec.anisotropic with a
// tensor field M = (mxx, mxy; mxy, myy)): conservative, equal to the five-point Laplacian for M = I, and
// spreading a Gaussian along the tensor (off-diagonal sign and orientation included).
#include <gtest/gtest.h>

#include <cmath>

#include "models/ard_test_support.hpp"
#include "models/moments.hpp"
#include "pdex/models/ard/ard_stability.hpp"

namespace pdex::test {
namespace {

class AnisotropicTest : public ArdBackendTest {};

// Face fluxes cancel in pairs; at zero-flux sides the tensor's ghosts (even mirror of mxx, myy, D, odd
// of mxy) make the boundary fluxes exactly zero. Tolerances as for isotropic diffusion: f64 1e-12
// relative, f32 1e-6 (300 steps of rounding).
void expect_mass_conserved(ArdBackendTest& t, const ArdSpec& s) {
  auto st = make_ard_stepper(s, t.GetParam().backend, t.GetParam().precision);
  st->advance(300);
  const auto u = st->values(0), v = st->values(1);
  const double tol = t.GetParam().precision == Precision::f32 ? 1e-6 : 1e-12;
  EXPECT_NEAR(total(u) / total(initial_of(s, 0)), 1.0, tol);
  EXPECT_NEAR(total(v) / total(initial_of(s, 1)), 1.0, tol);
  EXPECT_LT(variance(u), 0.1 * variance(initial_of(s, 0))) << "diffusion did not act";
}

TEST_P(AnisotropicTest, VaryingTensorWithOffDiagonalConservesMassOnAPeriodicDomain) {
  expect_mass_conserved(*this, varying_tensor_spec(Grid2{48, 40}, BcKind::periodic));
}

TEST_P(AnisotropicTest, VaryingTensorWithOffDiagonalConservesMassWithNeumannSides) {
  expect_mass_conserved(*this, varying_tensor_spec(Grid2{48, 40}, BcKind::neumann));
}

// M = I: the same fluxes as the five-point Laplacian, summed in another order. f64: within 1e-12 of the
// field's scale (4e-16 observed); f32: within 1e-5 (2.4e-7 observed after 100 steps).
TEST_P(AnisotropicTest, IdentityTensorReproducesTheIsotropicOperator) {
  for (BcKind kind : {BcKind::periodic, BcKind::neumann}) {
    SCOPED_TRACE(kind == BcKind::periodic ? "periodic" : "neumann");
    const Grid2 g{40, 32, 0.5, 0.5};
    ArdSpec iso = inert_diffusion_spec(g, 0.05, 0.02, FieldBoundary::all(kind));
    iso.initial[0] = uniform_noise(std::size_t(g.cells()), 2.0, 1.0, 31);
    iso.initial[1] = uniform_noise(std::size_t(g.cells()), 1.0, 0.5, 32);
    iso.dt = 0.9 * ard_stable_step(iso).dt_max;
    ArdSpec aniso = iso;
    aniso.anisotropic = true;
    aniso.mxx = ScalarSpec{1.0, {}};
    aniso.mxy = ScalarSpec{0.0, {}};
    aniso.myy = ScalarSpec{1.0, {}};
    ASSERT_EQ(ard_stable_step(aniso).dt_max, ard_stable_step(iso).dt_max);
    auto a = make(iso), b = make(aniso);
    a->advance(100);
    b->advance(100);
    for (int f = 0; f < 2; ++f) {
      const auto ua = a->values(f), ub = b->values(f);
      EXPECT_LT(max_abs_diff(ua, ub) / max_abs(ua), tol(1e-12, 1e-5)) << "field " << f;
      EXPECT_GT(max_abs_diff(ua, f == 0 ? initial_of(iso, 0) : initial_of(iso, 1)), 0.1) << "nothing happened";
    }
  }
}

// A constant tensor K = D M on a periodic domain: summation by parts gives d/dt sum(x x^T u) =
// 2 K sum(u) exactly for the discrete operator (the cross stencil included), and forward Euler adds
// the same increment every step. So the covariance of a Gaussian grows by exactly 2 D M t; the only
// error is the tails reaching the seam (over 6 standard deviations away) and rounding. Tolerance:
// 1e-6 relative to the growth in f64 (9e-9 observed, the tails), 1e-5 in f32 (4e-8 observed).
TEST_P(AnisotropicTest, ConstantTensorGrowsTheCovarianceOfAGaussianBy2DMt) {
  const Grid2 g{128, 128};
  const double D = 0.5, mxx = 1.0, mxy = -0.6, myy = 0.5;
  ArdSpec s = inert_diffusion_spec(g, D, D, FieldBoundary::all(BcKind::periodic));
  s.anisotropic = true;
  s.mxx = ScalarSpec{mxx, {}};
  s.mxy = ScalarSpec{mxy, {}};
  s.myy = ScalarSpec{myy, {}};
  s.initial[0] = sample(g, [](double x, double y) { return std::exp(-((x - 64) * (x - 64) + (y - 64) * (y - 64)) / 32.0); });
  s.initial[1] = s.initial[0];
  s.dt = 0.9 * ard_stable_step(s).dt_max;
  const int64_t steps = 200;
  auto st = make(s);
  st->advance(steps);
  const double t = s.dt * double(steps);
  const Moments m0 = moments(g, initial_of(s, 0)), m = moments(g, st->values(0));
  const double growth = 2 * D * t, rel = tol(1e-6, 1e-5);
  EXPECT_NEAR(m.cxx - m0.cxx, growth * mxx, rel * growth);
  EXPECT_NEAR(m.cxy - m0.cxy, growth * mxy, rel * growth);
  EXPECT_NEAR(m.cyy - m0.cyy, growth * myy, rel * growth);
  EXPECT_NEAR(m.cx, m0.cx, tol(1e-9, 1e-4));
  EXPECT_NEAR(m.cy, m0.cy, tol(1e-9, 1e-4));
}

INSTANTIATE_TEST_SUITE_P(Backends, AnisotropicTest, ::testing::ValuesIn(backend_cases()), backend_case_name);

}  // namespace
}  // namespace pdex::test
