// Keller-Segel on 3D grids: the mass of n is conserved to rounding by both variants while chemotaxis moves it;
// the elliptic c has the mean of n; a state that is the same in every plane is the 2D run in every plane
// (bitwise for the parabolic variant: the z fluxes and the z part of lap c are exactly 0); the backends
// agree (OpenMP bitwise); Theorem 2's step counts the z axis.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "models/ard_test_support.hpp"
#include "pdex/models/chemotaxis/chemotaxis_stability.hpp"
#include "pdex/models/chemotaxis/chemotaxis_stepper.hpp"

namespace pdex::test {
namespace {

// A bump of n off centre over a background, c from a tilted start, on a 20 x 16 x 12 box of the unit cube.
ChemotaxisSpec aggregation_3d(ChemotaxisKind kind, double chi) {
  ChemotaxisSpec s;
  s.kind = kind;
  s.grid = Grid2{20, 16, 1.0 / 20, 1.0 / 16};
  s.grid.nz = 12, s.grid.dz = 1.0 / 12;
  s.bc = FieldBoundary::all(BcKind::neumann);
  s.chi = chi;
  for_each_cell(s.grid.extents(), [&](int i, int j, int k) {
    const double x = s.grid.x(i), y = s.grid.y(j), z = s.grid.z(k);
    s.n0.push_back(1 + 40 * std::exp(-((x - 0.4) * (x - 0.4) + (y - 0.55) * (y - 0.55) + (z - 0.5) * (z - 0.5)) / 0.02));
    s.c0.push_back(0.5 + x * y + 0.3 * z);
  });
  s.dt = 0.5 * chemotaxis_theorem2(s).dt_max;
  return s;
}

double sum(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }

class KellerSegel3dTest : public ArdBackendTest {
 protected:
  std::unique_ptr<Stepper> make(const ChemotaxisSpec& s) const {
    return make_chemotaxis_stepper(s, GetParam().backend, GetParam().precision);
  }
};

TEST_P(KellerSegel3dTest, BothVariantsConserveTheMassOfNWhileChemotaxisMovesIt) {
  for (ChemotaxisKind kind : {ChemotaxisKind::keller_segel, ChemotaxisKind::keller_segel_elliptic}) {
    ChemotaxisSpec s = aggregation_3d(kind, 6.0);
    s.solver.method = SolverMethod::multigrid;
    s.solver.tol = f32() ? 1e-3 : 1e-10;  // the elliptic c solve (f32 stalls near 1e-4)
    auto st = make(s);
    const double m0 = sum(st->values(comp_n));
    st->advance(150);
    const std::vector<double> n = st->values(comp_n);
    EXPECT_NEAR(sum(n) / m0, 1.0, tol(1e-12, 2e-6)) << int(kind);
    ChemotaxisSpec still = s;
    still.chi = 0;
    auto diffusing = make(still);
    diffusing->advance(150);
    EXPECT_GT(max_abs_diff(n, diffusing->values(comp_n)), 0.5) << "chemotaxis moved n: the test compares something";
    if (kind == ChemotaxisKind::keller_segel_elliptic) {
      EXPECT_NEAR(st->stats(comp_c).mean / st->stats(comp_n).mean, 1.0, tol(1e-9, 1e-4)) << "c - lap c = n keeps the mean";
    }
  }
}

// The 2D start copied into every plane: every plane holds the 2D run's state.
TEST_P(KellerSegel3dTest, AStateUniformInZIsThe2dRunInEveryPlane) {
  for (ChemotaxisKind kind : {ChemotaxisKind::keller_segel, ChemotaxisKind::keller_segel_elliptic}) {
    ChemotaxisSpec flat = aggregation_3d(kind, 20.0);
    flat.grid.nz = 1;
    flat.n0.resize(std::size_t(flat.grid.cells()));
    flat.c0.resize(std::size_t(flat.grid.cells()));
    flat.solver.method = SolverMethod::multigrid;
    flat.solver.tol = f32() ? 1e-5 : 1e-12;
    ChemotaxisSpec deep = flat;
    deep.grid.nz = 5;
    deep.n0.clear(), deep.c0.clear();
    for (int k = 0; k < 5; ++k) {
      deep.n0.insert(deep.n0.end(), flat.n0.begin(), flat.n0.end());
      deep.c0.insert(deep.c0.end(), flat.c0.begin(), flat.c0.end());
    }
    auto s2 = make(flat), s3 = make(deep);
    s2->advance(40);
    s3->advance(40);
    for (int field : {comp_n, comp_c}) {
      const std::vector<double> u2 = s2->values(field), u3 = s3->values(field);
      for (int k = 0; k < 5; ++k) {
        const std::vector<double> plane(u3.begin() + std::ptrdiff_t(k * u2.size()), u3.begin() + std::ptrdiff_t((k + 1) * u2.size()));
        if (kind == ChemotaxisKind::keller_segel) {
          EXPECT_EQ(plane, u2) << "field " << field << " plane " << k;
        } else {
          EXPECT_LT(max_abs_diff(plane, u2), tol(1e-9, 1e-3)) << "field " << field << " plane " << k;
        }
      }
    }
  }
}

// Parabolic: OpenMP equals serial bitwise, CUDA within rounding; elliptic within the solver's tolerance.
TEST_P(KellerSegel3dTest, BackendsAgreeWithSerial) {
  for (ChemotaxisKind kind : {ChemotaxisKind::keller_segel, ChemotaxisKind::keller_segel_elliptic}) {
    ChemotaxisSpec s = aggregation_3d(kind, 6.0);
    s.solver.method = SolverMethod::multigrid;
    s.solver.tol = f32() ? 1e-5 : 1e-12;
    auto serial = make_chemotaxis_stepper(s, Backend::serial, GetParam().precision), other = make(s);
    serial->advance(30);
    other->advance(30);
    if (GetParam().backend == Backend::openmp && kind == ChemotaxisKind::keller_segel) {
      EXPECT_EQ(other->values(comp_n), serial->values(comp_n));
    }
    EXPECT_LT(max_abs_diff(other->values(comp_n), serial->values(comp_n)), tol(1e-9, 1e-3)) << int(kind);
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, KellerSegel3dTest, ::testing::ValuesIn(backend_cases()), backend_case_name);

// The Laplacians' row bound with the z axis: an interior cell's row of I + dt G is 1 up to
// dt = 1 / (2 (1/dx^2 + 1/dy^2 + 1/dz^2)).
TEST(Theorem2In3d, TheLinearLimitCountsTheZAxis) {
  ChemotaxisSpec s = aggregation_3d(ChemotaxisKind::keller_segel, 0.0);
  const Grid2 g = s.grid;
  const double expected = 0.5 / (1 / (g.dx * g.dx) + 1 / (g.dy * g.dy) + 1 / (g.dz * g.dz));
  EXPECT_NEAR(chemotaxis_theorem2(s).dt_linear, expected, 1e-15);
  s.grid.nz = 1;
  s.n0.resize(std::size_t(s.grid.cells())), s.c0.resize(std::size_t(s.grid.cells()));
  EXPECT_NEAR(chemotaxis_theorem2(s).dt_linear, 0.5 / (1 / (g.dx * g.dx) + 1 / (g.dy * g.dy)), 1e-15) << "the 2D limit";
}

}  // namespace
}  // namespace pdex::test
