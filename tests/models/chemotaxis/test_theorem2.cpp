// Seed 002's Theorem 2 evaluated for a grid and step: the Laplacian limits h_t to 1 / (2/dx^2 + 2/dy^2),
// the nonlinear part to 1 / F_max, and rho = ||I + h_t G|| + h_t F_max is 1 + h_t F_max below both.
#include <gtest/gtest.h>

#include "pdex/models/chemotaxis/chemotaxis_stability.hpp"

namespace pdex {
namespace {

ChemotaxisSpec keller_segel(int nx, int ny, double chi, double n_value) {
  ChemotaxisSpec s;
  s.kind = ChemotaxisKind::keller_segel;
  s.grid = Grid2{nx, ny, 1.0 / nx, 1.0 / ny};
  s.bc = FieldBoundary::all(BcKind::neumann);
  s.chi = chi;
  s.n0.assign(std::size_t(nx) * ny, n_value);
  s.c0.assign(std::size_t(nx) * ny, 1.0);
  return s;
}

TEST(Theorem2, TheLaplacianLimitsTheStepWhenTheNonlinearPartIsWeak) {
  ChemotaxisSpec s = keller_segel(32, 16, 1e-3, 1.0);
  s.dt = 1e-5;
  const Theorem2Bound t = chemotaxis_theorem2(s);
  EXPECT_DOUBLE_EQ(t.dt_linear, 1 / (2.0 * 32 * 32 + 2.0 * 16 * 16));
  EXPECT_EQ(t.dt_max, t.dt_linear);
  EXPECT_DOUBLE_EQ(t.norm_linear, 1.0);
  EXPECT_DOUBLE_EQ(t.rho, 1 + s.dt * t.f_max);
  s.dt = 1.5 * t.dt_linear;
  EXPECT_GT(chemotaxis_theorem2(s).norm_linear, 1.0) << "beyond the limit the Laplacian's rows exceed 1";
}

// Seed 002's system with uniform n = 100, c = 1 and a flat potential: F_max is the n row's cross-diffusion
// through c, 2 n (2/dx^2 + 2/dy^2) for S = I, and it limits the step far below the Laplacian.
TEST(Theorem2, CrossDiffusionLimitsTheSeedSystemsStepByFMax) {
  ChemotaxisSpec s;
  s.grid = Grid2{32, 32, 1.0 / 32, 1.0 / 32};
  const std::size_t cells = std::size_t(s.grid.cells());
  s.n0.assign(cells, 100.0);
  s.c0.assign(cells, 1.0);
  s.phi.assign(std::size_t(34 * 34), 0.5);
  s.dt = 1e-7;
  const Theorem2Bound t = chemotaxis_theorem2(s);
  EXPECT_DOUBLE_EQ(t.f_max, 2 * 100.0 * (2.0 * 32 * 32 + 2.0 * 32 * 32));
  EXPECT_DOUBLE_EQ(t.dt_max, 1 / t.f_max);
  EXPECT_LT(t.dt_max, t.dt_linear / 100);
  EXPECT_DOUBLE_EQ(t.rho, t.norm_linear + s.dt * t.f_max);
}

// Keller-Segel keeps the Laplacian and the drift chi grad c: with uniform c, only the Laplacian.
TEST(Theorem2, KellerSegelIsLimitedByTheLaplacianAndTheDrift) {
  ChemotaxisSpec s = keller_segel(32, 32, 1.0, 100.0);
  EXPECT_EQ(chemotaxis_theorem2(s).dt_max, chemotaxis_theorem2(s).dt_linear);
  for (int j = 0; j < 32; ++j)
    for (int i = 0; i < 32; ++i) s.c0[std::size_t(j) * 32 + i] = 1e4 * (i + 0.5) / 32;  // chi c_x = 1e4
  const Theorem2Bound t = chemotaxis_theorem2(s);
  EXPECT_NEAR(t.f_max, 1e4 * 32, 1e-9 * 1e4 * 32);
  EXPECT_DOUBLE_EQ(t.dt_max, 1 / t.f_max);
}

}  // namespace
}  // namespace pdex
