// Diffusion of a single Fourier mode against its analytic decay exp(-D k^2 t), at three resolutions:
// the error must fall as h^2. The time step scales with h^2 (fixed diffusion number), so forward
// Euler's O(dt) error is O(h^2) too and the whole scheme is second order in h.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "models/ard_test_support.hpp"

namespace pdex::test {
namespace {

using std::numbers::pi;

struct Mode {
  double kx, ky;  // wave numbers
  bool cosine_x;  // cos(kx x) instead of sin(kx x)
  double D;
  double operator()(double x, double y) const {
    return (cosine_x ? std::cos(kx * x) : std::sin(kx * x)) * std::cos(ky * y);
  }
  double decay(double t) const { return std::exp(-D * (kx * kx + ky * ky) * t); }
};

struct ModeErrors {
  double u, v;
};

// Domain [0, 1] x [0, 1/2], n x n/2 cells of size 1/n; t_end = 1 in 32 (n/16)^2 steps, i.e. a
// diffusion number D dt / h^2 of 0.04 for u and 0.02 for v: stable, and kept fixed as n grows.
ModeErrors mode_errors(const BackendCase& bc, int n, BcKind kind, const Mode& mu, const Mode& mv) {
  const Grid2 g{n, n / 2, 1.0 / n, 1.0 / n};
  ArdSpec s = inert_diffusion_spec(g, mu.D, mv.D, FieldBoundary::all(kind));
  s.initial[0] = sample(g, mu);
  s.initial[1] = sample(g, mv);
  const int64_t steps = 32 * (n / 16) * (n / 16);
  const double t_end = 1.0;
  s.dt = t_end / double(steps);
  auto st = make_ard_stepper(s, bc.backend, bc.precision);
  st->advance(steps);
  auto exact = [&](const Mode& m) { return sample(g, [&](double x, double y) { return m.decay(t_end) * m(x, y); }); };
  return {max_abs_diff(st->values(0), exact(mu)), max_abs_diff(st->values(1), exact(mv))};
}

class DiffusionConvergenceTest : public ArdBackendTest {
 protected:
  // Observed orders log2(e_h / e_{h/2}) over n = 16, 32, 64 must lie in [1.8, 2.2]. The f32 rounding
  // floor (~1e-6 after 512 steps) is three orders below the finest error (~1e-3), so the band holds
  // for both precisions.
  void expect_second_order(BcKind kind, const Mode& mu, const Mode& mv) {
    const ModeErrors e[3] = {mode_errors(GetParam(), 16, kind, mu, mv), mode_errors(GetParam(), 32, kind, mu, mv),
                             mode_errors(GetParam(), 64, kind, mu, mv)};
    for (int k = 0; k < 2; ++k) {
      const double order_u = std::log2(e[k].u / e[k + 1].u), order_v = std::log2(e[k].v / e[k + 1].v);
      EXPECT_GE(order_u, 1.8) << "u, n = " << (16 << k) << " -> " << (32 << k) << ": errors " << e[k].u << ", " << e[k + 1].u;
      EXPECT_LE(order_u, 2.2) << "u, n = " << (16 << k) << " -> " << (32 << k) << ": errors " << e[k].u << ", " << e[k + 1].u;
      EXPECT_GE(order_v, 1.8) << "v, n = " << (16 << k) << " -> " << (32 << k) << ": errors " << e[k].v << ", " << e[k + 1].v;
      EXPECT_LE(order_v, 2.2) << "v, n = " << (16 << k) << " -> " << (32 << k) << ": errors " << e[k].v << ", " << e[k + 1].v;
    }
    // And the solution is close to the analytic one, not merely converging to something.
    EXPECT_LT(e[2].u, 2e-3);
    EXPECT_LT(e[2].v, 2e-3);
  }
};

TEST_P(DiffusionConvergenceTest, PeriodicSineModeDecaysAsExpMinusDk2tWithSecondOrderConvergence) {
  expect_second_order(BcKind::periodic, Mode{2 * pi, 4 * pi, false, 0.005}, Mode{4 * pi, 0.0, false, 0.0025});
}

// Cosine modes of the cell-centred grid satisfy the mirror (zero-flux) ghosts exactly.
TEST_P(DiffusionConvergenceTest, NeumannCosineModeDecaysAsExpMinusDk2tWithSecondOrderConvergence) {
  expect_second_order(BcKind::neumann, Mode{pi, 2 * pi, true, 0.005}, Mode{2 * pi, 4 * pi, true, 0.0025});
}

INSTANTIATE_TEST_SUITE_P(Backends, DiffusionConvergenceTest, ::testing::ValuesIn(backend_cases()),
                         backend_case_name);

}  // namespace
}  // namespace pdex::test
