// Tensor diffusion on 3D grids, div(D M grad u) with M's six entries (grid/stencil.hpp div_tensor plus
// div_tensor_z): a mode under a constant full tensor decays at the analytic rate D k^T M k at second
// order by forward Euler, rk4 and Merson; a varying tensor conserves mass between zero-flux and periodic
// sides; a state the same in every plane evolves as the 2D tensor run; a periodic seam is invisible (a
// shifted state gives the shifted result, bit for bit) with Dirichlet z sides, whose edge ghosts the
// cross derivatives read there; the backends agree. The theta scheme (helmholtz3.hpp's tensor operator,
// eight-colour sweeps, Multigrid3 with the tensor restricted): Crank-Nicolson decays the mode at second
// order; every solver reaches multigrid's step, conserving mass where no flux leaves; multigrid's cycles
// do not grow with the grid; a state uniform in z steps as the 2D theta run; the backends agree.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <vector>

#include "models/ard_test_support.hpp"
#include "pdex/models/ard/ard_stability.hpp"
#include "pdex/time/stepper.hpp"

namespace pdex::test {
namespace {

using std::numbers::pi;

Grid2 box(int nx, int ny, int nz, double h = 1.0) {
  Grid2 g{nx, ny, h, h};
  g.nz = nz, g.dz = h;
  return g;
}

// A constant symmetric positive definite M with every off-diagonal entry non-zero (det 0.30).
constexpr double kxx = 1.0, kxy = 0.3, kyy = 0.8, kxz = -0.2, kyz = 0.25, kzz = 0.6;

void set_tensor(ArdSpec& s, ScalarSpec xx, ScalarSpec xy, ScalarSpec yy, ScalarSpec xz, ScalarSpec yz, ScalarSpec zz) {
  s.anisotropic = true;
  s.mxx = std::move(xx), s.mxy = std::move(xy), s.myy = std::move(yy);
  s.mxz = std::move(xz), s.myz = std::move(yz), s.mzz = std::move(zz);
}
void set_constant_tensor(ArdSpec& s) {
  set_tensor(s, {kxx, {}}, {kxy, {}}, {kyy, {}}, {kxz, {}}, {kyz, {}}, {kzz, {}});
}

// The largest error at t = 1 of u = cos(2 pi (x - y + z)) on the periodic unit cube of n^3 cells,
// diffusing with D = 0.01 and the constant tensor: u e^(-D k^T M k t). Forward Euler and rk4 in n^2 / 8
// steps (a diffusion number kept as n grows, so forward Euler's O(dt) error is O(h^2) too); Merson
// adaptive (tolerance far below the space error).
double mode_error(const BackendCase& c, int n, const std::string& scheme) {
  const Grid2 g = box(n, n, n, 1.0 / n);
  ArdSpec s = inert_diffusion_spec(g, 0.01, 0.01, FieldBoundary::all(BcKind::periodic));
  set_constant_tensor(s);
  const double k[3] = {2 * pi, -2 * pi, 2 * pi};
  const auto mode = [&](double x, double y, double z) { return std::cos(k[0] * x + k[1] * y + k[2] * z); };
  s.initial = {sample3(g, mode), sample3(g, mode)};
  const int64_t steps = int64_t(n) * n / 8;
  s.dt = 1.0 / double(steps);
  if (scheme == "cn") {  // its O(dt^2) error at dt = 1 / n: steps = n
    s.theta = 0.5;
    s.dt = 1.0 / n;
    s.solver.method = SolverMethod::multigrid;
    s.solver.tol = c.precision == Precision::f32 ? 1e-6 : 1e-12;
  }
  s.mol_scheme = scheme == "euler" || scheme == "cn" ? "" : scheme;
  s.tol = c.precision == Precision::f32 ? 1e-6 : 1e-9;
  auto st = make_ard_stepper(s, c.backend, c.precision);
  if (scheme == "merson") dynamic_cast<MolStepper&>(*st).advance_to(1.0);
  else st->advance(scheme == "cn" ? n : steps);
  const double kmk = kxx * k[0] * k[0] + kyy * k[1] * k[1] + kzz * k[2] * k[2] +
                     2 * (kxy * k[0] * k[1] + kxz * k[0] * k[2] + kyz * k[1] * k[2]);
  const double decay = std::exp(-0.01 * kmk);
  return max_abs_diff(st->values(0), sample3(g, [&](double x, double y, double z) { return decay * mode(x, y, z); }));
}

class Anisotropic3dTest : public ArdBackendTest {
 protected:
  // The backends' runs of spec s by `advance`: OpenMP's equals serial's bitwise, CUDA's within cuda_tol.
  template <class Advance>
  void expect_agreement(const ArdSpec& s, Advance advance, double cuda_tol) const {
    auto serial = make_ard_stepper(s, Backend::serial, GetParam().precision);
    auto other = make(s);
    advance(*serial);
    advance(*other);
    for (int c = 0; c < 2; ++c) {
      if (GetParam().backend == Backend::cuda) EXPECT_LT(max_abs_diff(other->values(c), serial->values(c)), cuda_tol);
      else EXPECT_EQ(other->values(c), serial->values(c)) << "species " << c;
    }
    EXPECT_GT(max_abs_diff(serial->values(0), initial_of(s, 0)), 1e-3) << "nothing happened";
  }
};

// Forward Euler over n = 12, 24, 48 (orders within [1.8, 2.2]); rk4, Merson and Crank-Nicolson over 12,
// 24. The f32 rounding floor (about 1e-6) lies far below the finest error.
TEST_P(Anisotropic3dTest, AModeDecaysAtTheAnalyticRateAtSecondOrder) {
  for (const std::string scheme : {"euler", "rk4", "merson", "cn"}) {
    const int first = 12;
    double e[3];
    for (int q = 0; q < (scheme == "euler" ? 3 : 2); ++q) e[q] = mode_error(GetParam(), first << q, scheme);
    for (int q = 0; q < (scheme == "euler" ? 2 : 1); ++q) {
      const double order = std::log2(e[q] / e[q + 1]);
      EXPECT_GE(order, 1.8) << scheme << " n = " << (first << q) << ": errors " << e[q] << ", " << e[q + 1];
      EXPECT_LE(order, 2.2) << scheme << " n = " << (first << q) << ": errors " << e[q] << ", " << e[q + 1];
    }
  }
}

// A tensor and a diffusivity that vary in every direction, every entry non-zero.
ArdSpec varying_tensor_3d(const Grid2& g, const FieldBoundary& bc) {
  ArdSpec s = inert_diffusion_spec(g, 0.3, 0.15, bc);
  const double lx = g.width(), ly = g.height(), lz = g.depth();
  auto field = [&](auto f) { return ScalarSpec{0.0, sample3(g, f)}; };
  set_tensor(s, field([=](double x, double, double z) { return 1 + 0.4 * std::sin(2 * pi * (x / lx + z / lz)); }),
             field([=](double x, double y, double) { return 0.25 * std::cos(2 * pi * x / lx) * std::cos(pi * y / ly); }),
             field([=](double, double y, double) { return 1 + 0.4 * std::cos(2 * pi * y / ly); }),
             field([=](double x, double, double z) { return -0.2 * std::cos(pi * z / lz) * std::sin(2 * pi * x / lx + 0.5); }),
             field([=](double, double y, double z) { return 0.2 * std::cos(2 * pi * y / ly) * std::cos(pi * z / lz); }),
             field([=](double x, double y, double) { return 0.9 + 0.3 * std::sin(2 * pi * (x / lx - y / ly)); }));
  s.params["Du"].cells = sample3(g, [=](double x, double y, double z) { return 0.2 + 0.1 * std::sin(2 * pi * (x / lx + y / ly + z / lz)); });
  s.initial[0] = uniform_noise(std::size_t(g.cells()), 2.0, 1.0, 41);
  s.initial[1] = sample3(g, [](double x, double y, double z) { return x < 4 && y > 10 && z < 3 ? 4.0 : 0.0; });  // against three sides
  s.dt = 0.9 * ard_stable_step(s).dt_max;
  return s;
}

// Face fluxes cancel in pairs; at zero-flux sides the odd mirrors of xy, xz, yz make the boundary
// fluxes zero. f64 1e-12 relative, f32 1e-6 (200 steps of rounding).
TEST_P(Anisotropic3dTest, AVaryingTensorConservesMassBetweenZeroFluxAndPeriodicSides) {
  for (BcKind kind : {BcKind::neumann, BcKind::periodic}) {
    const ArdSpec s = varying_tensor_3d(box(16, 14, 12), FieldBoundary::all(kind));
    auto st = make(s);
    st->advance(200);
    for (int c = 0; c < 2; ++c)
      EXPECT_NEAR(total(st->values(c)) / total(initial_of(s, std::size_t(c))), 1.0, tol(1e-12, 1e-6)) << int(kind) << " species " << c;
    EXPECT_LT(variance(st->values(0)), 0.2 * variance(initial_of(s, 0))) << "diffusion did not act";
  }
}

// The 2D tensor run `flat` on three planes alike: its state, tensor and diffusivities in every plane,
// xz = yz = 0, and z sides of kind `z_sides`.
ArdSpec in_three_planes(const ArdSpec& flat, BcKind z_sides) {
  ArdSpec deep = flat;
  deep.grid.nz = 3;
  auto planes = [](std::vector<double> cells) {
    std::vector<double> out;
    for (int k = 0; k < 3; ++k) out.insert(out.end(), cells.begin(), cells.end());
    return out;
  };
  for (std::size_t c = 0; c < 2; ++c) deep.initial[c] = planes(initial_of(flat, c));
  for (ScalarSpec* m : {&deep.mxx, &deep.mxy, &deep.myy, &deep.params["Du"], &deep.params["Dv"]})
    if (m->varies()) m->cells = planes(m->cells);
  deep.mxz = ScalarSpec{0.0, {}}, deep.myz = ScalarSpec{0.0, {}}, deep.mzz = ScalarSpec{0.7, {}};
  for (int c = 0; c < 2; ++c) deep.bc.side[front][c] = deep.bc.side[back][c] = SideBc{z_sides};
  return deep;
}

// With no variation along z (between zero-flux or periodic z sides, xz = yz = 0) the terms across the
// planes are zero exactly, so every plane is the 2D tensor run, bit for bit.
TEST_P(Anisotropic3dTest, AStateUniformInZEvolvesAsThe2DTensorRunInEveryPlane) {
  const ArdSpec flat = varying_tensor_spec(Grid2{24, 40}, BcKind::neumann);
  auto run2 = make(flat);
  run2->advance(120);
  for (BcKind z_sides : {BcKind::neumann, BcKind::periodic}) {
    const ArdSpec deep = in_three_planes(flat, z_sides);
    auto run3 = make(deep);
    run3->advance(120);
    for (int c = 0; c < 2; ++c) {
      const std::vector<double> a = run2->values(c), b = run3->values(c);
      ASSERT_EQ(b.size(), 3 * a.size());
      for (int k = 0; k < 3; ++k)
        EXPECT_TRUE(std::equal(a.begin(), a.end(), b.begin() + std::ptrdiff_t(k) * std::ptrdiff_t(a.size())))
            << "species " << c << ", plane " << k << ", z sides " << int(z_sides);
    }
  }
}

// Periodic x and y sides, Dirichlet z sides (1 at the front, 0.2 at the back) and a constant full
// tensor: a state shifted by (5, 3) cells evolves into the result shifted by (5, 3), bit for bit. Near a
// seam the cross derivatives read ghosts outside along x (or y) and z at once, images of images: a
// wrong one would show as a difference there.
TEST_P(Anisotropic3dTest, PeriodicSeamsAreInvisibleWithDirichletZSides) {
  const Grid2 g = box(12, 10, 6);
  FieldBoundary bc = FieldBoundary::all(BcKind::periodic);
  for (int c = 0; c < 2; ++c) bc.side[front][c] = SideBc{BcKind::dirichlet, 1.0}, bc.side[back][c] = SideBc{BcKind::dirichlet, 0.2};
  ArdSpec s = inert_diffusion_spec(g, 0.3, 0.2, bc);
  set_constant_tensor(s);
  s.initial[0] = uniform_noise(std::size_t(g.cells()), 1.0, 0.5, 43);
  s.initial[1] = uniform_noise(std::size_t(g.cells()), 0.5, 0.5, 44);
  s.dt = 0.9 * ard_stable_step(s).dt_max;
  const auto shifted = [&](const std::vector<double>& a) {
    std::vector<double> out(a.size());
    for_each_cell(g.extents(), [&](int i, int j, int k) {
      out[std::size_t(g.extents().index((i + 5) % g.nx, (j + 3) % g.ny, k))] = a[std::size_t(g.extents().index(i, j, k))];
    });
    return out;
  };
  ArdSpec moved = s;
  for (std::size_t c = 0; c < 2; ++c) moved.initial[c] = shifted(initial_of(s, c));
  auto a = make(s), b = make(moved);
  a->advance(80);
  b->advance(80);
  for (int c = 0; c < 2; ++c) EXPECT_EQ(b->values(c), shifted(a->values(c))) << "species " << c;
  EXPECT_GT(max_abs_diff(a->values(0), initial_of(s, 0)), 1e-2) << "nothing happened";
}

// Forward Euler and rk4 with the varying tensor and a different rule on each side pair: OpenMP bitwise,
// CUDA within rounding (f64 1e-12; f32 1e-4).
TEST_P(Anisotropic3dTest, BackendsAgreeWithTheSerialRun) {
  FieldBoundary bc = FieldBoundary::all(BcKind::neumann);
  for (int c = 0; c < 2; ++c) {
    bc.side[bottom][c] = bc.side[top][c] = SideBc{BcKind::periodic};
    bc.side[front][c] = SideBc{BcKind::dirichlet, 1.0};
  }
  ArdSpec s = varying_tensor_3d(box(16, 14, 12), bc);
  expect_agreement(s, [](Stepper& st) { st.advance(100); }, tol(1e-12, 1e-4));
  s.mol_scheme = "rk4";
  expect_agreement(s, [](Stepper& st) { st.advance(50); }, tol(1e-12, 1e-4));
}

// Backward Euler at 20 times forward Euler's limit on the varying tensor, two steps.
ArdSpec theta_tensor_3d(const FieldBoundary& bc, SolverMethod method, double solver_tol, const Grid2& g = box(16, 14, 12)) {
  return backward_euler_far_past_the_limit(varying_tensor_3d(g, bc), method, solver_tol);
}

std::vector<double> theta_run(const ArdSpec& s, const BackendCase& c, int64_t steps, SolverTotals* totals = nullptr,
                              int field = 0) {
  auto st = make_ard_stepper(s, c.backend, c.precision);
  st->advance(steps);
  if (totals) *totals = *st->solver_totals();
  return st->values(field);
}

// f32 solves stall near 1e-7 of the operator's scale (docs/solvers.md): 1e-4 leaves room.
class Theta3dTensorTest : public Anisotropic3dTest {
 protected:
  double solver_tol() const { return tol(1e-10, 1e-4); }
};

// Each solver against multigrid to a 100 times tighter tolerance, on zero-flux, periodic and mixed sides
// (Dirichlet front, periodic y, Neumann else). |b| is about 30, so a residual of tol |b| bounds the
// error near f64 1e-8 and f32 3e-3: 1e-7 and 3e-2 allowed. Where no flux leaves the total changes by the
// residual's sum only.
TEST_P(Theta3dTensorTest, EverySolverReachesTheSameStepOnEveryBoundaryKind) {
  FieldBoundary mixed = FieldBoundary::all(BcKind::neumann);
  for (int c = 0; c < 2; ++c) {
    mixed.side[bottom][c] = mixed.side[top][c] = SideBc{BcKind::periodic};
    mixed.side[front][c] = SideBc{BcKind::dirichlet, 1.0};
  }
  const FieldBoundary sides[3] = {FieldBoundary::all(BcKind::neumann), FieldBoundary::all(BcKind::periodic), mixed};
  const SolverMethod methods[] = {SolverMethod::jacobi, SolverMethod::rbgs,     SolverMethod::sor,
                                  SolverMethod::cg,     SolverMethod::pcg,      SolverMethod::bicgstab,
                                  SolverMethod::multigrid};
  for (int k = 0; k < 3; ++k) {
    ArdSpec ref_spec = theta_tensor_3d(sides[k], SolverMethod::multigrid, f32() ? solver_tol() : solver_tol() / 100);
    const std::vector<double> ref = theta_run(ref_spec, GetParam(), 2);
    for (SolverMethod m : methods) {
      SCOPED_TRACE(std::string(solver_method_name(m)) + ", sides " + std::to_string(k));
      const ArdSpec s = theta_tensor_3d(sides[k], m, solver_tol());
      SolverTotals t;
      const std::vector<double> u = theta_run(s, GetParam(), 2, &t);
      EXPECT_EQ(t.solves, 2);
      EXPECT_EQ(t.unconverged, 0);
      EXPECT_LT(max_abs_diff(u, ref), tol(1e-7, 3e-2));
      if (k < 2) {
        EXPECT_NEAR(total(u) / total(initial_of(s, 0)), 1.0, tol(1e-8, 1e-3));
      }
      EXPECT_GT(max_abs_diff(u, initial_of(s, 0)), 0.1) << "nothing happened";
    }
  }
}

// Far past the explicit limit (a thousand times: the step is nearly a Poisson solve) multigrid's cycles
// per solve do not grow from 16^3 to 32^3 cells (at most one more). With this varying tensor a V cycle
// cuts the residual about fivefold (f64: 17 cycles to 1e-10 at 16^3, 14 at 32^3; f32: 6 and 5 to 1e-4).
TEST_P(Theta3dTensorTest, MultigridCyclesDoNotGrowWithTheGrid) {
  double cycles[2];
  for (int q = 0; q < 2; ++q) {
    const int n = 16 << q;
    ArdSpec s = theta_tensor_3d(FieldBoundary::all(BcKind::neumann), SolverMethod::multigrid, solver_tol(), box(n, n, n, 16.0 / n));
    s.dt *= 50;
    SolverTotals t;
    theta_run(s, GetParam(), 2, &t);
    EXPECT_EQ(t.unconverged, 0);
    cycles[q] = double(t.iterations) / double(t.solves);
  }
  std::printf("multigrid cycles per 3D tensor solve: %.1f at 16^3, %.1f at 32^3\n", cycles[0], cycles[1]);
  EXPECT_LE(cycles[1], cycles[0] + 1);
  EXPECT_LE(cycles[1], tol(18, 8));
}

// With no variation along z (xz = yz = 0, zero-flux z sides) the operator's terms across the planes
// vanish on the solution, so every plane steps as the 2D tensor theta run: to the solves' tolerance.
TEST_P(Theta3dTensorTest, AStateUniformInZStepsAsThe2DThetaRunInEveryPlane) {
  ArdSpec flat = varying_tensor_spec(Grid2{24, 40}, BcKind::neumann);
  flat.theta = 0.5;
  flat.dt *= 10;
  flat.solver.tol = solver_tol();
  const ArdSpec deep = in_three_planes(flat, BcKind::neumann);
  for (int c = 0; c < 2; ++c) {
    const std::vector<double> a = theta_run(flat, GetParam(), 10, nullptr, c), b = theta_run(deep, GetParam(), 10, nullptr, c);
    ASSERT_EQ(b.size(), 3 * a.size());
    for (int k = 0; k < 3; ++k) {
      const std::vector<double> plane(b.begin() + std::ptrdiff_t(k * a.size()), b.begin() + std::ptrdiff_t((k + 1) * a.size()));
      EXPECT_LT(max_abs_diff(plane, a), tol(1e-7, 3e-2)) << "species " << c << ", plane " << k;
    }
    EXPECT_GT(max_abs_diff(a, initial_of(flat, std::size_t(c))), 0.05) << "nothing happened";
  }
}

// The same steps on every backend against the serial f64 run (within the solves' reach, above), and
// the same iterations within 10% (f64) by eight-colour Gauss-Seidel and multigrid.
TEST_P(Theta3dTensorTest, AgreesWithTheSerialRunInStateAndIterations) {
  FieldBoundary bc = FieldBoundary::all(BcKind::neumann);
  for (int c = 0; c < 2; ++c) bc.side[front][c] = SideBc{BcKind::dirichlet, 1.0};
  for (SolverMethod m : {SolverMethod::rbgs, SolverMethod::multigrid}) {
    SCOPED_TRACE(std::string(solver_method_name(m)));
    SolverTotals mine, serial;
    const auto u = theta_run(theta_tensor_3d(bc, m, solver_tol()), GetParam(), 2, &mine, 1);
    const auto ref = theta_run(theta_tensor_3d(bc, m, 1e-10), {Backend::serial, Precision::f64}, 2, &serial, 1);
    EXPECT_LT(max_abs_diff(u, ref), tol(1e-7, 3e-2));
    if (!f32()) {
      EXPECT_NEAR(double(mine.iterations), double(serial.iterations), 0.1 * double(serial.iterations));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, Theta3dTensorTest, ::testing::ValuesIn(backend_cases()), backend_case_name);

INSTANTIATE_TEST_SUITE_P(Backends, Anisotropic3dTest, ::testing::ValuesIn(backend_cases()), backend_case_name);

}  // namespace
}  // namespace pdex::test
