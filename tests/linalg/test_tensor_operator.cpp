// The Helmholtz operator with a diffusion tensor (helmholtz.hpp, Helmholtz<T, true>: alpha x - beta
// div(d M grad x), nine points): its diagonal is the coefficient of the cell in its own row, boundary
// images included, which the relaxation sweeps and the Jacobi preconditioner divide by; with M = I it is
// the five-point operator.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "pdex/core/executor.hpp"
#include "pdex/grid/field.hpp"
#include "pdex/grid/fill_ghosts.hpp"
#include "pdex/linalg/helmholtz.hpp"

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
    op = make_helmholtz<double, true>(g.nx, g.ny, g.dx, g.dy, layout.view().pitch, 1.0, &beta, 1, bc);
    op.m = m.cview().data;
    op.m_stride = m.cview().comp_stride;
    five = make_helmholtz<double>(g.nx, g.ny, g.dx, g.dy, layout.view().pitch, 1.0, &beta, 1, bc);
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

}  // namespace
}  // namespace pdex::test
