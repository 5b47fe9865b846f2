#pragma once
// Mass, centre of mass and covariance of a non-negative field on a grid: the quantities that
// advection (first moments move with the velocity) and diffusion (second moments grow as 2 D M t)
// change in known ways.
#include <cstddef>
#include <vector>

#include "pdex/grid/grid.hpp"

namespace pdex::test {

struct Moments {
  double mass = 0, cx = 0, cy = 0, cxx = 0, cxy = 0, cyy = 0;
};

inline Moments moments(const Grid2& g, const std::vector<double>& u) {
  Moments m;
  for (int j = 0; j < g.ny; ++j)
    for (int i = 0; i < g.nx; ++i) {
      const double w = u[std::size_t(j) * g.nx + i];
      m.mass += w;
      m.cx += w * g.x(i);
      m.cy += w * g.y(j);
    }
  m.cx /= m.mass;
  m.cy /= m.mass;
  for (int j = 0; j < g.ny; ++j)
    for (int i = 0; i < g.nx; ++i) {
      const double w = u[std::size_t(j) * g.nx + i], dx = g.x(i) - m.cx, dy = g.y(j) - m.cy;
      m.cxx += w * dx * dx;
      m.cxy += w * dx * dy;
      m.cyy += w * dy * dy;
    }
  m.cxx /= m.mass;
  m.cxy /= m.mass;
  m.cyy /= m.mass;
  return m;
}

}  // namespace pdex::test
