// The Taylor jets differentiate exactly, and the manufactured forcing terms match the flows' operators:
// the mean-curvature forcing against the closed form of Q div(grad phi / Q), and both forcings, for a
// small amplitude, against the linearized flows phi_t = lap phi and phi_t = -lap^2 phi.
#include <gtest/gtest.h>

#include <cmath>

#include "pdex/models/curvature/manufactured.hpp"

namespace pdex::test {
namespace {

TEST(Jet2, QuotientAndSquareRootHaveTheirDerivatives) {
  // f = sqrt(1 + x^2 + y^2) / (1 + x) at (0.3, 0.4), derivatives by hand.
  Jet2<double, 2> x, y;
  x.c[0] = 0.3, x.c[x.at(1, 0)] = 1;
  y.c[0] = 0.4, y.c[y.at(0, 1)] = 1;
  const Jet2<double, 2> q = jet_sqrt(1.0 + (x * x + y * y)), f = q / (1.0 + x);
  const double Q = std::sqrt(1.25), fx = 0.3 / Q / 1.3 - Q / (1.3 * 1.3), fy = 0.4 / Q / 1.3;
  EXPECT_NEAR(f.value(), Q / 1.3, 1e-15);
  EXPECT_NEAR(f(1, 0), fx, 1e-15);
  EXPECT_NEAR(f(0, 1), fy, 1e-15);
  // d2/dxdy of q = -x y / Q^3
  EXPECT_NEAR(d_dy(d_dx(q)).value(), -0.12 / (Q * Q * Q), 1e-15);
}

const Manufactured<double> m{1.0, 0.7, 0.4, 0.1, -0.2};

TEST(Manufactured, MeanCurvatureForcingMatchesTheClosedForm) {
  const double t = 0.03, x = 0.8, y = -0.5;
  const Jet2<double, 2> j = m.jet<2>(t, x, y);
  const double px = j(1, 0), py = j(0, 1), pxx = 2 * j(2, 0), pyy = 2 * j(0, 2), pxy = j(1, 1);
  const double q2 = 1 + px * px + py * py;
  const double qh = (pxx * (1 + py * py) + pyy * (1 + px * px) - 2 * px * py * pxy) / q2;
  EXPECT_NEAR(m.mean_curvature_forcing(t, x, y), m.phi_t(t, x, y) - qh, 1e-14);
}

TEST(Manufactured, SmallAmplitudeForcingsAreThoseOfTheLinearizedFlows) {
  Manufactured<double> small = m;
  small.amp = 1e-5;
  const double t = 0.03, x = 0.8, y = -0.5, k2 = small.kx * small.kx + small.ky * small.ky;
  const double p = small.phi(t, x, y), pt = small.phi_t(t, x, y);
  EXPECT_NEAR(small.mean_curvature_forcing(t, x, y), pt + k2 * p, 1e-9 * std::abs(pt + k2 * p) + 1e-16);
  EXPECT_NEAR(small.willmore_forcing(t, x, y), pt + k2 * k2 * p, 1e-9 * std::abs(pt + k2 * k2 * p) + 1e-16);
}

}  // namespace
}  // namespace pdex::test
