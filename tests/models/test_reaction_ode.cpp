// A uniform state stays uniform (the Laplacian of a constant is exactly zero), so every cell follows
// the reaction ODE u' = f(u, v), v' = g(u, v). Forward Euler must converge to the ODE's solution (an
// RK4 reference at a step 100 times smaller) at first order: halving dt halves the error.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>

#include "models/ard_test_support.hpp"

namespace pdex::test {
namespace {

struct State {
  double u, v;
};
using Kinetics = std::function<State(State)>;

// The kinetics as written in docs/models.md, independently of kinetics/.
State gray_scott(State s, double F, double k) {
  const double uvv = s.u * s.v * s.v;
  return {-uvv + F * (1 - s.u), uvv - (F + k) * s.v};
}
State brusselator(State s, double a, double b) {
  const double uuv = s.u * s.u * s.v;
  return {a - (b + 1) * s.u + uuv, b * s.u - uuv};
}

State rk4(const Kinetics& f, State s, double t_end, int64_t steps) {
  const double h = t_end / double(steps);
  auto axpy = [](State a, double c, State b) { return State{a.u + c * b.u, a.v + c * b.v}; };
  for (int64_t n = 0; n < steps; ++n) {
    const State k1 = f(s), k2 = f(axpy(s, h / 2, k1)), k3 = f(axpy(s, h / 2, k2)), k4 = f(axpy(s, h, k3));
    s = {s.u + h / 6 * (k1.u + 2 * k2.u + 2 * k3.u + k4.u), s.v + h / 6 * (k1.v + 2 * k2.v + 2 * k3.v + k4.v)};
  }
  return s;
}

struct OdeCase {
  std::string reaction;
  std::map<std::string, double> params;  // overrides of the catalog's defaults
  State start;
  double t_end;
  int64_t steps;  // of the coarsest run; then 2x and 4x
  Kinetics f;
};

class ReactionOdeTest : public ArdBackendTest {
 protected:
  void check(const OdeCase& c) {
    const Grid2 g{6, 5};
    ArdSpec s = catalog_spec(c.reaction, g);
    for (const auto& [name, value] : c.params) s.params[name] = ScalarSpec{value, {}};
    s.clamp = false;  // the ODE has no clamp; these trajectories stay positive anyway
    s.initial = {c.start.u, c.start.v};
    const State exact = rk4(c.f, c.start, c.t_end, 100 * 4 * c.steps);
    double err[3];
    for (int level = 0; level < 3; ++level) {
      const int64_t steps = c.steps << level;
      s.dt = c.t_end / double(steps);
      auto st = make(s);
      st->advance(steps);
      const auto u = st->values(0), v = st->values(1);
      // Uniform stays uniform: on the CPU bit for bit (every cell computes the same numbers). nvcc fuses
      // a * b + c into one rounding at its discretion, and not alike in every unrolled copy of a loop
      // (the CUDA tiles walk several cells per thread), so there cells may differ by an ulp or so:
      // measured 1 ulp after 160 steps in f32; bound 16 ulp.
      const double spread = GetParam().backend == Backend::cuda ? tol(1e-14, 1e-6) : 0.0;
      for (const auto* f : {&u, &v}) {
        const double f0 = (*f)[0];
        const auto odd =
            std::find_if(f->begin(), f->end(), [&](double x) { return std::abs(x - f0) > spread * std::abs(f0); });
        EXPECT_TRUE(odd == f->end()) << (f == &u ? "u" : "v") << " at cell " << (odd - f->begin()) << " is "
                                     << *odd << ", cell 0 " << f0 << " (level " << level << ")";
      }
      err[level] = std::hypot(u[0] - exact.u, v[0] - exact.v);
    }
    // First order: the ratio of errors at dt and dt/2 is 2 (to within 10%). The errors (1e-3 to 1e-2
    // of the state) are far above f32 rounding (~1e-6 after 400 steps), so the band holds in f32 too.
    for (int level = 0; level < 2; ++level)
      EXPECT_NEAR(err[level] / err[level + 1], 2.0, 0.2)
          << "errors " << err[level] << " (dt) and " << err[level + 1] << " (dt/2)";
    EXPECT_LT(err[2], 0.02 * std::hypot(exact.u, exact.v));
  }
};

TEST_P(ReactionOdeTest, UniformGrayScottFollowsTheReactionOdeWithFirstOrderEulerError) {
  check(OdeCase{"gray_scott", {{"F", 0.04}, {"k", 0.06}}, {0.6, 0.3}, 40.0, 40,
                [](State s) { return gray_scott(s, 0.04, 0.06); }});
}

TEST_P(ReactionOdeTest, UniformBrusselatorFollowsTheReactionOdeWithFirstOrderEulerError) {
  // b > 1 + a^2: the uniform state leaves the steady point for the limit cycle.
  check(OdeCase{"brusselator", {{"a", 1.0}, {"b", 2.5}}, {1.2, 2.0}, 4.0, 100,
                [](State s) { return brusselator(s, 1.0, 2.5); }});
}

INSTANTIATE_TEST_SUITE_P(Backends, ReactionOdeTest, ::testing::ValuesIn(backend_cases()), backend_case_name);

}  // namespace
}  // namespace pdex::test
