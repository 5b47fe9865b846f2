// The schemes of seed 003 converge with order 2 against the manufactured solution (docs/curvature.md),
// as the seed's Tables 2-4 report: mean-curvature flow in f32 and f64, Willmore flow in f64, with
// Neumann and with Dirichlet boundaries. Space-time errors of eqs. 31-33, EOC of eq. 34.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "models/curvature/curvature_test_support.hpp"

namespace pdex::test {
namespace {

void expect_second_order(const std::vector<EocRow>& rows, const std::string& what) {
  for (std::size_t r = 1; r < rows.size(); ++r) {
    const EocRow& e = rows[r];
    EXPECT_NEAR(e.eoc_l1, 2.0, 0.15) << what << " n=" << e.n << " L1 " << e.l1;
    EXPECT_NEAR(e.eoc_l2, 2.0, 0.15) << what << " n=" << e.n << " L2 " << e.l2;
    EXPECT_GT(e.eoc_linf, 1.55) << what << " n=" << e.n << " Linf " << e.linf;
  }
}

class CurvatureConvergence : public CurvatureBackendTest {};

// Grids 16, 32, 64 on (-4, 4)^2 to T = 0.1 (the seed's domain and time).
TEST_P(CurvatureConvergence, MeanCurvatureFlowIsSecondOrder) {
  for (BcKind bc : {BcKind::neumann, BcKind::dirichlet}) {
    VerifyOptions o = study(Flow::mean_curvature, bc);
    o.sizes = {16, 32, 64};
    expect_second_order(curvature_eoc(o), bc == BcKind::neumann ? "neumann" : "dirichlet");
  }
}

// Fourth order in space makes explicit steps ~h^4: grids 16 and 32 to T = 0.01 keep the test short; the
// EOC there is already 2 (1.99 to 2.04 in L1 and L2). `pdex verify curvature` runs the finer grids.
TEST_P(CurvatureConvergence, WillmoreFlowIsSecondOrderInDouble) {
  if (f32()) GTEST_SKIP() << "seed 003: Willmore flow in single precision does not give reasonable results";
  for (BcKind bc : {BcKind::neumann, BcKind::dirichlet}) {
    VerifyOptions o = study(Flow::willmore, bc);
    o.sizes = {16, 32};
    o.t_end = 0.01;
    expect_second_order(curvature_eoc(o), bc == BcKind::neumann ? "neumann" : "dirichlet");
  }
}

INSTANTIATE_TEST_SUITE_P(AllBackends, CurvatureConvergence, ::testing::ValuesIn(backend_cases()), backend_case_name);

}  // namespace
}  // namespace pdex::test
