// A grid split into blocks for MPI ranks (grid/blocks.hpp): the chosen process grid has the least halo
// surface and respects the limits of 2D and 3D grids; the blocks tile the grid exactly, in pairs of
// cells where the length is even, uneven splits giving the first blocks the extra cells; a block's sides keep the grid's conditions on the grid's
// boundary and are placeholders inside; a block's values round-trip into the whole grid.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "pdex/core/error.hpp"
#include "pdex/grid/blocks.hpp"
#include "pdex/grid/halo.hpp"

namespace pdex {
namespace {

TEST(Blocks, TheChosenProcessGridHasTheLeastHaloSurface) {
  EXPECT_EQ(choose_process_grid({64, 64, 1}, 4).p, (std::array<int, 3>{2, 2, 1}));
  EXPECT_EQ(choose_process_grid({64, 64, 1}, 2).p, (std::array<int, 3>{1, 2, 1}));  // a tie: fewer x cuts
  EXPECT_EQ(choose_process_grid({256, 16, 1}, 4).p, (std::array<int, 3>{4, 1, 1}));
  EXPECT_EQ(choose_process_grid({40, 36, 1}, 3).p, (std::array<int, 3>{3, 1, 1}));
  EXPECT_EQ(choose_process_grid({32, 32, 32}, 8).p, (std::array<int, 3>{2, 2, 2}));
  EXPECT_EQ(choose_process_grid({32, 32, 4}, 4).p, (std::array<int, 3>{2, 2, 1}));  // blocks keep two planes
  EXPECT_EQ(choose_process_grid({64, 64, 1}, 7).p, (std::array<int, 3>{1, 7, 1}));
}

TEST(Blocks, GridsTooSmallForTheRanksAreRefused) {
  EXPECT_THROW(choose_process_grid({2, 2, 1}, 5), InputError);
  EXPECT_THROW(check_process_grid({40, 36, 1}, ProcessGrid{{3, 1, 1}}, 2), InputError);
  EXPECT_THROW(check_process_grid({40, 36, 1}, ProcessGrid{{1, 1, 2}}, 2), InputError);
  EXPECT_THROW(check_process_grid({8, 8, 3}, ProcessGrid{{1, 1, 2}}, 2), InputError);
  EXPECT_NO_THROW(check_process_grid({8, 8, 4}, ProcessGrid{{1, 1, 2}}, 2));
}

// Along x (40 cells, even) the blocks take pairs of cells, the first ones a pair wider, so that each
// starts at an even index; along y and z (odd lengths) single cells, the first ones one wider. An even
// length with fewer pairs than blocks splits by single cells too.
TEST(Blocks, BlocksTileTheGridInPairsWhereTheyCanTheFirstOnesWider) {
  const Extents2 e{40, 7, 5};
  const ProcessGrid pg{{3, 2, 2}};
  std::vector<int> owner(std::size_t(e.cells()), -1);
  for (int r = 0; r < pg.size(); ++r) {
    const Block b = block_of(e, pg, r);
    EXPECT_EQ(b.count[0], b.coord[0] == 2 ? 12 : 14);
    EXPECT_EQ(b.first[0] % 2, 0);
    EXPECT_EQ(b.count[1], b.coord[1] == 0 ? 4 : 3);
    EXPECT_EQ(b.count[2], b.coord[2] == 0 ? 3 : 2);
    for (int k = 0; k < b.count[2]; ++k)
      for (int j = 0; j < b.count[1]; ++j)
        for (int i = 0; i < b.count[0]; ++i) {
          int& o = owner[std::size_t(e.index(b.first[0] + i, b.first[1] + j, b.first[2] + k))];
          EXPECT_EQ(o, -1) << "cell in two blocks";
          o = r;
        }
  }
  EXPECT_EQ(std::count(owner.begin(), owner.end(), -1), 0);
  EXPECT_EQ(block_of(e, pg, 7).coord, (std::array<int, 3>{1, 0, 1}));
  const ProcessGrid three{{3, 1, 1}};
  EXPECT_EQ(block_of({4, 1, 1}, three, 0).count[0], 2);  // 2 pairs for 3 blocks: cells, 2 + 1 + 1
  EXPECT_EQ(block_of({4, 1, 1}, three, 2).count[0], 1);
}

// Where an axis has at least 16 runs of 2^k cells a block, the blocks take such runs, so that multigrid's
// levels halve them exactly k - 1 times: 1000 cells (8 x 125) in 3 blocks take runs of 8 (42, 42 and 41
// runs); 512 in 3 take runs of 8 too (64 runs: 22, 21, 21); 1024 in 2 are two halves.
TEST(Blocks, LongAxesSplitInRunsOfAPowerOfTwo) {
  const ProcessGrid three{{3, 1, 1}}, two{{2, 1, 1}};
  auto counts = [](const Extents2& e, const ProcessGrid& pg) {
    std::vector<int> out;
    for (int r = 0; r < pg.size(); ++r) out.push_back(block_of(e, pg, r).count[0]);
    return out;
  };
  EXPECT_EQ(counts({1000, 1, 1}, three), (std::vector<int>{336, 336, 328}));
  EXPECT_EQ(counts({512, 1, 1}, three), (std::vector<int>{176, 168, 168}));
  EXPECT_EQ(counts({1024, 1, 1}, two), (std::vector<int>{512, 512}));
  EXPECT_EQ(counts({96, 1, 1}, three), (std::vector<int>{32, 32, 32}));  // 96 / 3 / 16 = 2: pairs
  EXPECT_EQ(block_of({1000, 1, 1}, three, 2).first[0], 672);
}

// A 2D array given with a ring of ghosts: the block's cells and the ring around them, which is the
// neighbouring blocks' cells inside the grid and the array's ring at the grid's sides.
TEST(Blocks, ABlocksRingIsItsNeighboursCells) {
  const Extents2 e{6, 4, 1};
  const Extents2 ringed = e.grown(1);
  std::vector<double> whole(std::size_t(ringed.cells()));
  std::iota(whole.begin(), whole.end(), 0.0);
  const ProcessGrid pg{{2, 1, 1}};
  const std::vector<double> right = block_ring_values(whole, e, block_of(e, pg, 1));
  ASSERT_EQ(right.size(), std::size_t(4 * 6));  // cells 4 and 5, and the ring: (2 + 2) x (4 + 2)
  // Its ghost column at the left is the ringed array's column 4, cell 3: the left block's last.
  for (int j = 0; j < 6; ++j) {
    EXPECT_EQ(right[std::size_t(j * 4)], whole[std::size_t(ringed.index(4, j))]);
    EXPECT_EQ(right[std::size_t(j * 4 + 3)], whole[std::size_t(ringed.index(7, j))]);  // the grid's own ring
  }
}

TEST(Blocks, ABlockKeepsTheGridsConditionsOnTheBoundaryOnly) {
  FieldBoundary bc = FieldBoundary::all(BcKind::neumann);
  bc.side[left][0] = SideBc{BcKind::dirichlet, 2.0};
  bc.side[bottom][0] = bc.side[top][0] = SideBc{BcKind::periodic};
  const ProcessGrid pg{{2, 2, 1}};
  const FieldBoundary b0 = block_boundary(bc, pg, block_of({8, 8, 1}, pg, 0), 1);
  EXPECT_EQ(b0.side[left][0].kind, BcKind::dirichlet);
  EXPECT_EQ(b0.side[left][0].value, 2.0);
  EXPECT_EQ(b0.side[right][0].kind, BcKind::periodic);   // shared with rank 1
  EXPECT_EQ(b0.side[bottom][0].kind, BcKind::periodic);  // the grid's, wrapped across ranks
  EXPECT_EQ(b0.side[top][0].kind, BcKind::periodic);     // shared with rank 2
  const FieldBoundary b3 = block_boundary(bc, pg, block_of({8, 8, 1}, pg, 3), 1);
  EXPECT_EQ(b3.side[left][0].kind, BcKind::periodic);
  EXPECT_EQ(b3.side[right][0].kind, BcKind::neumann);
}

TEST(Blocks, BlockValuesRoundTripAndTheBlockGridSitsInPlace) {
  const Extents2 e{5, 4, 3};
  std::vector<double> whole(std::size_t(e.cells()));
  std::iota(whole.begin(), whole.end(), 0.0);
  const ProcessGrid pg{{2, 2, 1}};
  std::vector<double> back(whole.size(), -1.0);
  for (int r = 0; r < pg.size(); ++r) {
    const Block b = block_of(e, pg, r);
    const std::vector<double> part = block_values(whole, e, b);
    EXPECT_EQ(part[0], double(e.index(b.first[0], b.first[1], b.first[2])));
    place_block(back, e, b, part);
  }
  EXPECT_EQ(back, whole);
  Grid2 g{5, 4, 0.5, 0.25, 1.0, 2.0, 3, 2.0, -1.0};
  const Grid2 b = block_grid(g, block_of(e, pg, 3));
  EXPECT_EQ(b.nx, 2);
  EXPECT_EQ(b.ny, 2);
  EXPECT_DOUBLE_EQ(b.x(0), g.x(3));
  EXPECT_DOUBLE_EQ(b.y(0), g.y(2));
  EXPECT_DOUBLE_EQ(b.z(2), g.z(2));
}

// The step that overlaps the exchange (ArdEuler over ranks) computes the border boxes, then the interior:
// every cell exactly once, the border exactly the cells within the depth of a shared side.
TEST(Blocks, TheBorderAndTheInteriorCoverABlockOnceTheBorderBesideTheSharedSides) {
  for (const Extents2 n : {Extents2{7, 5, 1}, Extents2{6, 4, 5}, Extents2{1, 3, 2}}) {
    for (unsigned shared = 0; shared < (n.nz > 1 ? 64u : 16u); ++shared) {
      SCOPED_TRACE(std::to_string(n.nx) + " x " + std::to_string(n.ny) + " x " + std::to_string(n.nz) + ", sides " + std::to_string(shared));
      const BorderSplit s = split_border(n, shared, 1);
      std::vector<int> seen(std::size_t(n.cells()), 0), border(std::size_t(n.cells()), 0);
      auto mark = [&](const BorderSplit::Box& b, std::vector<int>& in) {
        for (int k = b.lo[2]; k < b.hi[2]; ++k)
          for (int j = b.lo[1]; j < b.hi[1]; ++j)
            for (int i = b.lo[0]; i < b.hi[0]; ++i) ++seen[std::size_t(n.index(i, j, k))], ++in[std::size_t(n.index(i, j, k))];
      };
      for (int p = 0; p < s.count; ++p) {
        EXPECT_FALSE(s.border[p].empty());
        mark(s.border[p], border);
      }
      std::vector<int> inner(seen.size(), 0);
      mark(s.interior, inner);
      for (int k = 0; k < n.nz; ++k)
        for (int j = 0; j < n.ny; ++j)
          for (int i = 0; i < n.nx; ++i) {
            const int q[3] = {i, j, k}, len[3] = {n.nx, n.ny, n.nz};
            bool beside = false;
            for (int a = 0; a < 3; ++a) beside |= ((shared >> (2 * a) & 1u) && q[a] == 0) || ((shared >> (2 * a + 1) & 1u) && q[a] == len[a] - 1);
            const std::size_t at = std::size_t(n.index(i, j, k));
            EXPECT_EQ(seen[at], 1) << i << " " << j << " " << k;
            EXPECT_EQ(border[at], beside ? 1 : 0) << i << " " << j << " " << k;
          }
    }
  }
  EXPECT_EQ(sent_sides(0b000010u), 0b000011u) << "a cut axis sends both slabs";
  EXPECT_EQ(sent_sides(0b010100u), 0b111100u);
  EXPECT_EQ(sent_sides(0u), 0u);
}

}  // namespace
}  // namespace pdex
