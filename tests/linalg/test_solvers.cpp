// Every solver, on every backend, in both precisions, reaches its tolerance on a manufactured Poisson
// problem for each boundary kind, and the answer is the exact solution to discretization accuracy.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
#include <vector>

#include "linalg/poisson_problems.hpp"
#include "pdex/core/executor.hpp"

namespace pdex::test {
namespace {

struct Case {
  SolverMethod method;
  Preconditioner pre = Preconditioner::jacobi;
  int n = 48;
};

const Case cases[] = {{SolverMethod::jacobi, Preconditioner::none, 24},
                      {SolverMethod::weighted_jacobi, Preconditioner::none, 24},
                      {SolverMethod::rbgs, Preconditioner::none, 24},
                      {SolverMethod::sor, Preconditioner::none, 48},
                      {SolverMethod::cg, Preconditioner::none},
                      {SolverMethod::pcg, Preconditioner::jacobi},
                      {SolverMethod::pcg, Preconditioner::multigrid, 50},
                      {SolverMethod::bicgstab, Preconditioner::none},
                      {SolverMethod::bicgstab, Preconditioner::multigrid, 50},
                      {SolverMethod::multigrid, Preconditioner::none, 50}};

using Param = std::tuple<Case, BcKind, Backend, Precision>;

class SolverTest : public ::testing::TestWithParam<Param> {};

TEST_P(SolverTest, ReachesToleranceAndTheManufacturedSolution) {
  const auto [c, kind, backend, precision] = GetParam();
  if (!backend_available(backend)) GTEST_SKIP() << "no CUDA device: " << backend_unavailable_reason(backend);
  // Plain Jacobi cannot converge on pure-Neumann Poisson: the checkerboard mode has iteration eigenvalue -1
  // (docs/solvers.md); weighted Jacobi is the relaxation for singular problems.
  if (c.method == SolverMethod::jacobi && kind == BcKind::neumann) GTEST_SKIP() << "plain Jacobi diverges here by theory";
  SolverSettings s;
  s.method = c.method;
  s.preconditioner = c.pre;
  // fp32's floor: residuals of O(1/h^2) stencil sums lose digits to cancellation.
  s.tol = precision == Precision::f64 ? 1e-9 : 5e-4;
  s.max_iter = 40000;
  const Manufactured m = manufactured_poisson(kind, c.n, s);
  auto solver = make_elliptic_solver(m.spec, backend, precision);
  solver->set(std::vector<double>(m.f.size(), 0.0), m.f);
  const SolveStats st = solver->solve();
  EXPECT_TRUE(st.converged) << "iterations " << st.iterations << ", residual " << st.residual;
  EXPECT_LE(st.residual, s.tol);
  EXPECT_LE(solver->relative_residual(), precision == Precision::f64 ? 1e-8 : 1e-3);
  // Second-order discretization: error ~ C h^2 with C of order 1 for these modes (h = 1/n).
  const double h = 1.0 / c.n;
  EXPECT_LT(max_error(solver->solution(), m.exact), 1.5 * h * h * 10) << "iterations " << st.iterations;
}

std::string name(const ::testing::TestParamInfo<Param>& info) {
  const auto [c, kind, backend, precision] = info.param;
  std::string n = std::string(solver_method_name(c.method));
  if (c.method == SolverMethod::pcg || c.method == SolverMethod::bicgstab) {
    n += '_';
    n += preconditioner_name(c.pre);
  }
  for (std::string_view part : {std::string_view(kind_name(kind)), backend_name(backend), precision_name(precision)}) {
    n += '_';
    n += part;
  }
  return n;
}

INSTANTIATE_TEST_SUITE_P(All, SolverTest,
                         ::testing::Combine(::testing::ValuesIn(cases),
                                            ::testing::Values(BcKind::dirichlet, BcKind::neumann, BcKind::periodic),
                                            ::testing::Values(Backend::serial, Backend::openmp, Backend::cuda),
                                            ::testing::Values(Precision::f64, Precision::f32)),
                         name);


// On the GPU relaxation solves queue their sweeps with the change tests on the device, the host reading
// the tests a queue at a time (LinearSolver::relax_queued); the sweeps queued after a passed test do
// nothing. The CPU tests after each check. Both must take the same sweeps, pass the same test and end in
// the same field: a change test every sweep and every 3 to 6 (the sweeps between two tests go three to a
// launch there: fused_sweeps), with the residual test after it, which fails at first, so the solve goes
// on in a new queue; without a change test, the residual tests alone (queued on the device too); a
// sweep cap that ends a solve between two tests; on 40 x 40 cells (every tile of the GPU's sweeps
// touches a side) and on 136 x 136 (inner tiles too). The residual histories must agree (to the
// rounding of fields that agree to 1e-10: near convergence a residual is a difference of nearly equal
// values).
struct QueuedCase {
  SolverMethod method;
  int check_every;
  double change_tol, tol;
  int max_iter;
  int n = 40;
};

class QueuedRelaxation : public ::testing::TestWithParam<std::tuple<QueuedCase, BcKind>> {};

TEST_P(QueuedRelaxation, CudaTakesTheSweepsAndTestsOfTheCpu) {
  const auto [c, kind] = GetParam();
  if (!backend_available(Backend::cuda))
    GTEST_SKIP() << "no CUDA device: " << backend_unavailable_reason(Backend::cuda);
  SolverSettings s;
  s.method = c.method;
  s.check_every = c.check_every;
  s.change_tol = c.change_tol;
  s.tol = c.tol;
  s.max_iter = c.max_iter;
  const Manufactured m = manufactured_poisson(kind, c.n, s);
  SolveStats st[2];
  std::vector<double> u[2];
  const Backend backends[2] = {Backend::serial, Backend::cuda};
  for (int k = 0; k < 2; ++k) {
    auto solver = make_elliptic_solver(m.spec, backends[k], Precision::f64);
    solver->set(std::vector<double>(m.f.size(), 0.0), m.f);
    st[k] = solver->solve();
    u[k] = solver->solution();
  }
  EXPECT_EQ(st[1].iterations, st[0].iterations);
  EXPECT_EQ(st[1].converged, st[0].converged);
  ASSERT_EQ(st[1].history.size(), st[0].history.size()) << "residual tests";
  for (std::size_t t = 0; t < st[0].history.size(); ++t)
    EXPECT_NEAR(st[1].history[t], st[0].history[t], 1e-6 * st[0].history[t] + 1e-12) << "residual test " << t;
  double diff = 0, scale = 0;
  for (std::size_t q = 0; q < u[0].size(); ++q) {
    diff = std::max(diff, std::abs(u[1][q] - u[0][q]));
    scale = std::max(scale, std::abs(u[0][q]));
  }
  EXPECT_LE(diff, 1e-10 * scale) << "after " << st[0].iterations << " sweeps";
  // Near convergence a change is a difference of nearly equal values: round-off of the values counts.
  EXPECT_NEAR(st[1].change, st[0].change, 1e-9 * st[0].change + 1e-13 * scale);
}

const QueuedCase queued_cases[] = {{SolverMethod::rbgs, 1, 1e-7, 0, 20000},
                                   {SolverMethod::sor, 4, 1e-5, 1e-9, 20000},
                                   {SolverMethod::jacobi, 1, 1e-7, 0, 20000},
                                   {SolverMethod::weighted_jacobi, 4, 1e-5, 1e-9, 20000},
                                   {SolverMethod::rbgs, 4, 1e-12, 0, 37},
                                   {SolverMethod::jacobi, 6, 1e-12, 0, 37},
                                   {SolverMethod::sor, 3, 1e-9, 1e-9, 20000, 136},
                                   {SolverMethod::jacobi, 5, 1e-12, 0, 203, 136},
                                   {SolverMethod::rbgs, 6, 1e-9, 0, 20000, 136},
                                   {SolverMethod::sor, 6, 1e-12, 0, 40, 136},
                                   {SolverMethod::weighted_jacobi, 6, 0, 1e-8, 600, 136},
                                   {SolverMethod::rbgs, 1, 0, 1e-6, 20000},
                                   {SolverMethod::jacobi, 4, 0, 1e-6, 20000},
                                   {SolverMethod::sor, 6, 0, 1e-9, 20000, 136}};

INSTANTIATE_TEST_SUITE_P(All, QueuedRelaxation,
                         ::testing::Combine(::testing::ValuesIn(queued_cases),
                                            ::testing::Values(BcKind::dirichlet, BcKind::neumann,
                                                              BcKind::periodic)));

}  // namespace
}  // namespace pdex::test
