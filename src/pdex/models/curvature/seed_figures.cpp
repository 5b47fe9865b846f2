#include "pdex/models/curvature/seed_figures.hpp"

#include <cmath>
#include <numbers>

namespace pdex {

std::vector<double> radial_sine(const Grid2& g, double k) {
  std::vector<double> v;
  v.reserve(std::size_t(g.cells()));
  for_each_cell(g.extents(), [&](int i, int j) { v.push_back(std::sin(k * std::numbers::pi * std::hypot(g.x(i), g.y(j)))); });
  return v;
}

CurvatureSpec figure_spec(Flow flow) {
  CurvatureSpec s;
  s.flow = flow;
  s.grid = Grid2{128, 128, 0.03125, 0.03125, -2.0, -2.0};
  s.bc = FieldBoundary::all(BcKind::neumann);
  s.phi0 = radial_sine(s.grid, 3.0);
  s.tol = 1e-6;
  return s;
}

double figure_end_time(Flow flow) { return flow == Flow::willmore ? 0.1 : 0.5; }

}  // namespace pdex
