// Tensor diffusion on 3D grids, div(D M grad u) with M's six entries (grid/stencil.hpp div_tensor plus
// div_tensor_z): a mode under a constant full tensor decays at the analytic rate D k^T M k at second
// order by forward Euler, rk4 and Merson; a varying tensor conserves mass between zero-flux and periodic
// sides; a state the same in every plane evolves as the 2D tensor run; a periodic seam is invisible (a
// shifted state gives the shifted result, bit for bit) with Dirichlet z sides, whose edge ghosts the
// cross derivatives read there; the backends agree.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "models/ard_test_support.hpp"
#include "pdex/models/ard/ard_stability.hpp"

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
  s.mol_scheme = scheme == "euler" ? "" : scheme;
  s.tol = c.precision == Precision::f32 ? 1e-6 : 1e-9;
  auto st = make_ard_stepper(s, c.backend, c.precision);
  if (scheme == "merson") dynamic_cast<MolStepper&>(*st).advance_to(1.0);
  else st->advance(steps);
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

// Forward Euler over n = 12, 24, 48 (orders within [1.8, 2.2]); rk4 and Merson over 12, 24. The f32
// rounding floor (about 1e-6) lies far below the finest error.
TEST_P(Anisotropic3dTest, AModeDecaysAtTheAnalyticRateAtSecondOrder) {
  for (const std::string scheme : {"euler", "rk4", "merson"}) {
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

// With no variation along z (between zero-flux or periodic z sides, xz = yz = 0) the terms across the
// planes are zero exactly, so every plane is the 2D tensor run, bit for bit.
TEST_P(Anisotropic3dTest, AStateUniformInZEvolvesAsThe2DTensorRunInEveryPlane) {
  const ArdSpec flat = varying_tensor_spec(Grid2{24, 40}, BcKind::neumann);
  auto run2 = make(flat);
  run2->advance(120);
  for (BcKind z_sides : {BcKind::neumann, BcKind::periodic}) {
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

INSTANTIATE_TEST_SUITE_P(Backends, Anisotropic3dTest, ::testing::ValuesIn(backend_cases()), backend_case_name);

}  // namespace
}  // namespace pdex::test
