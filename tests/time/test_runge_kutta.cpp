// RK4 and Runge-Kutta-Merson reach fourth order on u' = u cos t (solution u0 exp(sin t)) with fixed
// steps, on every executor.
#include <gtest/gtest.h>

#include <cmath>

#include "time/ode_support.hpp"

namespace pdex::test {
namespace {

template <class E>
class RungeKuttaOrder : public ExecutorTest<E> {};
TYPED_TEST_SUITE(RungeKuttaOrder, Executors, ExecutorNames);

// Error at t = 2 after n fixed steps.
template <class E>
double fixed_step_error(const Tableau& tab, int n) {
  auto rk = make_ode_rk(make_executor<E>(), tab);
  const double tau = 2.0 / n;
  for (int s = 0; s < n; ++s) {
    rk.attempt(s * tau, tau);
    rk.accept();
  }
  return ode_error(rk.state(), 2.0);
}

template <class E>
void expect_fourth_order(const Tableau& tab) {
  const double e1 = fixed_step_error<E>(tab, 20), e2 = fixed_step_error<E>(tab, 40), e3 = fixed_step_error<E>(tab, 80);
  EXPECT_LT(e1, 1e-3) << tab.name;
  EXPECT_NEAR(std::log2(e1 / e2), 4.0, 0.3) << tab.name << ": errors " << e1 << ", " << e2;
  EXPECT_NEAR(std::log2(e2 / e3), 4.0, 0.3) << tab.name << ": errors " << e2 << ", " << e3;
}

TYPED_TEST(RungeKuttaOrder, Rk4IsFourthOrder) { expect_fourth_order<TypeParam>(rk4_tableau); }

TYPED_TEST(RungeKuttaOrder, MersonIsFourthOrder) { expect_fourth_order<TypeParam>(merson_tableau); }

// The error estimate of eq. 28 matches the local error to O(tau^5) only for linear problems with
// constant coefficients; for this time-dependent one it is O(tau^4): halving tau divides it by ~16.
TYPED_TEST(RungeKuttaOrder, MersonErrorEstimateShrinksWithTheStep) {
  auto rk = make_ode_rk(make_executor<TypeParam>(), merson_tableau);
  const double e1 = rk.attempt(0.3, 0.1), e2 = rk.attempt(0.3, 0.05);
  EXPECT_GT(e1, 0.0);
  EXPECT_NEAR(std::log2(e1 / e2), 4.0, 0.3) << e1 << " " << e2;
}

}  // namespace
}  // namespace pdex::test
