#pragma once
// Manufactured Poisson problems -lap u = f on the unit square, one per boundary kind, with their exact
// solutions, for the solver tests; and what full multigrid must do on them.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "pdex/linalg/elliptic.hpp"

namespace pdex::test {

struct Manufactured {
  EllipticSpec spec;
  std::vector<double> f, exact;
};

inline Manufactured manufactured_poisson(BcKind kind, int n, SolverSettings solver) {
  const double pi = 3.14159265358979323846;
  Manufactured m;
  m.spec.grid = Grid2{n, n, 1.0 / n, 1.0 / n};
  // Dirichlet: u = 1 + sin(pi x) sin(pi y) (the value 1 on every face); Neumann: u = cos(pi x) cos(pi y);
  // periodic: u = sin(2 pi x) cos(2 pi y). Each is an eigenfunction of -lap plus a constant.
  const double k = kind == BcKind::periodic ? 2 * pi : pi;
  m.spec.bc = FieldBoundary::all(kind, kind == BcKind::dirichlet ? 1.0 : 0.0);
  m.spec.solver = solver;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const double x = m.spec.grid.x(i), y = m.spec.grid.y(j);
      const double mode = kind == BcKind::dirichlet ? std::sin(k * x) * std::sin(k * y)
                          : kind == BcKind::neumann ? std::cos(k * x) * std::cos(k * y)
                                                    : std::sin(k * x) * std::cos(k * y);
      m.exact.push_back(mode + (kind == BcKind::dirichlet ? 1.0 : 0.0));
      m.f.push_back(2 * k * k * mode);
    }
  return m;
}

// The same on the unit cube in n^3 cells: Dirichlet u = 1 + sin sin sin, Neumann cos cos cos, periodic
// sin(2 pi x) cos(2 pi y) cos(2 pi z).
inline Manufactured manufactured_poisson_3d(BcKind kind, int n, SolverSettings solver) {
  const double pi = 3.14159265358979323846;
  Manufactured m;
  m.spec.grid = Grid2{n, n, 1.0 / n, 1.0 / n};
  m.spec.grid.nz = n;
  m.spec.grid.dz = 1.0 / n;
  const double k = kind == BcKind::periodic ? 2 * pi : pi;
  m.spec.bc = FieldBoundary::all(kind, kind == BcKind::dirichlet ? 1.0 : 0.0);
  m.spec.solver = solver;
  const Grid2& g = m.spec.grid;
  for_each_cell(g.extents(), [&](int i, int j, int l) {
    const double x = g.x(i), y = g.y(j), z = g.z(l);
    const double mode = kind == BcKind::dirichlet ? std::sin(k * x) * std::sin(k * y) * std::sin(k * z)
                        : kind == BcKind::neumann ? std::cos(k * x) * std::cos(k * y) * std::cos(k * z)
                                                  : std::sin(k * x) * std::cos(k * y) * std::cos(k * z);
    m.exact.push_back(mode + (kind == BcKind::dirichlet ? 1.0 : 0.0));
    m.f.push_back(3 * k * k * mode);
  });
  return m;
}

inline double max_error(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size())
    throw std::invalid_argument("max_error: " + std::to_string(a.size()) + " values against " + std::to_string(b.size()));
  double e = 0;
  for (std::size_t k = 0; k < a.size(); ++k) e = std::max(e, std::abs(a[k] - b[k]));
  return e;
}

inline const char* kind_name(BcKind k) {
  return k == BcKind::periodic ? "periodic" : k == BcKind::neumann ? "neumann" : "dirichlet";
}

// Full multigrid on problem m (multigrid to its solver.tol): the error after its first cycle alone, the
// converged solve's error, and the cycles with and without it.
struct FmgTrial {
  double once = 0, converged = 0;
  int cycles = 0, v_cycles = 0;
  bool both_converged = false;
};

inline FmgTrial fmg_trial(Manufactured m, Backend backend) {
  auto run = [&](bool fmg, int max_iter, double& error) {
    m.spec.solver.fmg = fmg;
    m.spec.solver.max_iter = max_iter;
    auto solver = make_elliptic_solver(m.spec, backend, Precision::f64);
    solver->set(std::vector<double>(m.f.size(), 0.0), m.f);
    const SolveStats st = solver->solve();
    error = max_error(solver->solution(), m.exact);
    return st;
  };
  FmgTrial t;
  double v_error = 0;
  run(true, 1, t.once);
  const SolveStats fmg = run(true, 60, t.converged), v = run(false, 60, v_error);
  t.cycles = fmg.iterations, t.v_cycles = v.iterations;
  t.both_converged = fmg.converged && v.converged;
  return t;
}

// What full multigrid must do on problems of growing size n (a manufactured problem per n): after its
// first cycle the error is at most twice the converged solve's (the discretization's) and falls at
// second order; the solves take at least two cycles fewer than V cycles alone. Prints the figures.
template <class Make>
void expect_full_multigrid_reaches_the_discretization_error(const std::vector<int>& sizes, Make make, Backend backend) {
  std::vector<double> after_one;
  for (int n : sizes) {
    const FmgTrial t = fmg_trial(make(n), backend);
    std::cout << "n = " << n << ": error after one FMG cycle " << t.once << ", converged " << t.converged << "; cycles "
              << t.cycles << " (V cycles alone " << t.v_cycles << ")\n";
    EXPECT_TRUE(t.both_converged) << "n = " << n;
    EXPECT_LE(t.once, 2 * t.converged) << "n = " << n;
    EXPECT_LE(t.cycles + 2, t.v_cycles) << "n = " << n;
    after_one.push_back(t.once);
  }
  for (std::size_t k = 0; k + 1 < after_one.size(); ++k)
    EXPECT_GE(after_one[k] / after_one[k + 1], 3.0) << "second order: 4 in the limit";
}

}  // namespace pdex::test
