// The 3D CUDA step by columns (time/cuda/euler_columns.cuh) gives the bits of the generic step, a thread
// a cell (euler_step_3d_cells), in every cell and ghost: Gray-Scott with a parameter and a diffusivity per
// cell and transport across the planes (upwind and centred), every kind of side (mixed per species and
// face), one and two ghost layers, in f32 and f64, for the whole grid (an odd width, planes that do not
// divide the walk) and for boxes (an odd x range, a slab of planes, a block's interior, strips by the
// sides), ghosts included: the pairs by a side walk and a second launch pushes their in-plane images.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "core/executor_types.hpp"
#include "pdex/grid/field.hpp"
#include "pdex/grid/fill_ghosts.hpp"
#include "pdex/models/ard/ard_rhs.hpp"
#include "pdex/models/ard/kinetics/gray_scott.hpp"
#include "pdex/time/forward_euler.hpp"
#ifdef PDEX_TEST_WITH_CUDA
#include "pdex/time/cuda/euler_columns.cuh"
#endif

namespace pdex::test {
namespace {

#ifdef PDEX_TEST_WITH_CUDA

struct Box {
  int lo[3], hi[3];
};

FieldBoundary mixed_sides() {
  FieldBoundary bc = FieldBoundary::all(BcKind::neumann);
  for (int side : {left, right}) bc.side[side][0] = {BcKind::periodic, 0.0};
  bc.side[bottom][0] = {BcKind::dirichlet, 0.75};
  bc.side[front][0] = {BcKind::dirichlet, 0.25};
  for (int side : {front, back}) bc.side[side][1] = {BcKind::periodic, 0.0};
  bc.side[left][1] = {BcKind::dirichlet, 0.5};
  return bc;
}

template <class T>
Field<T> noisy_field(const Grid2& g, int ncomp, int ghost, const FieldBoundary& bc, unsigned seed) {
  Field<T> f(g, ncomp, ghost, MemorySpace::host);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> noise(0.1, 0.9);
  const FieldView<T> v = f.view();
  for (int c = 0; c < ncomp; ++c)
    for (int k = 0; k < g.nz; ++k)
      for (int j = 0; j < g.ny; ++j)
        for (int i = 0; i < g.nx; ++i) v(c, i, j, k) = T(noise(rng));
  fill_ghosts(Serial{}, f, bc);
  return f;
}

// The host buffers of two fields hold the same bits, padding included (both outputs start as one copy).
template <class T>
bool same_bits(const Field<T>& a, const Field<T>& b) {
  const Field<T> ha = to_space(a, MemorySpace::host), hb = to_space(b, MemorySpace::host);
  return std::memcmp(ha.buffer().host_span().data(), hb.buffer().host_span().data(), ha.bytes()) == 0;
}

template <class T>
void expect_columns_equal_cells(const Grid2& g, int ghost, const FieldBoundary& bc, Advection scheme, const Box& box) {
  SCOPED_TRACE(::testing::Message() << g.nx << "x" << g.ny << "x" << g.nz << ", ghost " << ghost << ", advection "
                                    << int(scheme) << ", box x " << box.lo[0] << ".." << box.hi[0] << " z "
                                    << box.lo[2] << ".." << box.hi[2]);
  const Cuda ex = make_executor<Cuda>();
  const Field<T> in = to_space(noisy_field<T>(g, 2, ghost, bc, 5), MemorySpace::device);
  const Field<T> per_cell = to_space(noisy_field<T>(g, 3, ghost, bc, 7), MemorySpace::device);
  const FieldView<const T> pv = per_cell.view();
  using Rhs = ArdRhs<T, GrayScott<T, Param<T>>, Advection::runtime>;
  Rhs rhs;
  rhs.reaction = {Param<T>{T(0), pv.comp(0), 1}, Param<T>{T(0.06), nullptr, 0}};
  rhs.D[0] = Param<T>{T(0), pv.comp(1), 1};
  rhs.D[1] = Param<T>{T(0.3), nullptr, 0};
  rhs.ax = Param<T>{T(0.2), nullptr, 0};
  rhs.ay = Param<T>{T(-0.1), nullptr, 0};
  rhs.az = Param<T>{T(0), pv.comp(2), 1};
  rhs.advection = scheme;
  rhs.h = Spacing<T>::make(1.0, 0.9, in.view().pitch, 1.1, in.view().plane);
  const ArdRhs3D<Rhs> rhs3{rhs};

  Field<T> by_cells = to_space(noisy_field<T>(g, 2, ghost, bc, 9), MemorySpace::device);
  Field<T> by_columns = to_space(by_cells, MemorySpace::device);
  const T dt(0.05);
  euler_step_3d_cells(ex, rhs3, in.cview(), by_cells.view(), bc, dt, box.lo, box.hi);
  euler_columns(ex, rhs3, in.cview(), by_columns.view(), bc, dt, box.lo, box.hi);
  finish(ex);
  EXPECT_TRUE(same_bits(by_cells, by_columns));
}

// The cells whose in-plane images the second launch pushes are those of the box by an x or y side, each
// once (no device needed).
TEST(EulerColumnsSides, TheSideLaunchTakesEachCellByASideOnce) {
  using Rhs = ArdRhs3D<ArdRhs<double, GrayScott<double, Param<double>>, Advection::runtime>>;
  for (int ghost : {1, 2})
    for (const Box& box : {Box{{0, 0, 0}, {9, 7, 3}}, Box{{1, 1, 0}, {8, 6, 3}}, Box{{0, 0, 0}, {9, 2, 3}},
                           Box{{0, 0, 0}, {2, 7, 3}}, Box{{3, 2, 0}, {6, 5, 3}}, Box{{7, 5, 0}, {9, 7, 3}}}) {
      SCOPED_TRACE(::testing::Message() << "ghost " << ghost << ", box " << box.lo[0] << ".." << box.hi[0] << " x "
                                        << box.lo[1] << ".." << box.hi[1]);
      FieldView<double> out{};
      out.nx = 9, out.ny = 7, out.nz = 3, out.ghost = ghost;
      EulerCell3D<double, Rhs> cell{};
      cell.cell.out = out;
      const columns_detail::SideImages<double, Rhs> sides(cell, box.lo, box.hi);
      std::vector<int> seen(std::size_t(out.nx * out.ny), 0);
      for (int n = 0; n < sides.per_plane(); ++n) {
        int i = -1, j = -1;
        sides.cell_at(n, i, j);
        ASSERT_TRUE(i >= box.lo[0] && i < box.hi[0] && j >= box.lo[1] && j < box.hi[1]) << i << ", " << j;
        EXPECT_TRUE(near_boundary(out, i, j)) << i << ", " << j;
        ++seen[std::size_t(j * out.nx + i)];
      }
      for (int j = box.lo[1]; j < box.hi[1]; ++j)
        for (int i = box.lo[0]; i < box.hi[0]; ++i)
          EXPECT_EQ(seen[std::size_t(j * out.nx + i)], near_boundary(out, i, j) ? 1 : 0) << i << ", " << j;
    }
}

class EulerColumnsTest : public ExecutorTest<Cuda> {};

template <class T>
void expect_every_case() {
  const FieldBoundary sides[] = {FieldBoundary::all(BcKind::periodic), FieldBoundary::all(BcKind::neumann),
                                 FieldBoundary::all(BcKind::dirichlet, 0.4), mixed_sides()};
  Grid2 g{37, 22, 1.0, 0.9};
  g.nz = 13, g.dz = 1.1;
  for (const FieldBoundary& bc : sides)
    for (int ghost : {1, 2})
      for (Advection scheme : {Advection::upwind, Advection::centered})
        expect_columns_equal_cells<T>(g, ghost, bc, scheme, {{0, 0, 0}, {g.nx, g.ny, g.nz}});
  // An odd x range, a slab of planes, a block's interior, the rows by a y side, the columns by an x side,
  // and a corner column whose pairs the box cuts (their cells step one by one).
  const Box boxes[] = {{{3, 1, 0}, {30, 21, 13}}, {{0, 0, 11}, {37, 22, 13}}, {{1, 1, 1}, {36, 21, 12}},
                       {{0, 0, 0}, {37, 2, 13}},  {{0, 0, 0}, {2, 22, 13}},   {{35, 20, 0}, {37, 22, 13}}};
  for (const Box& box : boxes) expect_columns_equal_cells<T>(g, 1, mixed_sides(), Advection::upwind, box);
}

TEST_F(EulerColumnsTest, ColumnsGiveTheBitsOfTheCellStepF64) { expect_every_case<double>(); }
TEST_F(EulerColumnsTest, ColumnsGiveTheBitsOfTheCellStepF32) { expect_every_case<float>(); }

#else

TEST(EulerColumnsTest, ColumnsGiveTheBitsOfTheCellStep) { GTEST_SKIP() << "the CUDA step: a build without CUDA"; }

#endif

}  // namespace
}  // namespace pdex::test
