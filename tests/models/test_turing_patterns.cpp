// Turing's morphogens (seed 000, eqs. 3-4, Fig. 9) with the catalog's default parameters: from small
// noise around the homogeneous steady state u = v = 4, a spot pattern grows and saturates.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "models/ard_test_support.hpp"
#include "pdex/models/ard/ard_stability.hpp"

namespace pdex::test {
namespace {

TEST(ComponentCount, CountsWrappedFourConnectedRegions) {
  // 6 x 4: a block touching the left and right sides is one region across the seam; a diagonal pair
  // is two regions.
  const std::vector<double> u = {1, 0, 0, 0, 0, 1,  //
                                 1, 0, 0, 0, 0, 1,  //
                                 0, 0, 1, 0, 0, 0,  //
                                 0, 0, 0, 1, 0, 0};
  EXPECT_EQ(components(u, 6, 4, 0.5, true), 3);
  EXPECT_EQ(components(u, 6, 4, 0.5, false), 1);
}

class TuringPatternTest : public ArdBackendTest {};

// 128 x 128 cells, t = 12,000, alpha varying by +-0.1 per cell as in the seed's runs (it breaks the
// symmetry far faster than the state's own noise when Dv/Du sits just past the Turing threshold).
// Observed with Dv = 0.26: saturated by t ~ 5,000, ~47 spots; with the earlier Dv = 0.5: by t ~ 2,000,
// ~20 spots. The step is the catalog's suggestion when it is stable, else 0.8 of the stability bound.
TEST_P(TuringPatternTest, SpotsGrowFromNoiseSaturateAndNumberBetween5And400) {
  const Grid2 g{128, 128};
  ArdSpec s = catalog_spec("turing", g);
  s.params["alpha"].cells = uniform_noise(std::size_t(g.cells()), s.params["alpha"].value, 0.1, 50);
  s.initial[0] = uniform_noise(std::size_t(g.cells()), 4.0, 0.01, 51);
  s.initial[1] = uniform_noise(std::size_t(g.cells()), 4.0, 0.01, 52);
  s.dt = std::min(s.dt, 0.8 * ard_stable_step(s).dt_max);
  const int64_t steps = int64_t(std::llround(12000 / s.dt));
  auto st = make(s);
  st->advance(steps * 3 / 4);
  const double var_initial = variance(initial_of(s, 0)), var_three_quarters = variance(st->values(0));
  st->advance(steps - steps * 3 / 4);
  const auto u = st->values(0);
  const double var_end = variance(u);
  ASSERT_EQ(st->first_nonfinite(0), -1);
  // Grows by orders of magnitude (3e-5 to 3.5-9 observed).
  EXPECT_GT(var_end, 1e3 * var_initial);
  // Saturated: less than 10% growth over the last quarter (under 2% observed).
  EXPECT_LT(var_end, 1.1 * var_three_quarters);
  expect_spot_pattern(u, g);
}

INSTANTIATE_TEST_SUITE_P(Backends, TuringPatternTest,
                         ::testing::ValuesIn(backend_cases({Backend::openmp, Backend::cuda})), backend_case_name);

// Each catalog model, run at the catalog's suggested step from noise around its default state, must
// stay finite: the step is what `pdex run` uses when a configuration gives none.
class CatalogStepTest : public ::testing::TestWithParam<std::string> {};

// The suggested dt must survive the stiffness of each model's own pattern, not only the diffusion limit
// (brusselator: the peaks, u ~ 11, give dg/dv = -u^2 ~ -130, so forward Euler needs dt < 2/130).
TEST_P(CatalogStepTest, SuggestedStepKeepsTheDefaultsFinite) {
  const Grid2 g{64, 64};
  ArdSpec s = catalog_spec(GetParam(), g);
  EXPECT_LE(s.dt, ard_stable_step(s).dt_max);
  const int species = int(s.species.size());
  for (int c = 0; c < species; ++c)
    s.initial[std::size_t(c)] = uniform_noise(std::size_t(g.cells()), ard_reaction(GetParam()).initial[std::size_t(c)], 0.01, 61 + c);
  auto st = make_ard_stepper(s, Backend::openmp, Precision::f64);
  st->advance(3000);
  for (int c = 0; c < species; ++c) {
    EXPECT_EQ(st->first_nonfinite(c), -1) << c;
    EXPECT_LT(max_abs(st->values(c)), 1e3) << c;
  }
}

std::vector<std::string> catalog_names() {
  std::vector<std::string> out;
  for (const ReactionInfo& r : ard_catalog()) out.push_back(r.name);
  return out;
}

INSTANTIATE_TEST_SUITE_P(Catalog, CatalogStepTest, ::testing::ValuesIn(catalog_names()),
                         [](const auto& p) { return p.param; });

}  // namespace
}  // namespace pdex::test
