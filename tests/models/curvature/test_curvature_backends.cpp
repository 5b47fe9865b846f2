// The curvature engines agree across backends: Serial and OpenMP bit for bit (same kernels, same
// rounding, deterministic reductions, hence the same Merson steps); CUDA within a stated tolerance
// (its compiler contracts multiply-adds and its sin/cos round differently), with fixed RK4 steps so that
// both take the same steps: 1e-11 in f64, 3e-5 in f32, on values of size 1.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "models/curvature/curvature_test_support.hpp"

namespace pdex::test {
namespace {

class CurvatureAgreement : public ::testing::TestWithParam<Precision> {};

CurvatureSpec agreement_spec(Flow flow, const std::string& scheme) {
  VerifyOptions o;
  o.flow = flow;
  CurvatureSpec s = verification_spec(o, 32);
  s.scheme = scheme;
  s.dt = flow == Flow::willmore ? 2e-5 : 1e-3;
  s.tol = 1e-6;
  return s;
}

double max_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0;
  for (std::size_t k = 0; k < a.size(); ++k) d = std::max(d, std::abs(a[k] - b[k]));
  return d;
}

TEST_P(CurvatureAgreement, SerialAndOpenMPAreIdentical) {
  for (Flow flow : {Flow::mean_curvature, Flow::willmore}) {
    const CurvatureSpec spec = agreement_spec(flow, "merson");
    auto a = make_curvature_stepper(spec, Backend::serial, GetParam());
    auto b = make_curvature_stepper(spec, Backend::openmp, GetParam());
    a->advance_to(0.002);
    b->advance_to(0.002);
    EXPECT_EQ(a->step_stats().accepted, b->step_stats().accepted);
    EXPECT_EQ(max_diff(a->values(0), b->values(0)), 0.0);
  }
}

TEST_P(CurvatureAgreement, CudaAgreesWithSerial) {
  if (!backend_available(Backend::cuda)) GTEST_SKIP() << "no CUDA device: " << backend_unavailable_reason(Backend::cuda);
  const double tol = GetParam() == Precision::f32 ? 3e-5 : 1e-11;
  for (Flow flow : {Flow::mean_curvature, Flow::willmore}) {
    const CurvatureSpec spec = agreement_spec(flow, "rk4");
    auto a = make_curvature_stepper(spec, Backend::serial, GetParam());
    auto b = make_curvature_stepper(spec, Backend::cuda, GetParam());
    a->advance(50);
    b->advance(50);
    EXPECT_LT(max_diff(a->values(0), b->values(0)), tol) << (flow == Flow::willmore ? "willmore" : "mean curvature");
    const ErrorSample ea = a->error_vs_exact(), eb = b->error_vs_exact();
    EXPECT_NEAR(ea.linf, eb.linf, tol);
  }
}

// The schemes themselves, without a forcing term, as examples and benchmarks run them (on the GPU
// their mean-curvature kernels are compiled for full occupancy, launch_hint.hpp), under Merson's step
// control to a common end time, which both reach exactly. The step sizes follow the error estimate, a
// difference of stages whose rounding differs between backends, so the runs may take different steps
// (f32 Willmore: 22 and 23 accepted on the H100); the values still agree within the tolerances above
// (measured on the H100: 6e-14 in f64, 2.4e-7 in f32).
TEST_P(CurvatureAgreement, CudaAgreesWithSerialWithoutForcing) {
  if (!backend_available(Backend::cuda)) GTEST_SKIP() << "no CUDA device: " << backend_unavailable_reason(Backend::cuda);
  const double tol = GetParam() == Precision::f32 ? 3e-5 : 1e-11;
  for (Flow flow : {Flow::mean_curvature, Flow::willmore}) {
    CurvatureSpec spec = agreement_spec(flow, "merson");
    const Manufactured<double> m = manufactured_solution(spec);
    spec.manufactured = false;
    for (int j = 0; j < spec.grid.ny; ++j)
      for (int i = 0; i < spec.grid.nx; ++i) spec.phi0.push_back(m.phi(0.0, spec.grid.x(i), spec.grid.y(j)));
    const double end = flow == Flow::willmore ? 0.005 : 0.5;
    auto a = make_curvature_stepper(spec, Backend::serial, GetParam());
    auto b = make_curvature_stepper(spec, Backend::cuda, GetParam());
    a->advance_to(end);
    b->advance_to(end);
    const char* name = flow == Flow::willmore ? "willmore" : "mean curvature";
    EXPECT_EQ(a->time(), end) << name;
    EXPECT_EQ(b->time(), end) << name;
    EXPECT_LT(max_diff(a->values(0), b->values(0)), tol) << name;
  }
}

// On the GPU, f32 mean-curvature cells go two rows at a time (cfvm.hpp's pairs, with the face between
// them evaluated once): a grid of odd height leaves a last row of single cells, and every side's ghosts
// are pushed from pairs. Fixed RK4 steps, so that both backends take the same steps.
TEST_P(CurvatureAgreement, CudaAgreesWithSerialOnAGridOfOddHeight) {
  if (!backend_available(Backend::cuda)) GTEST_SKIP() << "no CUDA device: " << backend_unavailable_reason(Backend::cuda);
  const double tol = GetParam() == Precision::f32 ? 3e-5 : 1e-11;
  for (BcKind bc : {BcKind::neumann, BcKind::dirichlet}) {
    CurvatureSpec spec = agreement_spec(Flow::mean_curvature, "rk4");
    const Grid2 g = spec.grid;
    spec.grid = Grid2{g.nx + 1, g.ny - 1, g.dx, g.dy, g.x0, g.y0};
    spec.bc = FieldBoundary::all(bc, 0.0);
    auto a = make_curvature_stepper(spec, Backend::serial, GetParam());
    auto b = make_curvature_stepper(spec, Backend::cuda, GetParam());
    a->advance(50);
    b->advance(50);
    const std::vector<double> va = a->values(0), vb = b->values(0);
    EXPECT_LT(max_diff(va, vb), tol) << (bc == BcKind::neumann ? "neumann" : "dirichlet");
    EXPECT_GT(*std::max_element(va.begin(), va.end()), 0.1);  // the comparison is not between zeros
  }
}

INSTANTIATE_TEST_SUITE_P(Precisions, CurvatureAgreement, ::testing::Values(Precision::f64, Precision::f32),
                         [](const auto& p) { return std::string(precision_name(p.param)); });

}  // namespace
}  // namespace pdex::test
