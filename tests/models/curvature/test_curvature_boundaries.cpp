// Boundary conditions of the curvature flows as seed 003 specifies them (eqs. 8-9, 19-20): Dirichlet
// values are held, Neumann sides let no slope through. Mean-curvature flow between a Dirichlet side at 0
// and one at 1, Neumann elsewhere, must settle on the plane through them (a minimal graph, which the
// scheme keeps exactly); with Dirichlet value 0.5 on every side, on the constant 0.5.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "models/curvature/curvature_test_support.hpp"

namespace pdex::test {
namespace {

class CurvatureBoundaries : public CurvatureBackendTest {};

CurvatureSpec bump_spec(const FieldBoundary& bc, double base) {
  CurvatureSpec s;
  s.grid = Grid2{16, 16, 0.125, 0.125, -1.0, -1.0};
  s.bc = bc;
  for (int j = 0; j < 16; ++j)
    for (int i = 0; i < 16; ++i)
      s.phi0.push_back(base + 0.3 * std::cos(1.5 * s.grid.x(i)) * std::cos(1.5 * s.grid.y(j)));
  s.tol = 1e-6;
  s.dt = 1e-4;
  return s;
}

TEST_P(CurvatureBoundaries, DirichletValueIsReachedEverywhere) {
  auto s = make(bump_spec(FieldBoundary::all(BcKind::dirichlet, 0.5), 0.5));
  s->advance_to(2.0);
  const std::vector<double> v = s->values(0);
  for (double x : v) ASSERT_NEAR(x, 0.5, 1e-3);
}

TEST_P(CurvatureBoundaries, DirichletAndNeumannSidesGiveThePlaneBetweenThem) {
  FieldBoundary bc = FieldBoundary::all(BcKind::neumann);
  bc.side[left][0] = SideBc{BcKind::dirichlet, 0.0};
  bc.side[right][0] = SideBc{BcKind::dirichlet, 1.0};
  const CurvatureSpec spec = bump_spec(bc, 0.5);
  auto s = make(spec);
  s->advance_to(3.0);
  const std::vector<double> v = s->values(0);
  for (int j = 0; j < 16; ++j)
    for (int i = 0; i < 16; ++i) ASSERT_NEAR(v[std::size_t(j) * 16 + i], (spec.grid.x(i) + 1) / 2, 2e-3) << i << "," << j;
  // The Neumann sides: the top and bottom rows equal their neighbours (no slope through them).
  EXPECT_NEAR(v[3], v[16 + 3], 1e-4);
}

TEST_P(CurvatureBoundaries, ManufacturedSolutionRefusesOtherBoundaries) {
  CurvatureSpec spec;
  spec.grid = Grid2{8, 8, 1.0, 1.0, -4, -4};
  spec.manufactured = true;
  spec.bc = FieldBoundary::all(BcKind::dirichlet, 1.0);
  EXPECT_THROW(make(spec), InputError);
}

INSTANTIATE_TEST_SUITE_P(AllBackends, CurvatureBoundaries, ::testing::ValuesIn(backend_cases()), backend_case_name);

}  // namespace
}  // namespace pdex::test
