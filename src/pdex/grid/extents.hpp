#pragma once
// The cell counts of a 2D grid and the index arithmetic on them. Code outside the grid layer asks these
// (cells, index, contains, edges, for_each_cell) instead of computing with nx and ny, so that a 3D grid
// is an Extents3 beside this one. Cells are numbered row by row, k = j nx + i: the .npy layout [y][x].
#include <cstddef>
#include <cstdint>
#ifndef __CUDACC_RTC__  // NVRTC (a text model's kernels) sees the arithmetic only
#include <string>
#include <vector>
#endif

#include "pdex/core/macros.hpp"
#include "pdex/core/range.hpp"

namespace pdex {

struct CellIndex2 {
  int i = 0, j = 0;
};

// Which of the grid's sides a cell touches: the first or last column (west, east), row (south, north).
struct Edges2 {
  bool west = false, east = false, south = false, north = false;
  PDEX_HD bool any() const { return west || east || south || north; }
};

struct Extents2 {
  int nx = 0, ny = 0;

  PDEX_HD int64_t cells() const { return int64_t(nx) * ny; }
  PDEX_HD int64_t index(int i, int j) const { return int64_t(j) * nx + i; }
  PDEX_HD CellIndex2 cell(int64_t k) const { return {int(k % nx), int(k / nx)}; }
  PDEX_HD bool contains(int i, int j) const { return i >= 0 && j >= 0 && i < nx && j < ny; }
  PDEX_HD Edges2 edges(int i, int j) const { return {i == 0, i == nx - 1, j == 0, j == ny - 1}; }
  // The cells, and `ring` layers of ghosts around them.
  PDEX_HD Range2 range(int ring = 0) const { return Range2{-ring, nx + ring, -ring, ny + ring}; }
  // These extents with `ring` more cells on every side (a field given with its ghost ring).
  PDEX_HD Extents2 grown(int ring) const { return {nx + 2 * ring, ny + 2 * ring}; }
  // The axes x and y say halved, rounding up (a coarser multigrid level).
  PDEX_HD Extents2 halved(bool x, bool y) const { return {x ? (nx + 1) / 2 : nx, y ? (ny + 1) / 2 : ny}; }
  PDEX_HD Extents2 doubled() const { return {2 * nx, 2 * ny}; }
  PDEX_HD bool even() const { return nx % 2 == 0 && ny % 2 == 0; }
  PDEX_HD bool operator==(const Extents2& o) const { return nx == o.nx && ny == o.ny; }
#ifndef __CUDACC_RTC__

  // The shape of an array of one value per cell: (ny, nx), the .npy convention.
  std::vector<std::size_t> shape() const { return {std::size_t(ny), std::size_t(nx)}; }
  // "nx x ny", for messages.
  std::string text() const { return std::to_string(nx) + " x " + std::to_string(ny); }
  // "x=3, y=7": the cell of linear index k, for messages.
  std::string where(int64_t k) const {
    const CellIndex2 c = cell(k);
    return "x=" + std::to_string(c.i) + ", y=" + std::to_string(c.j);
  }
#endif
};

#ifndef __CUDACC_RTC__
// Calls f(i, j) on every cell, row by row (host code; kernels take range() through an executor).
template <class F>
void for_each_cell(const Extents2& e, F&& f) {
  for (int j = 0; j < e.ny; ++j)
    for (int i = 0; i < e.nx; ++i) f(i, j);
}
#endif

}  // namespace pdex
