// How a resident queue's blocks split the grid (tile_rows.hpp): every cell in exactly one tile, tiles
// starting on even rows within their bounds, no more blocks than allowed, and the side tiles given fewer
// rows where that makes the slowest tile faster.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <utility>

#include "pdex/linalg/tile_rows.hpp"

namespace pdex::test {
namespace {

struct Case {
  int nx, ny, tx, ty, min_rows, max_rows, max_blocks;
  double side_weight;
};

// The largest of each tile's rows times its weight (side_weight along the grid's sides).
double slowest(const TileRows& t, double side_weight) {
  double most = 0;
  for (int b = 0; b < t.blocks(); ++b) {
    int column, tile;
    const ColumnTiles c = t.place(b, column, tile);
    const bool side = column == 0 || column == t.columns - 1 || tile == 0 || tile == c.n - 1;
    most = std::max(most, (side ? side_weight : 1.0) * c.rows(tile));
  }
  return most;
}

void expect_cover(const Case& k, const TileRows& t) {
  SCOPED_TRACE(::testing::Message() << k.nx << "x" << k.ny << ", tiles " << k.tx << "x" << k.ty << ", rows "
                                    << k.min_rows << "-" << k.max_rows << ", weight " << k.side_weight);
  EXPECT_EQ(t.columns, (k.nx + k.tx - 1) / k.tx);
  EXPECT_LE(t.blocks(), k.max_blocks);
  std::set<std::pair<int, int>> seen;
  for (int b = 0; b < t.blocks(); ++b) {
    int column, tile;
    const ColumnTiles c = t.place(b, column, tile);
    ASSERT_GE(column, 0);
    ASSERT_LT(column, t.columns);
    ASSERT_GE(tile, 0);
    ASSERT_LT(tile, c.n);
    EXPECT_TRUE(seen.insert({column, tile}).second) << "block " << b << " repeats a tile";
  }
  for (const bool inner : {false, true}) {
    if (inner && t.columns <= 2) continue;
    const ColumnTiles& c = inner ? t.inner : t.side;
    EXPECT_EQ(c.start(0), 0);
    EXPECT_GE(c.total, k.ny) << "the tiles reach the grid's last row";
    EXPECT_LT(c.start(c.n - 1), k.ny) << "the last tile holds grid rows";
    for (int tile = 0; tile < c.n; ++tile) {
      EXPECT_EQ(c.start(tile) % 2, 0) << "tile " << tile;
      EXPECT_GE(c.rows(tile), k.min_rows) << "tile " << tile;
      EXPECT_LE(c.rows(tile), k.max_rows) << "tile " << tile;
    }
  }
}

TEST(TileRows, CoverTheGridWithinBounds) {
  const Case cases[] = {{1024, 1024, 128, 64, 8, 72, 132, 1.15}, {1024, 1024, 128, 64, 8, 64, 132, 1.15},
                        {512, 512, 64, 32, 12, 36, 132, 1.15},   {1000, 998, 128, 64, 8, 72, 132, 1.15},
                        {131, 67, 32, 16, 8, 18, 132, 1.15},     {12, 10, 32, 16, 8, 18, 132, 1.15},
                        {12, 10, 32, 16, 12, 18, 132, 1.15},     {40, 300, 32, 16, 8, 18, 132, 1.0},
                        {256, 256, 32, 16, 12, 18, 132, 1.15}};
  for (const Case& k : cases)
    expect_cover(k, tile_rows(Extents2{k.nx, k.ny}, k.tx, k.ty, k.min_rows, k.max_rows, k.max_blocks, k.side_weight));
}

// At 1024^2 on an H100 (132 multiprocessors) the four idle blocks of 128 uniform tiles and the eighth
// more rows the inner tiles may take balance the side tiles: for weight 1.15 the slowest tile 66.7
// weighted rows in place of 73.6 (1.15 x 64); for the lean queues' 1.45, side columns of 21 tiles (a
// third more than uniform), the slowest 72.5 in place of 92.8.
TEST(TileRows, SideTilesTakeFewerRows) {
  const TileRows t = tile_rows(Extents2{1024, 1024}, 128, 64, 8, 72, 132, 1.15);
  EXPECT_EQ(t.blocks(), 132);
  EXPECT_NEAR(slowest(t, 1.15), 1.15 * 58, 1e-9);
  EXPECT_EQ(t.inner.rows(0), 56);
  EXPECT_EQ(t.inner.rows(1), 66);
  const TileRows lean = tile_rows(Extents2{1024, 1024}, 128, 64, 8, 72, 132, 1.45);
  EXPECT_EQ(lean.blocks(), 132);
  EXPECT_EQ(lean.side.n, 21);
  EXPECT_NEAR(slowest(lean, 1.45), 1.45 * 50, 1e-9);
  EXPECT_EQ(lean.inner.rows(0), 48);
  EXPECT_EQ(lean.inner.rows(1), 72);
}

// Where no split is at least 1% faster, uniform tiles of ty rows, the last cut by the grid's end: side
// tiles as fast as inner ones, or no room for more rows.
TEST(TileRows, UniformWhereNoSplitIsFaster) {
  auto uniform = [](const TileRows& t, int ty, int n) {
    for (const ColumnTiles& c : {t.side, t.inner}) {
      EXPECT_EQ(c.n, n);
      for (int tile = 0; tile < c.n; ++tile) EXPECT_EQ(c.start(tile), tile * ty);
    }
  };
  uniform(tile_rows(Extents2{1024, 1024}, 128, 64, 8, 72, 132, 1.0), 64, 16);
  uniform(tile_rows(Extents2{1024, 1024}, 128, 64, 8, 64, 132, 1.15), 64, 16);
  uniform(tile_rows(Extents2{1000, 1000}, 128, 64, 8, 64, 132, 1.0), 64, 16);
}

}  // namespace
}  // namespace pdex::test
