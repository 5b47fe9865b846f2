// Seed 004's two steady-heat experiments (sec. 4), solved as the seed does: red-black Gauss-Seidel on
// Laplace's equation, stopped when the largest change of a sweep falls below 0.001, on a 256x256 grid
// whose centre square starts at 80 and the rest at 25. Experiment 1 holds 100 on the top and right
// sides and 0 on the others (seed: 11,947 iterations); experiment 2 holds 100 on top and bottom and 0
// left and right (seed: 11,090).
//
// The seed does not size its centre square; a 32x32 square (an eighth of the width, cells 112..143)
// gives 11,906 and 11,401 sweeps, -0.3% and +2.8% of the seed's counts (the centre half, which earlier
// versions took, gave 8,109 and 5,404: the square's size, not the sweep ordering, set the difference).
// What is left comes from discretization: the seed is vertex-centred (254x254 unknowns between
// boundary nodes 255 spacings apart, its corner nodes on two sides at once), ours cell-centred (256x256
// unknowns, values held on the faces 256 spacings apart). The band asserted, 95% to 105% of the seed's
// count, holds both. Our count to the threshold leaves the iterate within the bound the change test
// implies of the steady state (checked below against multigrid). Experiment 1's hot corner excites the
// slow antisymmetric modes; experiment 2's top-bottom symmetry rules the odd ones out.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <vector>

#include "pdex/core/executor.hpp"
#include "pdex/linalg/elliptic.hpp"

namespace pdex::test {
namespace {

constexpr int n = 256;
constexpr double threshold = 0.001;
constexpr double pi = 3.14159265358979323846;

// Seed 004 sec. 4: the centre square (our choice: 32x32 cells, 112..143) at 80, the rest at 25.
std::vector<double> seed_start() {
  std::vector<double> u(std::size_t(n) * n, 25.0);
  for (int j = 7 * n / 16; j < 9 * n / 16; ++j)
    for (int i = 7 * n / 16; i < 9 * n / 16; ++i) u[std::size_t(j) * n + i] = 80.0;
  return u;
}

FieldBoundary hot_sides(Side a, Side b) {
  FieldBoundary bc = FieldBoundary::all(BcKind::dirichlet, 0.0);
  bc.side[a][0].value = 100.0;
  bc.side[b][0].value = 100.0;
  return bc;
}

EllipticSpec laplace(const FieldBoundary& bc, const SolverSettings& s) {
  return EllipticSpec{Grid2{n, n}, 0.0, 1.0, bc, s};
}

struct HeatRun {
  SolveStats stats;
  std::vector<double> u;
};

// Seed 004's solver: red-black Gauss-Seidel, the change test after every sweep, no residual test.
HeatRun seed_solve(const FieldBoundary& bc) {
  SolverSettings s;
  s.method = SolverMethod::rbgs;
  s.tol = 0;
  s.change_tol = threshold;
  s.check_every = 1;
  s.max_iter = 100000;
  // Serial: the count does not depend on the backend, and OpenMP's per-sweep synchronization (a change
  // reduction every sweep of a 256x256 grid) costs more than it gains on a shared 2-core machine.
  auto solver = make_elliptic_solver(laplace(bc, s), Backend::serial, Precision::f64);
  solver->set(seed_start(), std::vector<double>(std::size_t(n) * n, 0.0));
  const SolveStats stats = solver->solve();
  return HeatRun{stats, solver->solution()};
}

// The steady state of the same discrete problem, converged to round-off by multigrid.
std::vector<double> steady_state(const FieldBoundary& bc) {
  SolverSettings s;
  s.method = SolverMethod::multigrid;
  s.tol = 1e-9;  // f = 0, so the residual test is absolute: round-off of values ~100 is ~1e-11
  s.max_iter = 100;
  auto solver = make_elliptic_solver(laplace(bc, s), Backend::serial, Precision::f64);
  solver->set(seed_start(), std::vector<double>(std::size_t(n) * n, 0.0));
  EXPECT_TRUE(solver->solve().converged);
  return solver->solution();
}

double at(const std::vector<double>& u, int i, int j) { return u[std::size_t(j) * n + i]; }

double max_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0;
  for (std::size_t k = 0; k < a.size(); ++k) d = std::max(d, std::abs(a[k] - b[k]));
  return d;
}

// What the change test leaves: once the slowest mode (Gauss-Seidel factor rho = cos^2(pi / (n + 1))
// per sweep, roughly) dominates, the remaining error is change * rho / (1 - rho), about 6.7 here.
double change_test_error_bound() {
  const double rho = std::pow(std::cos(pi / (n + 1)), 2);
  return threshold * rho / (1 - rho);
}

void expect_seed_like(const HeatRun& r, int seed_iterations, const FieldBoundary& bc) {
  EXPECT_TRUE(r.stats.converged);
  EXPECT_LT(r.stats.change, threshold);
  // Band around the seed's count: see the header.
  EXPECT_GE(r.stats.iterations, 0.95 * seed_iterations);
  EXPECT_LE(r.stats.iterations, 1.05 * seed_iterations);
  // Maximum principle: a harmonic function lies between its boundary values.
  const auto [lo, hi] = std::minmax_element(r.u.begin(), r.u.end());
  EXPECT_GE(*lo, 0.0);
  EXPECT_LE(*hi, 100.0);
  const double err = max_difference(r.u, steady_state(bc));
  std::cout << "  distance to the steady state " << err << " (bound " << change_test_error_bound() << ")\n";
  EXPECT_LE(err, change_test_error_bound());
}

TEST(Seed004, HotTopAndRightSidesConvergeLikeTheSeed) {
  const FieldBoundary bc = hot_sides(top, right);
  const HeatRun r = seed_solve(bc);
  std::cout << "seed 004 experiment 1 (100 top and right): " << r.stats.iterations
            << " iterations (seed: 11,947)\n";
  expect_seed_like(r, 11947, bc);
  // The problem is symmetric about the diagonal x = y, and so is red-black ordering (i + j is unchanged
  // by swapping i and j): the iterate is symmetric to round-off at every sweep.
  double asym = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < j; ++i) asym = std::max(asym, std::abs(at(r.u, i, j) - at(r.u, j, i)));
  EXPECT_LT(asym, 1e-9);
}

TEST(Seed004, HotTopAndBottomSidesConvergeLikeTheSeed) {
  const FieldBoundary bc = hot_sides(top, bottom);
  const HeatRun r = seed_solve(bc);
  std::cout << "seed 004 experiment 2 (100 top and bottom): " << r.stats.iterations
            << " iterations (seed: 11,090)\n";
  expect_seed_like(r, 11090, bc);
  // Mirror symmetry top/bottom. Reflection swaps the colours (n is even), so the iterate is symmetric
  // only as far as it has converged: the asymmetry is a small part of the remaining error.
  double asym = 0;
  for (int j = 0; j < n / 2; ++j)
    for (int i = 0; i < n; ++i) asym = std::max(asym, std::abs(at(r.u, i, j) - at(r.u, i, n - 1 - j)));
  EXPECT_LT(asym, 0.1 * change_test_error_bound());
}

}  // namespace
}  // namespace pdex::test
