// The Helmholtz operator with a diffusion tensor (helmholtz.hpp, Helmholtz<T, true>: alpha x - beta
// div(d M grad x), nine points): its diagonal is the coefficient of the cell in its own row, boundary
// images included, which the relaxation sweeps and the Jacobi preconditioner divide by; with M = I it is
// the five-point operator. The same for the 3D grid's (helmholtz3.hpp, Helmholtz3<T, true>: nineteen
// points, six entries), whose eight-colour Gauss-Seidel sweep reduces the error like a lexicographic one.
// On CUDA a run of Gauss-Seidel sweeps in one launch makes the sweeps of each colour, with this operator
// and the five-point one.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "pdex/core/executor.hpp"
#include "pdex/grid/field.hpp"
#include "pdex/grid/fill_ghosts.hpp"
#include "pdex/linalg/helmholtz.hpp"
#include "pdex/linalg/helmholtz3.hpp"
#include "pdex/linalg/relaxation.hpp"
#include "pdex/linalg/relaxation3.hpp"
#ifdef PDEX_HAVE_CUDA
#include "pdex/core/cuda/cuda_context.hpp"
#endif

namespace pdex::test {
namespace {

struct Sides {
  const char* name;
  BcKind left, right, bottom, top;
};

FieldBoundary boundary_of(const Sides& s) {
  FieldBoundary bc;
  const BcKind kinds[4] = {s.left, s.right, s.bottom, s.top};
  for (int side = 0; side < 4; ++side)
    bc.side[side][0] = SideBc{kinds[side], kinds[side] == BcKind::dirichlet ? 0.7 : 0};
  return bc;
}

// A random symmetric positive definite tensor per cell (|xy| < sqrt(xx yy) / 2) and a random multiplier
// d, with the ghosts of coefficient fields; the operator of a backward Euler step on them.
struct TensorProblem {
  Grid2 grid;
  FieldBoundary bc;
  Field<double> m, d;
  Helmholtz<double, true> op;
  Helmholtz<double> five;  // the same operator with five points (M ignored)

  TensorProblem(const Grid2& g, const FieldBoundary& b, bool identity, bool with_d)
      : grid(g), bc(b), m(g, 3, 1, MemorySpace::host), d(g, 1, 1, MemorySpace::host) {
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> u(0.5, 1.5), s(-0.5, 0.5);
    for (int j = 0; j < g.ny; ++j)
      for (int i = 0; i < g.nx; ++i) {
        const double xx = identity ? 1 : u(rng), yy = identity ? 1 : u(rng);
        m.view()(0, i, j) = xx;
        m.view()(1, i, j) = identity ? 0 : s(rng) * std::sqrt(xx * yy);
        m.view()(2, i, j) = yy;
        d.view()(0, i, j) = with_d ? u(rng) : 1;
      }
    fill_ghosts(Serial{}, m, tensor_boundary(bc));
    fill_ghosts(Serial{}, d, coefficient_boundary(bc, 1));
    const double beta = 0.8;
    Field<double> layout(g, 1, 1, MemorySpace::host);
    op = make_helmholtz<double, true>(g, layout.view().pitch, 1.0, &beta, 1, bc);
    op.m = m.cview().data;
    op.m_stride = m.cview().comp_stride;
    five = make_helmholtz<double>(g, layout.view().pitch, 1.0, &beta, 1, bc);
    if (with_d) op.d[0] = five.d[0] = d.cview().data;
  }
};

const Sides sides_cases[] = {
    {"all periodic", BcKind::periodic, BcKind::periodic, BcKind::periodic, BcKind::periodic},
    {"all Neumann", BcKind::neumann, BcKind::neumann, BcKind::neumann, BcKind::neumann},
    {"all Dirichlet", BcKind::dirichlet, BcKind::dirichlet, BcKind::dirichlet, BcKind::dirichlet},
    {"Neumann / Dirichlet, periodic in y", BcKind::neumann, BcKind::dirichlet, BcKind::periodic, BcKind::periodic},
    {"periodic in x, Dirichlet / Neumann", BcKind::periodic, BcKind::periodic, BcKind::dirichlet, BcKind::neumann},
    {"Dirichlet / Neumann, Neumann / Dirichlet", BcKind::dirichlet, BcKind::neumann, BcKind::neumann,
     BcKind::dirichlet},
};

// diag(i, j) against A applied to the unit vector of the cell, whose ghosts hold its homogeneous images:
// the coefficient of x(i, j) in (A x)(i, j). f64: the same sums in another order, 1e-13 relative.
TEST(TensorOperator, DiagonalIsTheCellsOwnCoefficientWithItsBoundaryImages) {
  const Grid2 g{7, 6, 1.0 / 7, 1.5 / 6};
  for (const Sides& s : sides_cases) {
    SCOPED_TRACE(s.name);
    const TensorProblem p(g, boundary_of(s), false, true);
    Field<double> e(g, 1, 1, MemorySpace::host);
    for (int j = 0; j < g.ny; ++j)
      for (int i = 0; i < g.nx; ++i) {
        for (int q = 0; q < g.ny; ++q)
          for (int r = 0; r < g.nx; ++r) e.view()(0, r, q) = r == i && q == j ? 1 : 0;
        fill_ghosts(Serial{}, e, homogeneous(p.bc));
        const double probed = p.op.apply(e.cview(), i, j, 0);
        const double diag = p.op.diag(i, j, 0, e.cview().offset(i, j));
        EXPECT_NEAR(diag, probed, 1e-13 * std::abs(probed)) << "cell (" << i << ", " << j << ")";
      }
  }
}

// M = I and no multiplier: the nine-point operator's fluxes are the five-point Laplacian's, and so are its
// diagonal and its values on any field (f64: the same terms in another order, 1e-12 of the operator's scale).
TEST(TensorOperator, IdentityTensorIsTheFivePointOperator) {
  const Grid2 g{9, 8, 0.1, 0.125};
  for (const Sides& s : sides_cases) {
    SCOPED_TRACE(s.name);
    const TensorProblem p(g, boundary_of(s), true, false);
    const Helmholtz<double>& five = p.five;
    Field<double> x(g, 1, 1, MemorySpace::host);
    std::mt19937_64 rng(9);
    std::uniform_real_distribution<double> u(-1, 1);
    for (int j = 0; j < g.ny; ++j)
      for (int i = 0; i < g.nx; ++i) x.view()(0, i, j) = u(rng);
    fill_ghosts(Serial{}, x, p.bc);
    const double scale = 8 * 0.8 / (0.1 * 0.1);
    for (int j = 0; j < g.ny; ++j)
      for (int i = 0; i < g.nx; ++i) {
        const int64_t o = x.cview().offset(i, j);
        EXPECT_NEAR(p.op.apply(x.cview(), i, j, 0), five.apply(x.cview(), i, j, 0), 1e-12 * scale);
        EXPECT_NEAR(p.op.diag(i, j, 0, o), five.diag(i, j, 0, o), 1e-12 * scale);
      }
  }
}

// The 3D grid's: a random symmetric positive definite M of six entries per cell (off-diagonal entries
// within a third of sqrt(aa bb)), a random multiplier d, a different rule on each of the six sides
// (Dirichlet, Neumann, Robin, periodic), and the operator of a backward Euler step.
struct TensorProblem3 {
  Grid2 grid;
  FieldBoundary bc;
  Field<double> m, d;
  Helmholtz3<double, true> op;
  Helmholtz3<double> seven;  // the same operator with seven points (M ignored)

  TensorProblem3(const Grid2& g, const FieldBoundary& b, bool identity)
      : grid(g), bc(b), m(g, 6, 1, MemorySpace::host), d(g, 1, 1, MemorySpace::host) {
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> u(0.5, 1.5), s(-1.0 / 3, 1.0 / 3);
    for_each_cell(g.extents(), [&](int i, int j, int k) {
      const double xx = identity ? 1 : u(rng), yy = identity ? 1 : u(rng), zz = identity ? 1 : u(rng);
      const double off[3] = {std::sqrt(xx * yy), std::sqrt(xx * zz), std::sqrt(yy * zz)};
      const double e[6] = {xx, identity ? 0 : s(rng) * off[0], yy, identity ? 0 : s(rng) * off[1],
                           identity ? 0 : s(rng) * off[2], zz};
      for (int q = 0; q < 6; ++q) m.view()(q, i, j, k) = e[q];
      d.view()(0, i, j, k) = identity ? 1 : u(rng);
    });
    fill_ghosts(Serial{}, m, tensor_boundary(bc, 6));
    fill_ghosts(Serial{}, d, coefficient_boundary(bc, 1));
    const double beta = 0.8;
    op = make_helmholtz3<double, true>(g, m.cview(), 1.0, &beta, 1, bc);
    op.m = m.cview().data;
    op.m_stride = m.cview().comp_stride;
    seven = make_helmholtz3<double>(g, m.cview(), 1.0, &beta, 1, bc);
    if (!identity) op.d[0] = seven.d[0] = d.cview().data;
  }
};

Grid2 box3(int nx, int ny, int nz) {
  Grid2 g{nx, ny, 1.0 / nx, 1.2 / ny};
  g.nz = nz, g.dz = 0.9 / nz;
  return g;
}

// Every kind of side, each on another face; and periodic in x and y with Dirichlet and Robin z sides.
std::vector<FieldBoundary> sides3_cases() {
  const SideBc dirichlet{BcKind::dirichlet, 0.7}, neumann{BcKind::neumann}, periodic{BcKind::periodic};
  SideBc robin{BcKind::robin, 0.3};
  robin.scale = 0.6;
  FieldBoundary mixed, seams;
  const SideBc sides[6] = {dirichlet, neumann, periodic, periodic, robin, dirichlet};
  const SideBc around[6] = {periodic, periodic, periodic, periodic, dirichlet, robin};
  for (int side = 0; side < side_count; ++side) mixed.side[side][0] = sides[side], seams.side[side][0] = around[side];
  return {mixed, seams};
}

// diag(i, j, k) against A applied to the unit vector of the cell, whose ghosts (edges and corners
// included) hold its homogeneous images. f64: the same sums in another order, 1e-13 relative.
TEST(TensorOperator3d, DiagonalIsTheCellsOwnCoefficientWithItsBoundaryImages) {
  const Grid2 g = box3(5, 4, 4);
  for (const FieldBoundary& bc : sides3_cases()) {
    const TensorProblem3 p(g, bc, false);
    Field<double> e(g, 1, 1, MemorySpace::host);
    for_each_cell(g.extents(), [&](int i, int j, int k) {
      fill_all(Serial{}, e.view(), 0.0);
      e.view()(0, i, j, k) = 1;
      fill_ghosts(Serial{}, e, homogeneous(p.bc));
      const int64_t o = e.cview().offset(i, j, k);
      const double probed = p.op.apply_at(e.cview().comp(0), o, 0);
      EXPECT_NEAR(p.op.diag_at(i, j, k, 0, o), probed, 1e-13 * std::abs(probed)) << "cell (" << i << ", " << j << ", " << k << ")";
    });
  }
}

// M = I and no multiplier: the nineteen-point operator is the seven-point one, on any field and on its
// diagonal (f64, 1e-12 of the operator's scale).
TEST(TensorOperator3d, IdentityTensorIsTheSevenPointOperator) {
  const Grid2 g = box3(6, 5, 4);
  for (const FieldBoundary& bc : sides3_cases()) {
    const TensorProblem3 p(g, bc, true);
    Field<double> x(g, 1, 1, MemorySpace::host);
    std::mt19937_64 rng(9);
    std::uniform_real_distribution<double> u(-1, 1);
    for_each_cell(g.extents(), [&](int i, int j, int k) { x.view()(0, i, j, k) = u(rng); });
    fill_ghosts(Serial{}, x, p.bc);
    const double scale = 8 * 0.8 / (g.dz * g.dz);
    for_each_cell(g.extents(), [&](int i, int j, int k) {
      const int64_t o = x.cview().offset(i, j, k);
      EXPECT_NEAR(p.op.apply_at(x.cview().comp(0), o, 0), p.seven.apply_at(x.cview().comp(0), o, 0), 1e-12 * scale);
      EXPECT_NEAR(p.op.diag_at(i, j, k, 0, o), p.seven.diag_at(i, j, k, 0, o), 1e-12 * scale);
    });
  }
}

// The eight colours are independent sets of the nineteen-point stencil: a sweep gives the same result
// whatever the order of the cells within a colour, so serial and OpenMP (threads over rows) agree bit
// for bit, and Gauss-Seidel converges to the solution of A x = b (its slowest mode falls about 3% a sweep
// here: after 1,500 sweeps the residual is below 1e-10 of b's).
TEST(TensorOperator3d, EightColourGaussSeidelConvergesAndIsTheSameOnEveryThreadCount) {
  const Grid2 g = box3(8, 6, 6);
  for (const FieldBoundary& bc : sides3_cases()) {
    const TensorProblem3 p(g, bc, false);
    Field<double> x(g, 1, 1, MemorySpace::host), b = x.like(MemorySpace::host);
    std::mt19937_64 rng(13);
    std::uniform_real_distribution<double> u(-1, 1);
    for_each_cell(g.extents(), [&](int i, int j, int k) { b.view()(0, i, j, k) = u(rng); });
    fill_ghosts(Serial{}, x, p.bc);
    Field<double> y = x.like(MemorySpace::host);
    copy_interior(Serial{}, x.cview(), y.view());
    fill_ghosts(Serial{}, y, p.bc);
    rb_sweeps(Serial{}, p.op, x.view(), b.cview(), p.bc, 1.0, false, 1500, false);
    rb_sweeps(OpenMP{}, p.op, y.view(), b.cview(), p.bc, 1.0, false, 1500, false);
    EXPECT_EQ(x.interior(0), y.interior(0));
    const double r = std::sqrt(residual_norm2(Serial{}, p.op, x.cview(), b.cview()));
    EXPECT_LT(r, 1e-10 * std::sqrt(dot(Serial{}, b.cview(), b.cview())));
  }
}

#ifdef PDEX_HAVE_CUDA
// x and b random, x's ghosts its images; the serial sweeps' result and largest change against one
// cooperative launch's on CUDA (op_d: op with the tensor and multiplier on the device).
template <class Op>
void expect_run_as_serial(const TensorProblem& p, const Op& op, Op op_d, int sweeps, bool reverse) {
  const Grid2& g = p.grid;
  Field<double> x(g, 1, 1, MemorySpace::host), b = x.like(MemorySpace::host);
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int j = 0; j < g.ny; ++j)
    for (int i = 0; i < g.nx; ++i) {
      x.view()(0, i, j) = u(rng);
      b.view()(0, i, j) = u(rng);
    }
  fill_ghosts(Serial{}, x, p.bc);
  Field<double> xd = to_space(x, MemorySpace::device), bd = to_space(b, MemorySpace::device);
  const Field<double> md = to_space(p.m, MemorySpace::device), dd = to_space(p.d, MemorySpace::device);
  if constexpr (Op::tensor()) op_d.m = md.cview().data;
  op_d.d[0] = dd.cview().data;
  const Cuda gpu{&default_cuda_context()};
  const double omega = 1.3;
  const double serial = rb_sweeps(Serial{}, op, x.view(), b.cview(), p.bc, omega, reverse, sweeps, true);
  const double cuda = rb_sweeps(gpu, op_d, xd.view(), bd.cview(), p.bc, omega, reverse, sweeps, true);
  EXPECT_NEAR(cuda, serial, 1e-12 * serial) << "largest change of the last sweep";
  const std::vector<double> want = x.interior(0), got = to_space(xd, MemorySpace::host).interior(0);
  double worst = 0, scale = 0;
  for (std::size_t q = 0; q < want.size(); ++q) {
    worst = std::max(worst, std::abs(got[q] - want[q]));
    scale = std::max(scale, std::abs(want[q]));
  }
  EXPECT_LE(worst, 1e-12 * scale);
  // Not measured: 0, without a wait.
  EXPECT_EQ(rb_sweeps(gpu, op_d, xd.view(), bd.cview(), p.bc, omega, reverse, 1, false), 0.0);
}

// On CUDA a run of Gauss-Seidel sweeps is one cooperative launch (rb_sweeps, cuda/sweep_runs.cuh): it
// must make the updates of rb_sweep's colours, in order, four for the tensor and red and black for five
// points, on every kind of side, and return the last sweep's largest change. Against the serial sweeps
// (f64: the same operations, fused multiply-adds on the GPU, 1e-12 relative). 16 x 14 goes in one block
// with block barriers (56 and 112 cells a colour); 30 x 24 and 300 x 200 take runs of
// several and many blocks; 1000 x 800 has more cells a colour than the GPU holds threads at once, so
// there the run goes a launch a colour (rb_sweep).
TEST(TensorOperator, CudaRunOfSweepsInOneLaunchMakesTheSweepsOfEachColour) {
  if (!backend_available(Backend::cuda))
    GTEST_SKIP() << "no CUDA device: " << backend_unavailable_reason(Backend::cuda);
  struct Case {
    Grid2 grid;
    const Sides* sides;
    int sweeps;
    bool reverse;
  };
  const Grid2 tiny{16, 14, 1.0 / 16, 1.1 / 14}, small{30, 24, 1.0 / 30, 1.2 / 24}, middle{300, 200, 1.0 / 300, 0.8 / 200},
      large{1000, 800, 1e-3, 1e-3};
  std::vector<Case> cases;
  for (const Sides& s : sides_cases) cases.push_back({tiny, &s, 7, false});
  cases.push_back({tiny, &sides_cases[2], 6, true});
  for (const Sides& s : sides_cases) cases.push_back({small, &s, 5, false});
  cases.push_back({small, &sides_cases[1], 4, true});
  cases.push_back({middle, &sides_cases[3], 3, false});
  cases.push_back({large, &sides_cases[5], 3, false});
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.sides->name) + ", " + std::to_string(c.grid.nx) + " x " + std::to_string(c.grid.ny) +
                 (c.reverse ? ", colours reversed" : ""));
    const TensorProblem p(c.grid, boundary_of(*c.sides), false, true);
    {
      SCOPED_TRACE("tensor, four colours");
      expect_run_as_serial(p, p.op, p.op, c.sweeps, c.reverse);
    }
    {
      SCOPED_TRACE("five points, red and black");
      expect_run_as_serial(p, p.five, p.five, c.sweeps, c.reverse);
    }
  }
}
#endif

}  // namespace
}  // namespace pdex::test
