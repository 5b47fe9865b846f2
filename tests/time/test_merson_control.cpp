// Runge-Kutta-Merson's step control (seed 003, Algorithm 4.1): the error stays below the tolerance,
// the step grows on a smooth solution, shrinks when a sudden forcing starts, and rejected steps are
// retried with a smaller step.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "time/ode_support.hpp"

namespace pdex::test {
namespace {

TEST(MersonNextTau, FollowsAlgorithm41Step4) {
  EXPECT_DOUBLE_EQ(merson_next_tau(0.1, 1e-6, 1e-6, 1.0), 0.08);
  EXPECT_DOUBLE_EQ(merson_next_tau(0.1, 32e-6, 1e-6, 1.0), 0.04);
  EXPECT_DOUBLE_EQ(merson_next_tau(0.1, 0.0, 1e-6, 1.0), 1.0);  // e = 0: capped, not infinite
  EXPECT_DOUBLE_EQ(merson_next_tau(0.1, NAN, 1e-6, 1.0), 0.01);
}

template <class E>
class MersonControl : public ExecutorTest<E> {};
TYPED_TEST_SUITE(MersonControl, Executors, ExecutorNames);

template <class E>
MolIntegrator<E, double, OdeSystem> merson(double tau0, double eps, OdeCase c = {}) {
  return MolIntegrator<E, double, OdeSystem>(make_ode_rk(make_executor<E>(), merson_tableau, c), tau0, eps);
}

TYPED_TEST(MersonControl, ErrorStaysBelowTolerance) {
  for (double eps : {1e-5, 1e-7, 1e-9}) {
    auto m = merson<TypeParam>(1e-3, eps);
    m.advance_to(6.0);
    EXPECT_DOUBLE_EQ(m.time(), 6.0);
    EXPECT_LT(ode_error(m.rk().state(), 6.0), eps) << "eps " << eps << " after " << m.stats().accepted << " steps";
  }
}

TYPED_TEST(MersonControl, TighterToleranceTakesMoreSteps) {
  auto loose = merson<TypeParam>(1e-3, 1e-5), tight = merson<TypeParam>(1e-3, 1e-9);
  loose.advance_to(3.0);
  tight.advance_to(3.0);
  // tau ~ eps^(1/5): four orders of magnitude in eps is about 6x the steps.
  EXPECT_GT(double(tight.stats().accepted), 4.0 * double(loose.stats().accepted));
}

TYPED_TEST(MersonControl, StepGrowsWhenSmoothAndShrinksAfterSuddenForcing) {
  auto m = merson<TypeParam>(1e-4, 1e-7, OdeCase{50.0, 200.0, 1.0});
  m.advance_to(1.0);
  const auto& h = m.stats().history;
  const double tau_smooth = h.back().tau;
  EXPECT_GT(tau_smooth, 20 * h.front().tau) << "the step should grow from its small start";
  m.advance_to(1.2);
  double tau_forced = 1e300;
  for (const auto& r : m.stats().history)
    if (r.t > 1.05) tau_forced = std::min(tau_forced, r.tau);
  EXPECT_LT(tau_forced, tau_smooth / 5) << "the step should shrink once the forcing starts";
}

TYPED_TEST(MersonControl, TooLargeFirstStepIsRejectedAndRetried) {
  auto m = merson<TypeParam>(2.0, 1e-8);
  m.advance_to(2.0);
  EXPECT_GE(m.stats().rejected, 1);
  EXPECT_LT(ode_error(m.rk().state(), 2.0), 1e-8);
}

TYPED_TEST(MersonControl, Rk4TakesFixedStepsAndLandsOnTheEndTime) {
  MolIntegrator<TypeParam, double, OdeSystem> m(make_ode_rk(make_executor<TypeParam>(), rk4_tableau), 0.3, 0.0);
  m.advance_to(1.0);  // 0.3, 0.3, 0.3, 0.1
  EXPECT_EQ(m.stats().accepted, 4);
  EXPECT_NEAR(m.stats().history.back().tau, 0.1, 1e-12);
  EXPECT_DOUBLE_EQ(m.time(), 1.0);
}

}  // namespace
}  // namespace pdex::test
