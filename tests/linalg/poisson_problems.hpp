#pragma once
// Manufactured Poisson problems -lap u = f on the unit square, one per boundary kind, with their exact
// solutions, for the solver tests.
#include <cmath>
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

}  // namespace pdex::test
