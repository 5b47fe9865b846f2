#pragma once
// The cell counts of a grid and the index arithmetic on them. Code outside the grid layer asks these
// (cells, index, contains, edges, for_each_cell) instead of computing with nx and ny. A grid is 2D when
// nz = 1 (one plane) and 3D otherwise. Cells are numbered row by row and plane by plane,
// n = (k ny + j) nx + i: the .npy layout [y][x], or [z][y][x] in 3D.
#include <cstddef>
#include <cstdint>
#ifndef __CUDACC_RTC__  // NVRTC (a text model's kernels) sees the arithmetic only
#include <stdexcept>
#include <string>
#include <vector>
#endif

#include "pdex/core/macros.hpp"
#include "pdex/core/range.hpp"

namespace pdex {

struct CellIndex2 {
  int i = 0, j = 0, k = 0;
};

// Which of the grid's sides a cell touches: the first or last column (west, east), row (south, north).
struct Edges2 {
  bool west = false, east = false, south = false, north = false;
  PDEX_HD bool any() const { return west || east || south || north; }
};

struct Extents2 {
  int nx = 0, ny = 0, nz = 1;

  PDEX_HD bool is_3d() const { return nz > 1; }
  PDEX_HD int64_t cells() const { return int64_t(nx) * ny * nz; }
  // The cells of one plane (all of a 2D grid's).
  PDEX_HD int64_t plane_cells() const { return int64_t(nx) * ny; }
  PDEX_HD int64_t index(int i, int j, int k = 0) const { return (int64_t(k) * ny + j) * nx + i; }
  PDEX_HD CellIndex2 cell(int64_t n) const {
    const int64_t row = n / nx;
    return {int(n % nx), int(row % ny), int(row / ny)};
  }
  PDEX_HD bool contains(int i, int j) const { return i >= 0 && j >= 0 && i < nx && j < ny; }
  PDEX_HD Edges2 edges(int i, int j) const { return {i == 0, i == nx - 1, j == 0, j == ny - 1}; }
  // The cells, and `ring` layers of ghosts around them.
  PDEX_HD Range2 range(int ring = 0) const { return Range2{-ring, nx + ring, -ring, ny + ring}; }
  // These extents with `ring` more cells on every side (a field given with its ghost ring).
  PDEX_HD Extents2 grown(int ring) const { return {nx + 2 * ring, ny + 2 * ring, nz}; }
  // The axes x, y and z say halved, rounding up (a coarser multigrid level).
  PDEX_HD Extents2 halved(bool x, bool y, bool z = false) const {
    return {x ? (nx + 1) / 2 : nx, y ? (ny + 1) / 2 : ny, z ? (nz + 1) / 2 : nz};
  }
  PDEX_HD Extents2 doubled() const { return {2 * nx, 2 * ny, nz}; }
  PDEX_HD bool even() const { return nx % 2 == 0 && ny % 2 == 0; }
  PDEX_HD bool operator==(const Extents2& o) const { return nx == o.nx && ny == o.ny && nz == o.nz; }
#ifndef __CUDACC_RTC__

  // The shape of an array of one value per cell: (ny, nx), or (nz, ny, nx) in 3D, the .npy convention.
  std::vector<std::size_t> shape() const {
    if (is_3d()) return {std::size_t(nz), std::size_t(ny), std::size_t(nx)};
    return {std::size_t(ny), std::size_t(nx)};
  }
  // "nx x ny" or "nx x ny x nz", for messages.
  std::string text() const {
    return std::to_string(nx) + " x " + std::to_string(ny) + (is_3d() ? " x " + std::to_string(nz) : "");
  }
  // "x=3, y=7" (", z=2" in 3D): the cell of linear index n, for messages.
  std::string where(int64_t n) const {
    const CellIndex2 c = cell(n);
    return "x=" + std::to_string(c.i) + ", y=" + std::to_string(c.j) + (is_3d() ? ", z=" + std::to_string(c.k) : "");
  }
#endif
};

#ifndef __CUDACC_RTC__
// Calls f(i, j, k) on every cell (f(i, j) on a 2D grid's), in the order of their linear index (host code;
// kernels take range() through an executor). A loop of two indices refuses a 3D grid rather than walk
// its first plane only.
template <class F>
void for_each_cell(const Extents2& e, F&& f) {
  if constexpr (requires { f(0, 0, 0); }) {
    for (int k = 0; k < e.nz; ++k)
      for (int j = 0; j < e.ny; ++j)
        for (int i = 0; i < e.nx; ++i) f(i, j, k);
  } else {
    if (e.is_3d()) throw std::logic_error("internal: a loop over the cells of one plane was given a 3D grid");
    for (int j = 0; j < e.ny; ++j)
      for (int i = 0; i < e.nx; ++i) f(i, j);
  }
}
#endif

}  // namespace pdex
