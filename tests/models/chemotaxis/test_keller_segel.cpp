// Keller-Segel with zero flux: the mass of n is conserved to rounding (the chemotactic flux is written
// in conservative form), while n aggregates; the growth warning fires once past its factor.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "models/ard_test_support.hpp"
#include "pdex/models/chemotaxis/chemotaxis_stability.hpp"
#include "pdex/models/chemotaxis/chemotaxis_stepper.hpp"

namespace pdex::test {
namespace {

// A bump of n off centre over a background, c from a tilted start: aggregation toward the bump, on a
// non-square grid (48 x 40 cells of 1/48 x 1/40).
ChemotaxisSpec aggregation(ChemotaxisKind kind, double chi) {
  ChemotaxisSpec s;
  s.kind = kind;
  s.grid = Grid2{48, 40, 1.0 / 48, 1.0 / 40};
  s.bc = FieldBoundary::all(BcKind::neumann);
  s.chi = chi;
  for (int j = 0; j < s.grid.ny; ++j)
    for (int i = 0; i < s.grid.nx; ++i) {
      const double x = s.grid.x(i), y = s.grid.y(j);
      s.n0.push_back(1 + 40 * std::exp(-((x - 0.4) * (x - 0.4) + (y - 0.55) * (y - 0.55)) / 0.01));
      s.c0.push_back(0.5 + x * y);
    }
  s.dt = 0.5 * chemotaxis_theorem2(s).dt_max;  // the drift grows as n aggregates
  return s;
}

double mass(const std::vector<double>& n, const Grid2& g) {
  return std::accumulate(n.begin(), n.end(), 0.0) * g.dx * g.dy;
}

class KellerSegelTest : public ArdBackendTest {
 protected:
  std::unique_ptr<Stepper> make(const ChemotaxisSpec& s) const {
    return make_chemotaxis_stepper(s, GetParam().backend, GetParam().precision);
  }

  // Conservation to rounding: f64 after 300 steps drifts by ~1e-14 (each step rounds every cell once);
  // f32 by ~1e-6. A non-conservative flux (centred n grad c) drifts by 1e-3 here.
  void expect_mass_conserved(ChemotaxisKind kind) {
    ChemotaxisSpec s = aggregation(kind, 30.0);
    s.solver.tol = f32() ? 1e-3 : 1e-10;  // the elliptic variant's c solve (f32 stalls near 1e-4 here)
    auto st = make(s);
    const double m0 = mass(st->values(comp_n), s.grid);
    st->advance(300);  // before the peak outgrows the step (about step 350)
    const std::vector<double> n = st->values(comp_n);
    EXPECT_NEAR(mass(n, s.grid) / m0, 1.0, tol(1e-12, 2e-6));
    const double peak0 = *std::max_element(s.n0.begin(), s.n0.end()), peak = *std::max_element(n.begin(), n.end());
    EXPECT_GT(peak, 1.05 * peak0) << "n should aggregate (chi = 30): the test would compare nothing";
  }
};

TEST_P(KellerSegelTest, ParabolicParabolicConservesTheMassOfN) { expect_mass_conserved(ChemotaxisKind::keller_segel); }

TEST_P(KellerSegelTest, ParabolicEllipticConservesTheMassOfN) {
  expect_mass_conserved(ChemotaxisKind::keller_segel_elliptic);
}

// The elliptic variant's c solves c - lap c = n: with zero flux, the mean of c equals the mean of n.
TEST_P(KellerSegelTest, EllipticConcentrationHasTheMeanOfN) {
  ChemotaxisSpec s = aggregation(ChemotaxisKind::keller_segel_elliptic, 30.0);
  s.solver.tol = f32() ? 1e-3 : 1e-10;
  auto st = make(s);
  st->advance(20);
  const FieldStats n = st->stats(comp_n), c = st->stats(comp_c);
  EXPECT_NEAR(c.mean / n.mean, 1.0, tol(1e-9, 1e-4));
}

TEST_P(KellerSegelTest, WarnsOnceWhenTheMaximumGrowsPastItsFactor) {
  ChemotaxisSpec s = aggregation(ChemotaxisKind::keller_segel, 30.0);
  s.growth_warning = 1.02;
  auto st = make(s);
  EXPECT_EQ(st->warning(), "") << "nothing has grown yet";
  st->advance(300);
  EXPECT_NE(st->warning().find("concentrates toward blow-up"), std::string::npos);
  EXPECT_EQ(st->warning(), "") << "the warning is given once";
  s.growth_warning = 100;
  auto quiet = make(s);
  quiet->advance(300);
  EXPECT_EQ(quiet->warning(), "");
}

INSTANTIATE_TEST_SUITE_P(Backends, KellerSegelTest, ::testing::ValuesIn(backend_cases()), backend_case_name);

}  // namespace
}  // namespace pdex::test
