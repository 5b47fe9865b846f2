// The stability guard ard_stable_step(): exact for isotropic diffusion, and tight. A checkerboard is
// the discrete Laplacian's fastest mode (eigenvalue -4 (1/dx^2 + 1/dy^2)); forward Euler multiplies
// it by 1 - 2 dt / dt_max per step, so it must grow at 1.05 dt_max and decay at 0.95 dt_max.
#include <gtest/gtest.h>

#include <cmath>

#include "models/ard_test_support.hpp"
#include "pdex/models/ard/ard_stability.hpp"

namespace pdex::test {
namespace {

ArdSpec diffusion_spec(double dx, double dy, double Du, double Dv) {
  return inert_diffusion_spec(Grid2{16, 16, dx, dy}, Du, Dv, FieldBoundary::all(BcKind::periodic));
}

TEST(StableStep, IsotropicDiffusionLimitIsDx2Over4DExactlyForDyadicValues) {
  EXPECT_EQ(ard_stable_step(diffusion_spec(1.0, 1.0, 0.25, 0.125)).dt_max, 1.0);
  EXPECT_EQ(ard_stable_step(diffusion_spec(0.5, 0.5, 0.0625, 0.0)).dt_max, 1.0);
  EXPECT_EQ(ard_stable_step(diffusion_spec(2.0, 2.0, 0.5, 0.5)).dt_max, 2.0);
  EXPECT_EQ(ard_stable_step(diffusion_spec(1.0, 1.0, 1.0 / 16, 0.5)).dt_max, 0.5);  // Turing's defaults
}

TEST(StableStep, IsotropicDiffusionLimitIsDx2Over4DToTheUlpAndUsesTheLargerDiffusivity) {
  EXPECT_DOUBLE_EQ(ard_stable_step(diffusion_spec(0.7, 0.7, 0.3, 0.1)).dt_max, 0.7 * 0.7 / (4 * 0.3));
  EXPECT_DOUBLE_EQ(ard_stable_step(diffusion_spec(0.7, 0.7, 0.1, 0.3)).dt_max, 0.7 * 0.7 / (4 * 0.3));
  // dx != dy: dt_max = 1 / (2 D (1/dx^2 + 1/dy^2)).
  EXPECT_DOUBLE_EQ(ard_stable_step(diffusion_spec(0.5, 1.5, 0.2, 0.0)).dt_max,
                   1 / (2 * 0.2 * (1 / 0.25 + 1 / 2.25)));
}

TEST(StableStep, NoDiffusionAndNoAdvectionHasNoLimit) {
  EXPECT_TRUE(std::isinf(ard_stable_step(diffusion_spec(1.0, 1.0, 0.0, 0.0)).dt_max));
}

class CheckerboardTest : public ArdBackendTest {
 protected:
  // max |u| after 100 steps of a unit checkerboard at `factor` times the stable step.
  double amplitude_after(double factor, double dx, double dy) {
    const Grid2 g{16, 12, dx, dy};
    ArdSpec s = inert_diffusion_spec(g, 0.3, 0.15, FieldBoundary::all(BcKind::periodic));
    std::vector<double> checker(std::size_t(g.cells()));
    for (int j = 0; j < g.ny; ++j)
      for (int i = 0; i < g.nx; ++i) checker[std::size_t(j) * g.nx + i] = (i + j) % 2 ? -1.0 : 1.0;
    s.initial[0] = checker;
    s.initial[1] = s.initial[0];
    s.dt = factor * ard_stable_step(s).dt_max;
    auto st = make(s);
    st->advance(100);
    return max_abs(st->values(0));
  }
};

// Factors per step: |1 - 2 * 1.05| = 1.1 (x 1.4e4 over 100 steps), |1 - 2 * 0.95| = 0.9 (x 2.7e-5).
TEST_P(CheckerboardTest, GrowsAt105PercentOfTheStableStepAndDecaysAt95Percent) {
  for (const auto& [dx, dy] : {std::pair{1.0, 1.0}, std::pair{0.5, 0.5}, std::pair{0.5, 0.8}}) {
    SCOPED_TRACE(::testing::Message() << "dx " << dx << ", dy " << dy);
    EXPECT_GT(amplitude_after(1.05, dx, dy), 1e3);
    EXPECT_LT(amplitude_after(0.95, dx, dy), 1e-3);
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, CheckerboardTest, ::testing::ValuesIn(backend_cases()), backend_case_name);

}  // namespace
}  // namespace pdex::test
