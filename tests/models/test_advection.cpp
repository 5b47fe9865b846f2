// Advection of a Gaussian on a periodic domain. Both schemes move the first moment exactly: summing
// x_i times the upwind difference (u_i - u_{i-1}) / h, or the centred one (u_{i+1} - u_{i-1}) / 2h,
// over a periodic row gives -sum u, and diffusion's five-point sum leaves it unchanged. So the centre
// of mass travels a t to rounding, as long as the Gaussian's tails do not reach the seam (they stay
// over 5 standard deviations away here). Mass is conserved by the same telescoping.
#include <gtest/gtest.h>

#include <cmath>

#include "models/ard_test_support.hpp"
#include "models/moments.hpp"
#include "pdex/models/ard/ard_stability.hpp"

namespace pdex::test {
namespace {

class AdvectionTest : public ArdBackendTest {
 protected:
  struct Case {
    Advection scheme;
    double ax, ay, D;
    double x0, y0, sigma;
  };

  // Runs the case for `steps` steps of 0.8 times the stable step and checks both species.
  // Tolerances: the centre of mass within 1e-4 cells of x0 + a t (observed: 2.5e-8 in f64, from the
  // tails at the seam; 2e-6 in f32, rounding); mass to 1e-12 relative in f64 and 1e-6 in f32 (rounding
  // drift; 2e-15 and 6e-9 observed).
  void check(const Case& c, int64_t steps) {
    const Grid2 g{128, 96};
    ArdSpec s = inert_diffusion_spec(g, c.D, c.D, FieldBoundary::all(BcKind::periodic));
    s.advection = c.scheme;
    s.ax = ScalarSpec{c.ax, {}};
    s.ay = ScalarSpec{c.ay, {}};
    auto gauss = [&](double sigma, double height) {
      return sample(g, [=](double x, double y) {
        return height * std::exp(-((x - c.x0) * (x - c.x0) + (y - c.y0) * (y - c.y0)) / (2 * sigma * sigma));
      });
    };
    s.initial[0] = gauss(c.sigma, 1.0);
    s.initial[1] = gauss(0.75 * c.sigma, 3.0);
    s.dt = 0.8 * ard_stable_step(s).dt_max;
    auto st = make(s);
    st->advance(steps);
    const double t = s.dt * double(steps);
    for (int f = 0; f < 2; ++f) {
      SCOPED_TRACE(f == 0 ? "u" : "v");
      const Moments m0 = moments(g, f == 0 ? initial_of(s, 0) : initial_of(s, 1)), m = moments(g, st->values(f));
      EXPECT_NEAR(m.cx, m0.cx + c.ax * t, 1e-4);
      EXPECT_NEAR(m.cy, m0.cy + c.ay * t, 1e-4);
      EXPECT_NEAR(m.mass / m0.mass, 1.0, tol(1e-12, 1e-6));
      // Sanity: the Gaussian did travel (over 30 cells), and its tails stayed away from the seam.
      EXPECT_GT(std::hypot(m.cx - m0.cx, m.cy - m0.cy), 30.0);
      EXPECT_LT(std::sqrt(m.cxx) * 5, std::min({m.cx, g.width() - m.cx}));
      EXPECT_LT(std::sqrt(m.cyy) * 5, std::min({m.cy, g.height() - m.cy}));
    }
  }
};

TEST_P(AdvectionTest, UpwindGaussianCentreOfMassMovesWithTheVelocityAndMassIsConserved) {
  // No diffusion: upwind differencing is stable alone. The velocity's y component is negative, so
  // both branches of the upwind stencil run.
  check(Case{Advection::upwind, 0.5, -0.25, 0.0, 40.0, 60.0, 5.0}, 75);
}

TEST_P(AdvectionTest, CentredGaussianWithSmallDiffusionMovesWithTheVelocityAndMassIsConserved) {
  // Centred differences with forward Euler need diffusion: dt <= 2 D / |a|^2.
  check(Case{Advection::centered, -0.4, 0.3, 0.05, 88.0, 30.0, 5.0}, 250);
}

INSTANTIATE_TEST_SUITE_P(Backends, AdvectionTest, ::testing::ValuesIn(backend_cases()), backend_case_name);

}  // namespace
}  // namespace pdex::test
