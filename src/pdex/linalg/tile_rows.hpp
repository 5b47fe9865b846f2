#pragma once
// How the blocks of a resident queue (cuda/resident_sweep.cuh) split a grid into tiles: columns of tx
// cells, and in each column tiles of rows that differ. A resident round waits at a grid barrier for its
// slowest block, and the blocks whose regions cross the grid's sides are slower than the inner ones for
// the same cells (their point updates look the inverse diagonal up in a table, and they refresh their
// ghosts after each sweep). So the tiles along the sides take fewer rows: every tile of the two side
// columns, and the first and last tile of each inner column; the blocks left over on the GPU (a grid of
// uniform tiles leaves some idle) take the rows the side tiles give up.
#include <algorithm>

#include "pdex/grid/extents.hpp"

namespace pdex {

// One column's tiles, from row 0: the first `end` rows; then n - 2 tiles of `middle` rows, the first
// `wider` of them 2 more; the last tile up to row `total` (its rows: `end`, the first's, where the
// split is even). Rows start on even rows (a region cell's colour is its parity in region coordinates).
// total >= the grid's rows; beyond them, a tile of uniform tiles reaches past the grid's end.
struct ColumnTiles {
  int n = 1, end = 0, middle = 0, wider = 0, total = 0;

  int start(int k) const {
    if (k == 0) return 0;
    if (k >= n) return total;
    const int m = k - 1;
    return end + m * middle + 2 * (m < wider ? m : wider);
  }
  int rows(int k) const { return start(k + 1) - start(k); }
};

// The tiles of a grid: `columns` columns, those at the grid's left and right sides split as `side`, the
// others as `inner`; blocks numbered column by column (the kernel reads each block's tile from a table,
// resident_sweep.cuh's TilePlaces).
struct TileRows {
  int columns = 1;
  ColumnTiles side, inner;

  int side_columns() const { return columns < 2 ? columns : 2; }
  int blocks() const { return side_columns() * side.n + (columns - side_columns()) * inner.n; }
  // Block b's column and tile in it, and the column's split.
  ColumnTiles place(int b, int& column, int& tile) const {
    const int inner_blocks = (columns - side_columns()) * inner.n;
    if (b < side.n) {
      column = 0, tile = b;
      return side;
    }
    b -= side.n;
    if (b >= inner_blocks) {
      column = columns - 1, tile = b - inner_blocks;
      return side;
    }
    column = 1 + b / inner.n, tile = b % inner.n;
    return inner;
  }
};

namespace tile_rows_detail {

// The cost of a column of n tiles over `rows` rows (even), each tile's rows times its weight (`ends` for
// the first and last, `middles` for the others), as low as tiles of min_rows to max_rows rows (even)
// make it; false where none do. Of equal costs, the most even split.
inline bool split_column(int n, int rows, double ends, double middles, int min_rows, int max_rows, ColumnTiles& c,
                         double& cost) {
  auto fits = [&](int r) { return r >= min_rows && r <= max_rows; };
  if (n == 1) {
    c = {1, rows, 0, 0, rows};
    cost = ends * rows;
    return fits(rows);
  }
  if (n == 2) {
    const int first = rows / 4 * 2;
    c = {2, first, 0, 0, rows};
    cost = ends * (rows - first);
    return fits(first) && fits(rows - first);
  }
  bool found = false;
  for (int end = max_rows; end >= min_rows; end -= 2) {
    const int left = rows - 2 * end;
    if (left < 0) continue;
    const int middle = left / (n - 2) / 2 * 2, wider = (left - middle * (n - 2)) / 2;
    const int widest = middle + (wider > 0 ? 2 : 0);
    const double k = std::max(ends * end, middles * widest);
    if (!fits(middle) || !fits(widest) || (found && k >= cost)) continue;
    c = {n, end, middle, wider, rows};
    cost = k;
    found = true;
  }
  return found;
}

}  // namespace tile_rows_detail

// The tiles of a grid of extents n for at most max_blocks blocks: columns of tx cells, tiles of min_rows to
// max_rows rows, with blocks along the sides `side_weight` times as slow a cell as the inner ones; the
// rows split so that the slowest tile's cost (its rows times its weight) is lowest, with up to a third
// more tiles a column than uniform tiles of ty rows; those uniform tiles (the last cut by the grid's end)
// where no split costs at least 1% less, which may be more than max_blocks (the caller's to check).
inline TileRows tile_rows(Extents2 n, int tx, int ty, int min_rows, int max_rows, int max_blocks, double side_weight) {
  using tile_rows_detail::split_column;
  const int nx = n.nx, ny = n.ny;
  TileRows best;
  best.columns = (nx + tx - 1) / tx;
  const int uniform = (ny + ty - 1) / ty, rows = ny + ny % 2;
  best.side = best.inner = {uniform, ty, ty, 0, uniform * ty};
  double best_cost = 0.99 * side_weight * ty;
  int best_blocks = 0;
  const bool inner = best.columns > 2;
  const int fewest = (ny + max_rows - 1) / max_rows, most = uniform + (uniform + 2) / 3;
  for (int ni = inner ? fewest : 0; ni <= (inner ? most : 0); ++ni) {
    ColumnTiles ci;
    double cost_i = 0;
    if (inner && !split_column(ni, rows, side_weight, 1.0, min_rows, max_rows, ci, cost_i)) continue;
    for (int ns = fewest; ns <= most; ++ns) {
      TileRows t{best.columns, {}, ci};
      t.side.n = ns;
      const int blocks = t.blocks();
      double cost_s = 0;
      if (blocks > max_blocks || !split_column(ns, rows, side_weight, side_weight, min_rows, max_rows, t.side, cost_s))
        continue;
      const double cost = std::max(cost_s, cost_i);
      if (cost < best_cost || (cost == best_cost && blocks < best_blocks)) best = t, best_cost = cost, best_blocks = blocks;
    }
  }
  return best;
}

}  // namespace pdex
