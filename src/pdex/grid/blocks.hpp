#pragma once
// A grid split into blocks, one per MPI rank (docs/parallel.md): a process grid of px x py (x pz) ranks,
// rank r at coordinates (r % px, (r / px) % py, r / (px py)). Along an axis of even length n with at least
// a pair of cells for each of its p blocks, the blocks take runs of 2^k cells (pairs, or more where n has
// at least 16 runs of 2^k a block), the first (n / 2^k) % p one run more, so that every block starts at an
// even index (red-black colours agree across ranks) and multigrid's levels halve the blocks exactly;
// otherwise the first n % p blocks are one cell wider than the others. Host-side plain data: the
// decomposition apart from the transport.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "pdex/grid/boundary.hpp"
#include "pdex/grid/grid.hpp"

namespace pdex {

struct ProcessGrid {
  std::array<int, 3> p{1, 1, 1};
  int size() const { return p[0] * p[1] * p[2]; }
  std::string text() const;  // "2 x 2" or "2 x 2 x 1" (3 numbers for 3D grids)
};

struct Block {
  int rank = 0;
  std::array<int, 3> coord{0, 0, 0};
  std::array<int, 3> first{0, 0, 0};  // the global index of the block's first cell along each axis
  std::array<int, 3> count{1, 1, 1};  // its cells along each axis
  Extents2 extents() const { return {count[0], count[1], count[2]}; }
  int64_t cells() const { return extents().cells(); }
};

// The process grid of `ranks` blocks of grid extents e with the least halo surface (cells on the faces
// between blocks), ties to fewer cuts across x (whose faces are strided in memory). 2D grids are never
// cut along z; 3D blocks keep at least two planes. Throws InputError when no grid of that many ranks
// gives every block a cell (two planes in 3D).
ProcessGrid choose_process_grid(const Extents2& e, int ranks);

// Checks a process grid given by the user (run.ranks) against the grid and the rank count; throws
// InputError saying what does not fit.
void check_process_grid(const Extents2& e, const ProcessGrid& pg, int ranks);

Block block_of(const Extents2& e, const ProcessGrid& pg, int rank);

// The block's grid: its cells, spacing and origin within the whole grid g.
Grid2 block_grid(const Grid2& g, const Block& b);

// The conditions of a block's sides: the whole grid's where the side lies on the grid's boundary (a
// periodic one there wraps within the block where the axis is not cut, and the exchange wraps it across
// ranks where it is); periodic inside the grid, a placeholder whose images the halo exchange overwrites.
FieldBoundary block_boundary(const FieldBoundary& bc, const ProcessGrid& pg, const Block& b, int ncomp);

// The block's cells of a whole-grid array (row-major [z][y][x]), and the inverse: a block's values put
// into the whole-grid array.
std::vector<double> block_values(const std::vector<double>& whole, const Extents2& e, const Block& b);
// The block's cells and one ring around them of a 2D array given with a ring of ghosts ((ny+2) x (nx+2)):
// where the block meets another, its ring is that block's cells.
std::vector<double> block_ring_values(const std::vector<double>& whole, const Extents2& e, const Block& b);
void place_block(std::vector<double>& whole, const Extents2& e, const Block& b, const std::vector<double>& values);

}  // namespace pdex
