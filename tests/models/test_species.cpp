// Any number of species through the advection-reaction-diffusion engine, on every backend: one species
// (Fisher-KPP, whose front travels at 2 sqrt(D r)), three (May-Leonard's rock-paper-scissors, which
// forms rotating spirals) and four (cyclic competition). With alpha + beta = 2 the species' sum S of
// the cyclic models obeys S' = S (1 - S) exactly, so from a uniform S each step's sum is the logistic
// step's, to rounding.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "ard_test_support.hpp"

namespace pdex::test {
namespace {

class SpeciesTest : public ArdBackendTest {};

// Cyclic competition from random shares of a uniform total s0, alpha + beta = 2.
ArdSpec logistic_sum_spec(const std::string& model, const Grid2& g, double s0) {
  ArdSpec s = catalog_spec(model, g);
  s.params["alpha"] = ScalarSpec{0.6, {}};
  s.params["beta"] = ScalarSpec{1.4, {}};
  s.dt = 0.01;
  const std::size_t n = s.species.size();
  std::vector<std::vector<double>> w;
  for (std::size_t c = 0; c < n; ++c) w.push_back(uniform_noise(std::size_t(g.cells()), 1.0, 0.5, 70 + c));
  std::vector<std::vector<double>> cells(n, std::vector<double>(std::size_t(g.cells())));
  for (std::size_t k = 0; k < std::size_t(g.cells()); ++k) {
    double sum = 0;
    for (std::size_t c = 0; c < n; ++c) sum += w[c][k];
    for (std::size_t c = 0; c < n; ++c) cells[c][k] = s0 * w[c][k] / sum;
  }
  s.initial.assign(cells.begin(), cells.end());
  return s;
}

// Largest |sum over species - expected| over the cells, relative to expected.
double sum_error(Stepper& st, int species, double expected) {
  std::vector<double> sum;
  for (int c = 0; c < species; ++c) {
    const std::vector<double> v = st.values(c);
    if (sum.empty()) sum.assign(v.size(), 0.0);
    for (std::size_t k = 0; k < v.size(); ++k) sum[k] += v[k];
  }
  double worst = 0;
  for (double x : sum) worst = std::max(worst, std::abs(x - expected) / expected);
  return worst;
}

TEST_P(SpeciesTest, TheCyclicModelsSumFollowsTheLogisticStepByForwardEuler) {
  for (const char* model : {"may_leonard", "cyclic_competition_4"}) {
    SCOPED_TRACE(model);
    const ArdSpec s = logistic_sum_spec(model, Grid2{24, 20}, 0.05);
    auto st = make(s);
    ASSERT_EQ(st->field_names().size(), s.species.size());
    double logistic = 0.05;
    for (int n = 0; n < 400; ++n) logistic += s.dt * logistic * (1 - logistic);  // forward Euler of S' = S (1 - S)
    st->advance(400);
    // The sum of the species' steps is the logistic step of the sum, up to rounding of a few terms per
    // step: 1e-12 in f64, 2e-5 in f32 over 400 steps.
    EXPECT_LE(sum_error(*st, int(s.species.size()), logistic), tol(1e-12, 2e-5)) << "S = " << logistic;
    EXPECT_GT(logistic, 0.5) << "the total has grown well past its start";
  }
}

TEST_P(SpeciesTest, TheCyclicModelsSumFollowsTheLogisticStepByRk4) {
  ArdSpec s = logistic_sum_spec("may_leonard", Grid2{16, 12}, 0.05);
  s.mol_scheme = "rk4";
  s.dt = 0.05;
  auto st = make(s);
  double S = 0.05;
  const double h = s.dt;
  auto f = [](double x) { return x * (1 - x); };
  for (int n = 0; n < 100; ++n) {  // classic RK4 of S' = S (1 - S)
    const double k1 = f(S), k2 = f(S + h / 2 * k1), k3 = f(S + h / 2 * k2), k4 = f(S + h * k3);
    S += h / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
  }
  st->advance(100);
  EXPECT_LE(sum_error(*st, 3, S), tol(1e-12, 2e-5)) << "S = " << S;
}

// The theta scheme solves the species in lock step two at a time (three: {u1, u2}, {u3}; four: two
// pairs). With equal diffusivities and a uniform total S, the sum of the species' solves is the solve of
// the sum, which stays uniform: S follows the logistic forward Euler step, to the solver's tolerance.
// A group left unsolved would break the sum at its first step.
TEST_P(SpeciesTest, TheThetaSchemeSolvesEveryGroupOfSpecies) {
  for (const char* model : {"may_leonard", "cyclic_competition_4"}) {
    SCOPED_TRACE(model);
    ArdSpec s = logistic_sum_spec(model, Grid2{24, 20}, 0.05);
    s.theta = 0.5;
    s.dt = 0.05;
    s.solver.tol = tol(1e-13, 1e-6);
    auto st = make(s);
    double logistic = 0.05;
    for (int n = 0; n < 100; ++n) logistic += s.dt * logistic * (1 - logistic);
    st->advance(100);
    EXPECT_LE(sum_error(*st, int(s.species.size()), logistic), tol(1e-10, 1e-4)) << "S = " << logistic;
    EXPECT_GT(logistic, 0.3);
    EXPECT_EQ(st->solver_totals()->solves, 100 * 2) << "two groups of species a step";
    EXPECT_EQ(st->solver_totals()->unconverged, 0);
  }
}

// A front from a step into u = 0 travels at 2 sqrt(D r) (Fisher 1937), the step's position lagging by
// (3/2) ln t (Bramson): between t = 50 and 150 the mean speed is (200 - 1.5 ln 3) / 100 = 1.9835 at
// D = r = 1. The grid's spacing 0.25 resolves the front (width sqrt(D / r) = 1).
TEST_P(SpeciesTest, OneSpeciesFisherKppFrontTravelsAtTwiceTheRootOfDTimesR) {
  if (f32()) GTEST_SKIP() << "f64 only: the front's position is read to a hundredth of a cell";
  const Grid2 g{1400, 2, 0.25, 0.25};
  ArdSpec s = catalog_spec("fisher_kpp", g);
  s.dt = 0.005;
  s.bc = FieldBoundary::all(BcKind::periodic);
  s.bc.side[left][0] = s.bc.side[right][0] = SideBc{BcKind::neumann, 0.0};
  s.initial[0] = sample(g, [](double x, double) { return x < 10 ? 1.0 : 0.0; });
  auto st = make(s);
  // Where u falls through 1/2 along the first row, by linear interpolation.
  auto front = [&] {
    const std::vector<double> u = st->values(0);
    for (int i = 0; i + 1 < g.nx; ++i)
      if (u[std::size_t(i)] >= 0.5 && u[std::size_t(i) + 1] < 0.5)
        return g.x(i) + g.dx * (u[std::size_t(i)] - 0.5) / (u[std::size_t(i)] - u[std::size_t(i) + 1]);
    return -1.0;
  };
  st->advance(10000);  // t = 50
  const double x50 = front();
  st->advance(20000);  // t = 150
  const double x150 = front();
  ASSERT_GT(x50, 0);
  ASSERT_GT(x150, x50);
  const double speed = (x150 - x50) / 100, fisher = 2 * std::sqrt(1.0 * 1.0), bramson = (200 - 1.5 * std::log(3.0)) / 100;
  EXPECT_NEAR(speed, fisher, 0.02 * fisher);
  EXPECT_NEAR(speed, bramson, 0.005 * bramson) << "resolved well enough to see Bramson's lag";
}

// The phase of (u1, u2, u3) in the simplex, and the number of plaquettes around which it winds once.
struct Cores {
  int plus = 0, minus = 0;
};
Cores spiral_cores(const std::vector<double>& u1, const std::vector<double>& u2, const std::vector<double>& u3, int nx,
                   int ny) {
  std::vector<double> phase(u1.size());
  for (std::size_t k = 0; k < u1.size(); ++k)
    phase[k] = std::atan2(std::sqrt(3.0) * (u2[k] - u3[k]), 2 * u1[k] - u2[k] - u3[k]);
  auto at = [&](int i, int j) { return phase[std::size_t((j + ny) % ny) * nx + (i + nx) % nx]; };
  auto wrap = [](double d) { return std::remainder(d, 2 * std::numbers::pi); };
  Cores c;
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {  // periodic: every plaquette, across the wrap too
      const double w = wrap(at(i + 1, j) - at(i, j)) + wrap(at(i + 1, j + 1) - at(i + 1, j)) +
                       wrap(at(i, j + 1) - at(i + 1, j + 1)) + wrap(at(i, j) - at(i, j + 1));
      const long n = std::lround(w / (2 * std::numbers::pi));
      c.plus += n > 0;
      c.minus += n < 0;
    }
  return c;
}

// From noise around coexistence, May-Leonard's competition (alpha + beta > 2) with diffusion forms
// rotating spirals: the phase winds around their cores, as many clockwise as anticlockwise on a torus.
TEST_P(SpeciesTest, MayLeonardFormsSpiralsWhoseCoresPairUpOnATorus) {
  if (GetParam().backend == Backend::serial && f32()) GTEST_SKIP() << "one precision is enough on the serial backend";
  const Grid2 g{128, 128};
  ArdSpec s = catalog_spec("may_leonard", g);
  s.dt = 0.1;
  for (int c = 0; c < 3; ++c) s.initial[c] = uniform_noise(std::size_t(g.cells()), 1.0 / 3, 0.02, 90 + c);
  auto st = make(s);
  st->advance(6000);  // t = 600
  const Cores c = spiral_cores(st->values(0), st->values(1), st->values(2), g.nx, g.ny);
  EXPECT_EQ(c.plus, c.minus) << "the total winding on a torus is zero";
  EXPECT_GE(c.plus, 2) << "spirals";
  EXPECT_LE(c.plus, 60) << "a few dozen spirals at most on 128^2 cells";
}

// Serial and OpenMP run the same operations per cell; CUDA contracts multiply-adds (1e-12 in f64
// after 300 steps, 1e-4 in f32).
TEST_P(SpeciesTest, ThreeAndFourSpeciesAgreeWithTheSerialBackend) {
  for (const char* model : {"may_leonard", "cyclic_competition_4"}) {
    SCOPED_TRACE(model);
    ArdSpec s = catalog_spec(model, Grid2{40, 36});
    for (std::size_t c = 0; c < s.species.size(); ++c)
      s.initial[c] = uniform_noise(std::size_t(s.grid.cells()), 1.0 / double(s.species.size()), 0.05, 40 + c);
    auto serial = make_ard_stepper(s, Backend::serial, GetParam().precision);
    auto other = make(s);
    serial->advance(300);
    other->advance(300);
    const double bound = GetParam().backend == Backend::cuda ? tol(1e-12, 1e-4) : 0.0;
    for (std::size_t c = 0; c < s.species.size(); ++c) {
      const std::vector<double> a = serial->values(int(c)), b = other->values(int(c));
      double d = 0;
      for (std::size_t k = 0; k < a.size(); ++k) d = std::max(d, std::abs(a[k] - b[k]));
      EXPECT_LE(d, bound) << "species " << c;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, SpeciesTest, ::testing::ValuesIn(backend_cases()), backend_case_name);

}  // namespace
}  // namespace pdex::test
