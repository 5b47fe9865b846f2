#include "pdex/grid/blocks.hpp"

#include <limits>

#include "pdex/core/error.hpp"

namespace pdex {

namespace {

std::array<int, 3> extents_of(const Extents2& e) { return {e.nx, e.ny, e.nz}; }

// The smallest cell count a block may have along `axis` (two planes along z, so that a block of a 3D
// grid stays 3D).
int least_cells(const Extents2& e, int axis) { return axis == 2 && e.is_3d() ? 2 : 1; }

bool fits(const Extents2& e, const ProcessGrid& pg) {
  const std::array<int, 3> n = extents_of(e);
  for (int a = 0; a < 3; ++a)
    if (pg.p[a] < 1 || n[a] / pg.p[a] < least_cells(e, a)) return false;
  return e.is_3d() || pg.p[2] == 1;
}

// Cells on the faces between blocks.
double surface(const Extents2& e, const ProcessGrid& pg) {
  const double nx = e.nx, ny = e.ny, nz = e.nz;
  return (pg.p[0] - 1) * ny * nz + (pg.p[1] - 1) * nx * nz + (pg.p[2] - 1) * nx * ny;
}

// The run of cells blocks are made of along an axis of n cells split into p: pairs at least where n is
// even and every block can have one, so that every block starts at an even index (red-black colours
// agree across the ranks); more, the largest power of two that divides n and leaves at least 16 runs a
// block, so that multigrid's levels halve the blocks exactly further down (linalg/block_multigrid.hpp),
// at a cost of at most a run (a sixteenth) more cells in a block than in another.
int split_unit(int n, int p) {
  if (n % 2 || n / 2 < p) return 1;
  int unit = 2;
  while (n % (2 * unit) == 0 && n / (2 * unit) >= 16 * p) unit *= 2;
  return unit;
}

}  // namespace

std::string ProcessGrid::text() const {
  return std::to_string(p[0]) + " x " + std::to_string(p[1]) + (p[2] > 1 ? " x " + std::to_string(p[2]) : "");
}

ProcessGrid choose_process_grid(const Extents2& e, int ranks) {
  ProcessGrid best;
  double best_surface = std::numeric_limits<double>::infinity();
  bool found = false;
  for (int px = 1; px <= ranks; ++px) {
    if (ranks % px) continue;
    for (int py = 1; py <= ranks / px; ++py) {
      if ((ranks / px) % py) continue;
      const ProcessGrid pg{{px, py, ranks / (px * py)}};
      if (!fits(e, pg)) continue;
      const double s = surface(e, pg);
      // Ties: fewer cuts across x, then across y (the faces of z cuts are whole planes, contiguous).
      if (!found || s < best_surface || (s == best_surface && (pg.p[0] < best.p[0] || (pg.p[0] == best.p[0] && pg.p[1] < best.p[1])))) {
        best = pg, best_surface = s, found = true;
      }
    }
  }
  if (!found)
    throw InputError("the grid (" + e.text() + ") has too few cells for " + std::to_string(ranks) +
                     " ranks: every rank needs a block of at least one cell" + (e.is_3d() ? " (two planes along z)" : ""));
  return best;
}

void check_process_grid(const Extents2& e, const ProcessGrid& pg, int ranks) {
  if (pg.size() != ranks)
    throw InputError("run.ranks = " + pg.text() + " makes " + std::to_string(pg.size()) + " blocks, but the job has " +
                     std::to_string(ranks) + " ranks (mpirun -n " + std::to_string(pg.size()) + ")");
  if (!e.is_3d() && pg.p[2] != 1) throw InputError("run.ranks: a 2D grid is split along x and y only: give [px, py]");
  if (!fits(e, pg))
    throw InputError("run.ranks = " + pg.text() + " leaves a block of the grid (" + e.text() + ") without cells" +
                     (e.is_3d() ? " (blocks need two planes along z)" : ""));
}

Block block_of(const Extents2& e, const ProcessGrid& pg, int rank) {
  Block b;
  b.rank = rank;
  b.coord = {rank % pg.p[0], (rank / pg.p[0]) % pg.p[1], rank / (pg.p[0] * pg.p[1])};
  const std::array<int, 3> n = extents_of(e);
  for (int a = 0; a < 3; ++a) {
    const int unit = split_unit(n[a], pg.p[a]);
    const int units = n[a] / unit, base = units / pg.p[a], extra = units % pg.p[a], c = b.coord[a];
    b.count[a] = unit * (base + (c < extra ? 1 : 0));
    b.first[a] = unit * (c * base + (c < extra ? c : extra));
  }
  return b;
}

Grid2 block_grid(const Grid2& g, const Block& b) {
  Grid2 out = g;
  out.nx = b.count[0], out.ny = b.count[1], out.nz = b.count[2];
  out.x0 = g.x0 + b.first[0] * g.dx;
  out.y0 = g.y0 + b.first[1] * g.dy;
  out.z0 = g.z0 + b.first[2] * g.dz;
  return out;
}

FieldBoundary block_boundary(const FieldBoundary& bc, const ProcessGrid& pg, const Block& b, int ncomp) {
  FieldBoundary out = bc;
  for (int side = 0; side < side_count; ++side) {
    const int axis = side / 2;
    const bool on_boundary = side % 2 == 0 ? b.coord[axis] == 0 : b.coord[axis] == pg.p[axis] - 1;
    if (!on_boundary)
      for (int c = 0; c < ncomp; ++c) out.side[side][c] = SideBc{BcKind::periodic};
  }
  return out;
}

namespace {
// f(whole index, block index) for every cell of block b.
template <class F>
void each_block_cell(const Extents2& e, const Block& b, F f) {
  const Extents2 own = b.extents();
  for (int k = 0; k < own.nz; ++k)
    for (int j = 0; j < own.ny; ++j)
      for (int i = 0; i < own.nx; ++i)
        f(std::size_t(e.index(b.first[0] + i, b.first[1] + j, b.first[2] + k)), std::size_t(own.index(i, j, k)));
}
}  // namespace

std::vector<double> block_values(const std::vector<double>& whole, const Extents2& e, const Block& b) {
  std::vector<double> out(std::size_t(b.cells()));
  each_block_cell(e, b, [&](std::size_t w, std::size_t o) { out[o] = whole[w]; });
  return out;
}

std::vector<double> block_ring_values(const std::vector<double>& whole, const Extents2& e, const Block& b) {
  Block ringed = b;  // the first cell's index in the ringed array is the block's first ghost's
  ringed.count[0] += 2;
  ringed.count[1] += 2;
  return block_values(whole, e.grown(1), ringed);
}

void place_block(std::vector<double>& whole, const Extents2& e, const Block& b, const std::vector<double>& values) {
  each_block_cell(e, b, [&](std::size_t w, std::size_t o) { whole[w] = values[o]; });
}

}  // namespace pdex
