#pragma once
// A uniform cell-centred grid: nx x ny cells of size dx x dy, the domain's lower-left corner at (x0, y0),
// in nz planes of thickness dz from z0 (a 2D grid has one plane). Cell (i, j, k) has its centre at
// (x0 + (i + 1/2) dx, y0 + (j + 1/2) dy, z0 + (k + 1/2) dz); j is the row (y) index, k the plane (z).
#include <cstdint>

#include "pdex/core/macros.hpp"
#include "pdex/grid/extents.hpp"

namespace pdex {

struct Grid2 {
  int nx = 0, ny = 0;
  double dx = 1.0, dy = 1.0;
  double x0 = 0.0, y0 = 0.0;
  int nz = 1;
  double dz = 1.0, z0 = 0.0;

  PDEX_HD Extents2 extents() const { return {nx, ny, nz}; }
  PDEX_HD bool is_3d() const { return nz > 1; }
  PDEX_HD int64_t cells() const { return extents().cells(); }
  PDEX_HD double x(int i) const { return x0 + (i + 0.5) * dx; }
  PDEX_HD double y(int j) const { return y0 + (j + 0.5) * dy; }
  PDEX_HD double z(int k) const { return z0 + (k + 0.5) * dz; }
  PDEX_HD double width() const { return nx * dx; }
  PDEX_HD double height() const { return ny * dy; }
  PDEX_HD double depth() const { return nz * dz; }
  // The same domain with the axes x, y and z say halved (rounding up), the spacing widened to match.
  PDEX_HD Grid2 halved(bool x, bool y, bool z = false) const {
    const Extents2 e = extents().halved(x, y, z);
    return {e.nx, e.ny, width() / e.nx, height() / e.ny, x0, y0, e.nz, depth() / e.nz, z0};
  }
};

}  // namespace pdex
