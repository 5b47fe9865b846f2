// An input made a row at a time (grid/cell_source.hpp) gives, in any pieces, the cells the configuration
// gave when they were built whole: the start, the shapes in order, SplitMix64 noise drawn in cell order,
// the scale; a block's source gives the block's cells of the whole, a block of a block too; a field set
// from it holds those cells in its precision.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "pdex/core/hash.hpp"
#include "pdex/grid/cell_source.hpp"

namespace pdex {
namespace {

CellRecipe recipe(const Grid2& g) {
  CellRecipe r;
  r.grid = g;
  r.value = 1.0;
  CellShape box;
  box.c = {3.0, 4.0, 2.0}, box.h = {2.5, 1.5, 1.5}, box.value = 0.5;
  CellShape ball;
  ball.ball = true, ball.c = {6.0, 3.0, 3.0}, ball.r = 2.2, ball.value = 0.25;
  r.shapes = {box, ball};
  r.noise = 0.01, r.seed = 7, r.scale = 3.0;
  return r;
}

// The recipe as the whole grid was built before: cell by cell, the noise one sequence over the grid.
std::vector<double> reference(const CellRecipe& r) {
  const Grid2& g = r.grid;
  std::vector<double> out(std::size_t(g.cells()), r.value);
  for (const CellShape& s : r.shapes)
    for_each_cell(g.extents(), [&](int i, int j, int k) {
      const double x = g.x(i) - s.c[0], y = g.y(j) - s.c[1], z = g.is_3d() ? g.z(k) - s.c[2] : 0.0;
      const bool inside = s.ball ? x * x + y * y + z * z <= s.r * s.r
                                 : std::abs(x) <= s.h[0] && std::abs(y) <= s.h[1] && std::abs(z) <= s.h[2];
      if (inside) out[std::size_t(g.extents().index(i, j, k))] = s.value;
    });
  uint64_t state = r.seed;
  for (double& c : out) {
    const double eta = r.noise * (2 * unit_draw(state) - 1);
    c += eta;
  }
  for (double& c : out) c *= r.scale;
  return out;
}

TEST(CellSource, PiecesOfAnySizeGiveTheCellsBuiltWhole) {
  for (const Grid2 g : {Grid2{9, 7}, Grid2{9, 7, 1.0, 1.0, 0.0, 0.0, 5, 1.0, 0.0}}) {
    const CellRecipe r = recipe(g);
    const std::vector<double> want = reference(r);
    const CellSource s(r);
    EXPECT_EQ(s.cells(g.cells()), want);
    for (const std::size_t piece : {1u, 4u, 9u, 13u, 50u}) {
      std::vector<double> got(want.size());
      for (std::size_t first = 0; first < got.size(); first += piece)
        s.fill(int64_t(first), std::span<double>(got).subspan(first, std::min(piece, got.size() - first)));
      EXPECT_EQ(got, want) << "pieces of " << piece;
    }
    int changed = 0;  // the recipe is not trivially the start value
    for (double c : want) changed += c < 2.9 || c > 3.1;
    EXPECT_GT(changed, 4);
  }
}

TEST(CellSource, ABlocksSourceGivesTheBlocksCells) {
  const Grid2 g{9, 7, 1.0, 1.0, 0.0, 0.0, 5, 1.0, 0.0};
  const Extents2 e = g.extents();
  const CellSource whole(recipe(g));
  const std::vector<double> all = whole.cells(e.cells());
  const ProcessGrid pg{{2, 2, 2}};
  for (int rank = 0; rank < pg.size(); ++rank) {
    const Block b = block_of(e, pg, rank);
    const CellSource part = whole.block(e, b);
    EXPECT_EQ(part.cells(b.cells()), block_values(all, e, b)) << "block " << rank;
    const Block inner = block_of(b.extents(), ProcessGrid{{2, 1, 1}}, 1);
    EXPECT_EQ(part.block(b.extents(), inner).cells(inner.cells()), block_values(block_values(all, e, b), b.extents(), inner));
  }
  const std::vector<double> given = all;  // cells as given cut the same way
  const Block b = block_of(e, pg, 5);
  EXPECT_EQ(CellSource(given).block(e, b).cells(b.cells()), block_values(all, e, b));
}

TEST(CellSource, ANumberIsEveryCellAndFieldsTakeTheSourceInTheirPrecision) {
  const Grid2 g{6, 5};
  EXPECT_EQ(CellSource(2.5).cells(g.cells()), std::vector<double>(30, 2.5));
  EXPECT_FALSE(CellSource(2.5).varies());
  const CellSource s(recipe(g));
  EXPECT_TRUE(s.same_as(CellSource(s.cells(g.cells())), g.cells()));
  EXPECT_FALSE(s.same_as(CellSource(3.0), g.cells()));
  Field<float> f(g, 2, 1, MemorySpace::host);
  set_interior(f, 1, s);
  const std::vector<double> want = s.cells(g.cells());
  for_each_cell(g.extents(), [&](int i, int j, int k) {
    EXPECT_EQ(f.view()(1, i, j, k), float(want[std::size_t(g.extents().index(i, j, k))]));
  });
}

}  // namespace
}  // namespace pdex
