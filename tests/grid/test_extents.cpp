// Extents2: the index arithmetic every layer above the grid asks instead of computing with nx and ny.
#include <gtest/gtest.h>

#include <vector>

#include "pdex/grid/grid.hpp"

namespace pdex {
namespace {

TEST(Extents, IndexAndCellAreInversesRowByRow) {
  const Extents2 n{5, 3};
  EXPECT_EQ(n.cells(), 15);
  std::vector<int64_t> seen;
  for_each_cell(n, [&](int i, int j) {
    seen.push_back(n.index(i, j));
    const CellIndex2 c = n.cell(n.index(i, j));
    EXPECT_EQ(c.i, i);
    EXPECT_EQ(c.j, j);
  });
  ASSERT_EQ(seen.size(), 15u);
  for (std::size_t k = 0; k < seen.size(); ++k) EXPECT_EQ(seen[k], int64_t(k));  // the .npy order [y][x]
  EXPECT_EQ(n.where(7), "x=2, y=1");
  EXPECT_EQ(n.shape(), (std::vector<std::size_t>{3, 5}));
}

TEST(Extents, EdgesAndContainment) {
  const Extents2 n{4, 3};
  const Edges2 corner = n.edges(3, 0), inner = n.edges(1, 1);
  EXPECT_TRUE(corner.east && corner.south && !corner.west && !corner.north);
  EXPECT_FALSE(inner.any());
  EXPECT_TRUE(n.edges(0, 1).west);
  EXPECT_TRUE(n.contains(0, 0) && n.contains(3, 2));
  EXPECT_FALSE(n.contains(-1, 0) || n.contains(4, 0) || n.contains(0, 3));
  const Range2 r = n.range(1);
  EXPECT_EQ(r.i0, -1);
  EXPECT_EQ(r.i1, 5);
  EXPECT_EQ(r.size(), n.grown(1).cells());
}

TEST(Extents, HalvingKeepsTheDomain) {
  const Grid2 g{9, 8, 0.5, 0.25, -1.0, 2.0};
  const Grid2 c = g.halved(true, false);
  EXPECT_EQ(c.nx, 5);
  EXPECT_EQ(c.ny, 8);
  EXPECT_DOUBLE_EQ(c.width(), g.width());
  EXPECT_DOUBLE_EQ(c.height(), g.height());
  EXPECT_DOUBLE_EQ(c.x0, g.x0);
  const Extents2 even{4, 6}, odd{4, 5};
  EXPECT_TRUE(even.doubled() == (Extents2{8, 12}));
  EXPECT_TRUE(even.even());
  EXPECT_FALSE(odd.even());
}

// A 3D grid numbers its cells plane by plane, [z][y][x]; its shape and messages say so, and a loop of two
// indices refuses it rather than visit its first plane only.
TEST(Extents, ThreeDimensionalGridsNumberTheirCellsPlaneByPlane) {
  const Extents2 e{4, 3, 5};
  EXPECT_TRUE(e.is_3d());
  EXPECT_EQ(e.cells(), 60);
  EXPECT_EQ(e.plane_cells(), 12);
  EXPECT_EQ(e.index(1, 2, 3), (3 * 3 + 2) * 4 + 1);
  const CellIndex2 c = e.cell(e.index(1, 2, 3));
  EXPECT_EQ(c.i, 1);
  EXPECT_EQ(c.j, 2);
  EXPECT_EQ(c.k, 3);
  EXPECT_EQ(e.shape(), (std::vector<std::size_t>{5, 3, 4}));
  EXPECT_EQ(e.text(), "4 x 3 x 5");
  EXPECT_EQ(e.where(e.index(1, 2, 3)), "x=1, y=2, z=3");
  int64_t visited = 0;
  for_each_cell(e, [&](int i, int j, int k) { EXPECT_EQ(e.index(i, j, k), visited++); });
  EXPECT_EQ(visited, e.cells());
  EXPECT_THROW(for_each_cell(e, [](int, int) {}), std::logic_error);
  EXPECT_EQ((Extents2{4, 3}.shape()), (std::vector<std::size_t>{3, 4}));
  EXPECT_EQ((Extents2{4, 3}.text()), "4 x 3");
}

}  // namespace
}  // namespace pdex
