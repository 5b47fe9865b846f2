// Advection-reaction-diffusion on 3D grids (grid.nz > 1): forward Euler and the theta scheme with the
// seven-point Laplacian, and rk4 and Merson. Diffusion modes decay as the analytic solution at second
// order under every kind of side (Crank-Nicolson: Neumann and Dirichlet; rk4, Merson: Neumann, periodic); a state that
// is the same in every plane, between zero-flux or periodic z sides, evolves plane by plane exactly as the
// 2D run; transport along z converges at the scheme's order; the backends agree (bitwise on the host,
// within rounding on the GPU), with advection too.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include "models/ard_test_support.hpp"

namespace pdex::test {
namespace {

using std::numbers::pi;

// The cube [0, 1]^3 in n^3 cells.
Grid2 cube(int n) {
  Grid2 g{n, n, 1.0 / n, 1.0 / n};
  g.nz = n, g.dz = 1.0 / n;
  return g;
}

struct Mode3 {
  double k;        // wave number on every axis
  bool sine;       // sin(k x) sin(k y) sin(k z) (Dirichlet 0 sides), else cos(k x) cos(k y) cos(k z)
  double operator()(double x, double y, double z) const {
    return sine ? std::sin(k * x) * std::sin(k * y) * std::sin(k * z) : std::cos(k * x) * std::cos(k * y) * std::cos(k * z);
  }
};

// The largest error at t = 1 of a mode diffusing with D = 0.01 (u) on n^3 cells, in 32 (n/16)^2 steps (a
// diffusion number D dt / h^2 of 0.08, kept as n grows, so forward Euler's O(dt) error is O(h^2) too).
double mode_error(const BackendCase& c, int n, BcKind kind, const Mode3& m) {
  const Grid2 g = cube(n);
  ArdSpec s = inert_diffusion_spec(g, 0.01, 0.005, FieldBoundary::all(kind));
  s.initial[0] = sample3(g, m);
  s.initial[1] = sample3(g, m);
  const int64_t steps = 32 * (n / 16) * (n / 16);
  s.dt = 1.0 / double(steps);
  auto st = make_ard_stepper(s, c.backend, c.precision);
  st->advance(steps);
  const double decay = std::exp(-0.01 * 3 * m.k * m.k);
  return max_abs_diff(st->values(0), sample3(g, [&](double x, double y, double z) { return decay * m(x, y, z); }));
}

// The same by the theta scheme (multigrid solves to 1e-10), at t = 1 in 2n steps: Crank-Nicolson's
// O(dt^2) and backward Euler's O(dt) errors at this diffusion number lie below the O(h^2) error of the
// space discretization at these sizes.
double theta_mode_error(const BackendCase& c, int n, BcKind kind, const Mode3& m, double theta) {
  const Grid2 g = cube(n);
  ArdSpec s = inert_diffusion_spec(g, 0.01, 0.005, FieldBoundary::all(kind));
  s.initial[0] = sample3(g, m);
  s.initial[1] = sample3(g, m);
  s.theta = theta;
  s.solver.method = SolverMethod::multigrid;
  s.solver.tol = c.precision == Precision::f32 ? 1e-5 : 1e-10;
  const int64_t steps = 2 * n;
  s.dt = 1.0 / double(steps);
  auto st = make_ard_stepper(s, c.backend, c.precision);
  st->advance(steps);
  const double decay = std::exp(-0.01 * 3 * m.k * m.k);
  return max_abs_diff(st->values(0), sample3(g, [&](double x, double y, double z) { return decay * m(x, y, z); }));
}

// The same by the method of lines to t = 1: rk4 in Euler's steps, Merson adaptive (tolerance 1e-9, 1e-6
// in f32: its time error far below the space error).
double mol_mode_error(const BackendCase& c, int n, BcKind kind, const Mode3& m, const std::string& scheme) {
  const Grid2 g = cube(n);
  ArdSpec s = inert_diffusion_spec(g, 0.01, 0.005, FieldBoundary::all(kind));
  s.initial[0] = sample3(g, m);
  s.initial[1] = sample3(g, m);
  s.mol_scheme = scheme;
  s.tol = c.precision == Precision::f32 ? 1e-6 : 1e-9;  // f32 rounding leaves no smaller error to control
  s.dt = 1.0 / (32.0 * (n / 16) * (n / 16));
  auto st = make_ard_stepper(s, c.backend, c.precision);
  dynamic_cast<MolStepper&>(*st).advance_to(1.0);
  const double decay = std::exp(-0.01 * 3 * m.k * m.k);
  return max_abs_diff(st->values(0), sample3(g, [&](double x, double y, double z) { return decay * m(x, y, z); }));
}

class Ard3dTest : public ArdBackendTest {
 protected:
  template <class Advance>
  void expect_agreement(const ArdSpec& s, Advance advance, double cuda_tol, const std::string& what) const;
  // Observed orders over n = 16, 32, 64 within [1.8, 2.2]; the f32 rounding floor lies orders of
  // magnitude below the finest error (about 1e-4).
  void expect_second_order(BcKind kind, const Mode3& m) {
    const double e[3] = {mode_error(GetParam(), 16, kind, m), mode_error(GetParam(), 32, kind, m),
                         mode_error(GetParam(), 64, kind, m)};
    for (int k = 0; k < 2; ++k) {
      const double order = std::log2(e[k] / e[k + 1]);
      EXPECT_GE(order, 1.8) << "n = " << (16 << k) << " -> " << (32 << k) << ": errors " << e[k] << ", " << e[k + 1];
      EXPECT_LE(order, 2.2) << "n = " << (16 << k) << " -> " << (32 << k) << ": errors " << e[k] << ", " << e[k + 1];
    }
  }
};

TEST_P(Ard3dTest, PeriodicModeDecaysAtSecondOrder) { expect_second_order(BcKind::periodic, {2 * pi, false}); }
TEST_P(Ard3dTest, NeumannModeDecaysAtSecondOrder) { expect_second_order(BcKind::neumann, {pi, false}); }
TEST_P(Ard3dTest, DirichletModeDecaysAtSecondOrder) { expect_second_order(BcKind::dirichlet, {pi, true}); }

// Crank-Nicolson over n = 8, 16, 32: observed orders within [1.8, 2.2] (f32: the coarser pair; its
// rounding floor near 1e-6 lies close to the finest error).
TEST_P(Ard3dTest, CrankNicolsonModesDecayAtSecondOrder) {
  for (const auto& [kind, m] : {std::pair{BcKind::neumann, Mode3{pi, false}}, std::pair{BcKind::dirichlet, Mode3{pi, true}}}) {
    const double e[3] = {theta_mode_error(GetParam(), 8, kind, m, 0.5), theta_mode_error(GetParam(), 16, kind, m, 0.5),
                         theta_mode_error(GetParam(), 32, kind, m, 0.5)};
    for (int k = 0; k < (f32() ? 1 : 2); ++k) {
      const double order = std::log2(e[k] / e[k + 1]);
      EXPECT_GE(order, 1.8) << int(kind) << ": errors " << e[k] << ", " << e[k + 1];
      EXPECT_LE(order, 2.2) << int(kind) << ": errors " << e[k] << ", " << e[k + 1];
    }
  }
}

// rk4 and Merson over n = 16, 32 (Neumann and periodic modes): orders within [1.8, 2.2].
TEST_P(Ard3dTest, RungeKuttaModesDecayAtSecondOrder) {
  for (const std::string scheme : {"rk4", "merson"})
    for (const auto& [kind, m] : {std::pair{BcKind::neumann, Mode3{pi, false}}, std::pair{BcKind::periodic, Mode3{2 * pi, false}}}) {
      const double e16 = mol_mode_error(GetParam(), 16, kind, m, scheme), e32 = mol_mode_error(GetParam(), 32, kind, m, scheme);
      const double order = std::log2(e16 / e32);
      EXPECT_GE(order, 1.8) << scheme << " " << int(kind) << ": errors " << e16 << ", " << e32;
      EXPECT_LE(order, 2.2) << scheme << " " << int(kind) << ": errors " << e16 << ", " << e32;
    }
}

// Gray-Scott from noise on 40 x 36 cells with a different rule on each x and y side.
ArdSpec gray_scott_2d() {
  ArdSpec s = catalog_spec("gray_scott", Grid2{40, 36});
  s.initial[0] = uniform_noise(std::size_t(s.grid.cells()), 0.8, 0.2, 5);
  s.initial[1] = uniform_noise(std::size_t(s.grid.cells()), 0.1, 0.1, 6);
  s.bc = FieldBoundary::all(BcKind::neumann);
  for (int c = 0; c < 2; ++c) {
    s.bc.side[left][c] = SideBc{BcKind::dirichlet, 0.5};
    s.bc.side[bottom][c] = s.bc.side[top][c] = SideBc{BcKind::periodic};
  }
  return s;
}

// The 2D run's state repeated in nz planes.
ArdSpec stacked_in_z(const ArdSpec& flat, int nz, BcKind z_sides) {
  ArdSpec s = flat;
  s.grid.nz = nz;
  for (std::size_t c = 0; c < s.initial.size(); ++c) {
    const std::vector<double> cells = initial_of(flat, c);
    std::vector<double> planes;
    for (int k = 0; k < nz; ++k) planes.insert(planes.end(), cells.begin(), cells.end());
    s.initial[c] = planes;
  }
  for (int c = 0; c < 2; ++c) s.bc.side[front][c] = s.bc.side[back][c] = SideBc{z_sides};
  return s;
}

// Across the planes nothing flows (u_below + u_above - 2 u = 0 exactly), so every plane is the 2D run.
TEST_P(Ard3dTest, AStateUniformInZEvolvesAsThe2DRunInEveryPlane) {
  const ArdSpec flat = gray_scott_2d();
  auto run2 = make(flat);
  run2->advance(150);
  for (BcKind z_sides : {BcKind::neumann, BcKind::periodic}) {
    const ArdSpec deep = stacked_in_z(flat, 4, z_sides);
    auto run3 = make(deep);
    run3->advance(150);
    for (int c = 0; c < 2; ++c) {
      const std::vector<double> a = run2->values(c), b = run3->values(c);
      ASSERT_EQ(b.size(), 4 * a.size());
      for (int k = 0; k < 4; ++k)
        EXPECT_TRUE(std::equal(a.begin(), a.end(), b.begin() + std::ptrdiff_t(k) * std::ptrdiff_t(a.size())))
            << "species " << c << ", plane " << k << ", z sides " << int(z_sides);
    }
  }
}

// Gray-Scott noise (seeds `seed`, `seed` + 1) on a box with Neumann x sides, periodic y sides and
// Dirichlet z sides (1 at the front, 0 at the back).
ArdSpec gray_scott_box(int nx, int ny, int nz, unsigned seed) {
  Grid2 g{nx, ny};
  g.nz = nz;
  ArdSpec s = catalog_spec("gray_scott", g);
  s.initial[0] = uniform_noise(std::size_t(g.cells()), 0.8, 0.2, seed);
  s.initial[1] = uniform_noise(std::size_t(g.cells()), 0.1, 0.1, seed + 1);
  s.bc = FieldBoundary::all(BcKind::neumann);
  for (int c = 0; c < 2; ++c) {
    s.bc.side[bottom][c] = s.bc.side[top][c] = SideBc{BcKind::periodic};
    s.bc.side[front][c] = SideBc{BcKind::dirichlet, 1.0};
    s.bc.side[back][c] = SideBc{BcKind::dirichlet, 0.0};
  }
  return s;
}

// `advance` applied to a serial run and to this backend's of spec s: OpenMP's equals serial's bitwise,
// CUDA's within cuda_tol; the state is not flat (the comparison sees something).
template <class Advance>
void Ard3dTest::expect_agreement(const ArdSpec& s, Advance advance, double cuda_tol, const std::string& what) const {
  auto serial = make_ard_stepper(s, Backend::serial, GetParam().precision);
  auto other = make(s);
  advance(*serial);
  advance(*other);
  for (int c = 0; c < 2; ++c) {
    if (GetParam().backend == Backend::cuda)
      EXPECT_LT(max_abs_diff(other->values(c), serial->values(c)), cuda_tol) << what << " species " << c;
    else
      EXPECT_EQ(other->values(c), serial->values(c)) << what << " species " << c;
  }
  EXPECT_GT(variance(serial->values(0)), 1e-5) << what;
}

// Forward Euler on 24 x 20 x 10 cells: CUDA within 1e-12 in f64; 1e-4 in f32, where 300 steps of a
// reaction amplify differences of one ulp.
TEST_P(Ard3dTest, BackendsAgreeWithTheSerialRun) {
  ArdSpec s = gray_scott_box(24, 20, 10, 7);
  s.dt = 0.5 * ard_stable_step(s).dt_max;  // the bound counts diffusion only; the reaction at v = 1 needs margin
  expect_agreement(s, [](Stepper& st) { st.advance(300); }, tol(1e-12, 1e-4), "euler");
}

// The theta scheme (Crank-Nicolson, 20 steps of dt 2) by multigrid and by red-black SOR: CUDA within the
// solves' reach.
TEST_P(Ard3dTest, ThetaBackendsAgreeWithTheSerialRun) {
  ArdSpec s = gray_scott_box(20, 16, 8, 9);
  s.theta = 0.5;
  s.dt = 2.0;
  for (SolverMethod method : {SolverMethod::multigrid, SolverMethod::sor}) {
    s.solver.method = method;
    s.solver.tol = f32() ? 1e-5 : 1e-10;
    expect_agreement(s, [](Stepper& st) { st.advance(20); }, tol(1e-8, 1e-3), "theta");
  }
}

// rk4 and Merson to t = 40: CUDA within rounding.
TEST_P(Ard3dTest, RungeKuttaBackendsAgreeWithTheSerialRun) {
  ArdSpec s = gray_scott_box(20, 16, 8, 11);
  s.dt = 0.5 * ard_stable_step(s).dt_max;  // rk4's step, Merson's first
  for (const std::string scheme : {"rk4", "merson"}) {
    s.mol_scheme = scheme;
    s.tol = f32() ? 1e-3 : 1e-6;
    expect_agreement(s, [](Stepper& st) { dynamic_cast<MolStepper&>(st).advance_to(40.0); }, tol(1e-10, 1e-3), scheme);
  }
}

// A linear profile between Dirichlet z sides (0 at z = 0, 1 at z = 1) is the discrete steady state: the
// ghosts extrapolate it exactly, so pure diffusion leaves it as it is, to rounding.
TEST_P(Ard3dTest, ALinearProfileBetweenDirichletZSidesIsSteady) {
  Grid2 g{6, 5, 0.125, 0.125};
  g.nz = 8, g.dz = 0.125;
  ArdSpec s = inert_diffusion_spec(g, 1.0, 1.0, FieldBoundary::all(BcKind::neumann));
  for (int c = 0; c < 2; ++c) s.bc.side[back][c] = SideBc{BcKind::dirichlet, 1.0}, s.bc.side[front][c] = SideBc{BcKind::dirichlet, 0.0};
  const std::vector<double> linear = sample3(g, [](double, double, double z) { return z; });
  s.initial = {linear, linear};
  s.dt = 0.9 * ard_stable_step(s).dt_max;
  auto st = make(s);
  st->advance(200);
  EXPECT_LT(max_abs_diff(st->values(0), linear), tol(1e-13, 1e-5));
  EXPECT_LT(max_abs_diff(st->values(1), linear), tol(1e-13, 1e-5));
}

// A mode along z carried by a constant velocity az while it diffuses, u = cos(k (z - a t)) e^(-D k^2 t)
// on a periodic box of n planes, at t = 1/4, forward Euler at a fixed diffusion number (its O(dt) error
// is O(h^2)).
double advected_mode_error(const BackendCase& c, int n, Advection scheme) {
  Grid2 g{4, 4, 1.0 / n, 1.0 / n};
  g.nz = n, g.dz = 1.0 / n;
  ArdSpec s = inert_diffusion_spec(g, 0.01, 0.01, FieldBoundary::all(BcKind::periodic));
  const double k = 2 * pi, a = 0.5, D = 0.01;
  auto mode = [&](double t) {
    return sample3(g, [&](double, double, double z) { return std::cos(k * (z - a * t)) * std::exp(-D * k * k * t); });
  };
  s.initial = {mode(0), mode(0)};
  s.advection = scheme;
  s.az = ScalarSpec{a, {}};
  const int64_t steps = 32 * (n / 16) * (n / 16);
  s.dt = 0.25 / double(steps);
  auto st = make_ard_stepper(s, c.backend, c.precision);
  st->advance(steps);
  return max_abs_diff(st->values(0), mode(0.25));
}

// Centred transport across the planes at second order, upwind at first (n = 16, 32, 64).
TEST_P(Ard3dTest, TransportAlongZConvergesAtTheSchemesOrder) {
  for (const auto& [scheme, order] : {std::pair{Advection::centered, 2.0}, std::pair{Advection::upwind, 1.0}}) {
    const double e[3] = {advected_mode_error(GetParam(), 16, scheme), advected_mode_error(GetParam(), 32, scheme),
                         advected_mode_error(GetParam(), 64, scheme)};
    for (int k = 0; k < (f32() && order > 1 ? 1 : 2); ++k) {
      const double observed = std::log2(e[k] / e[k + 1]);
      EXPECT_NEAR(observed, order, 0.2) << int(scheme) << ": errors " << e[k] << ", " << e[k + 1];
    }
  }
}

// A velocity field that varies in every direction (upwind and centred), by forward Euler, the theta
// scheme and rk4: the backends agree (OpenMP bitwise).
TEST_P(Ard3dTest, AdvectionBackendsAgreeWithTheSerialRun) {
  ArdSpec s = gray_scott_box(20, 16, 8, 13);
  s.ax = ScalarSpec{0.0, sample3(s.grid, [](double x, double y, double) { return 0.05 * std::sin(0.3 * y + 0.1 * x); })};
  s.ay = ScalarSpec{-0.1, {}};
  s.az = ScalarSpec{0.0, sample3(s.grid, [](double x, double, double z) { return 0.2 * std::cos(0.2 * x) - 0.02 * z; })};
  for (Advection scheme : {Advection::upwind, Advection::centered}) {
    s.advection = scheme;
    s.theta = 0, s.mol_scheme = "";
    s.dt = 0.5 * ard_stable_step(s).dt_max;
    expect_agreement(s, [](Stepper& st) { st.advance(200); }, tol(1e-12, 1e-4), "euler");
    s.theta = 0.5;
    s.solver.method = SolverMethod::multigrid;
    s.solver.tol = f32() ? 1e-5 : 1e-10;
    expect_agreement(s, [](Stepper& st) { st.advance(20); }, tol(1e-8, 1e-3), "theta");
    s.theta = 0, s.mol_scheme = "rk4";
    expect_agreement(s, [](Stepper& st) { dynamic_cast<MolStepper&>(st).advance_to(20.0); }, tol(1e-10, 1e-3), "rk4");
  }
}

// Every catalogue model from its uniform state with noise, 60 forward Euler steps on a 2D grid and a 3D
// one (Neumann sides, one Dirichlet, periodic y): the backends compute the same operations in the same
// order, with no multiply-add fused (-mno-fma on the host, whose vectorizer fused some regardless of
// -ffp-contract=off, --fmad=false on the GPU), so every run is the serial run to the bit.
TEST_P(Ard3dTest, EveryCatalogueModelsEulerStepsAreTheSerialRunToTheBit) {
  for (const ReactionInfo& r : ard_catalog())
    for (int nz : {1, 6}) {
      SCOPED_TRACE(r.name + (nz > 1 ? " 3D" : " 2D"));
      Grid2 g{18, 14};
      g.nz = nz;
      ArdSpec s = catalog_spec(r.name, g);
      for (std::size_t c = 0; c < s.initial.size(); ++c)
        s.initial[c] = uniform_noise(std::size_t(g.cells()), r.initial[c], 0.01 * (1 + std::abs(r.initial[c])), 3 + c);
      s.bc = FieldBoundary::all(BcKind::neumann);
      for (std::size_t c = 0; c < s.initial.size(); ++c) {
        s.bc.side[left][c] = SideBc{BcKind::dirichlet, r.initial[c]};
        s.bc.side[bottom][c] = s.bc.side[top][c] = SideBc{BcKind::periodic};
      }
      s.dt = std::min(r.dt, 0.5 * ard_stable_step(s).dt_max);  // the suggested step counts a 2D grid's diffusion
      auto serial = make_ard_stepper(s, Backend::serial, GetParam().precision);
      auto other = make(s);
      serial->advance(60);
      other->advance(60);
      for (int c = 0; c < int(s.initial.size()); ++c) EXPECT_EQ(other->values(c), serial->values(c)) << "species " << c;
      EXPECT_GT(variance(serial->values(0)), 0.0);
    }
}

INSTANTIATE_TEST_SUITE_P(Backends, Ard3dTest, ::testing::ValuesIn(backend_cases()), backend_case_name);

}  // namespace
}  // namespace pdex::test
