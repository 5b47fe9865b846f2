// The 3D grid transfers' paths where every axis is halved exactly against the same transfers a cell at a
// time on the same executor (restrict3_cells, prolong_add3 over a box): on the GPU threads walking up
// columns (cuda/transfer3_walk.cu), on the host rows (detail::host_restrict3, host_prolong_add3). Bit for
// bit, ghosts included, on grids that the blocks and runs do not divide, grids smaller than a block, two
// components, f32 and f64; restriction with sides closed and open to other blocks (whose hats reach into
// the ghosts), prolongation with periodic, Neumann and Dirichlet sides (the images it pushes). Also the
// residual restricted where it is made against the residual stored, then restricted.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "core/executor_types.hpp"
#include "pdex/grid/field.hpp"
#include "pdex/grid/fill_ghosts.hpp"
#include "pdex/linalg/helmholtz3.hpp"
#include "pdex/linalg/multigrid3.hpp"
#include "pdex/linalg/transfer3.hpp"

namespace pdex::test {
namespace {

// The last one does not halve exactly (odd sizes): the cell-by-cell sums on every executor.
constexpr int sizes[][3] = {{6, 4, 4}, {70, 22, 14}, {132, 40, 68}, {64, 16, 8}, {130, 10, 36}, {15, 9, 7}};

template <class T>
Field<T> noise(const Grid2& g, int seed, int ncomp = 2) {
  Field<T> h(g, ncomp, 1, MemorySpace::host);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  for (T& v : h.buffer().host_span()) v = T(u(rng));  // ghosts too: open sides read them
  return h;
}

Grid2 box(int nx, int ny, int nz) {
  Grid2 g{nx, ny, 1.0 / nx, 1.0 / ny};
  g.nz = nz, g.dz = 1.0 / nz;
  return g;
}

// Every word of the two fields' buffers, ghosts and padding included; reports the first few that differ.
template <class T>
void expect_same_bits(const Field<T>& got_d, const Field<T>& want_d) {
  const Field<T> got = to_space(got_d, MemorySpace::host), want = to_space(want_d, MemorySpace::host);
  const auto g = got.buffer().host_span(), w = want.buffer().host_span();
  ASSERT_EQ(g.size(), w.size());
  int bad = 0;
  for (std::size_t q = 0; q < g.size(); ++q)
    if (std::memcmp(&g[q], &w[q], sizeof(T)) != 0 && ++bad <= 5) ADD_FAILURE() << "word " << q << ": " << g[q] << ", expected " << w[q];
  EXPECT_EQ(bad, 0);
}

FieldBoundary mixed_sides() {
  FieldBoundary mixed = FieldBoundary::all(BcKind::dirichlet);
  for (int c = 0; c < max_components; ++c) {
    mixed.side[left][c].kind = mixed.side[right][c].kind = BcKind::periodic;
    mixed.side[bottom][c].kind = BcKind::neumann;
    mixed.side[back][c].kind = c == 0 ? BcKind::neumann : BcKind::dirichlet;
  }
  return mixed;
}

template <class E, class T>
void check_restriction(const E& ex, int nx, int ny, int nz, unsigned open) {
  SCOPED_TRACE(::testing::Message() << nx << "x" << ny << "x" << nz << ", open sides " << open << (sizeof(T) == 4 ? ", f32" : ", f64"));
  const Grid2 g = box(nx, ny, nz);
  const Field<T> fine = to_space(noise<T>(g, 13), E::space);
  const Field<T> start = noise<T>(g.halved(true, true, true), 17);  // ghosts left as they were
  Field<T> fast = to_space(start, E::space), cells = to_space(start, E::space);
  restrict3(ex, fine.cview(), fast.view(), open);
  restrict3_cells(ex, fine.cview(), cells.view(), open);
  finish(ex);
  expect_same_bits(fast, cells);
}

template <class E>
void check_restrictions(const E& ex) {
  for (const auto& [nx, ny, nz] : sizes)
    for (const unsigned open : {0u, 0x3fu, 0x21u}) {
      check_restriction<E, double>(ex, nx, ny, nz, open);
      check_restriction<E, float>(ex, nx, ny, nz, open);
    }
}

template <class E, class T>
void check_prolongation(const E& ex, int nx, int ny, int nz, const FieldBoundary& bc) {
  SCOPED_TRACE(::testing::Message() << nx << "x" << ny << "x" << nz << (sizeof(T) == 4 ? ", f32" : ", f64"));
  const Grid2 g = box(nx, ny, nz);
  const MemorySpace space = E::space;
  Field<T> coarse = to_space(noise<T>(g.halved(true, true, true), 19), space);
  fill_ghosts(ex, coarse.view(), bc);
  finish(ex);
  const Field<T> start = noise<T>(g, 23);
  Field<T> fast = to_space(start, space), cells = to_space(start, space);
  prolong_add3(ex, coarse.cview(), fast.view(), bc);
  prolong_add3(ex, coarse.cview(), cells.view(), bc, whole_box(cells.view().extents()));
  finish(ex);
  expect_same_bits(fast, cells);
}

template <class E>
void check_prolongations(const E& ex) {
  for (const auto& [nx, ny, nz] : sizes)
    for (const FieldBoundary& bc : {FieldBoundary::all(BcKind::dirichlet), FieldBoundary::all(BcKind::periodic), mixed_sides()}) {
      check_prolongation<E, double>(ex, nx, ny, nz, bc);
      check_prolongation<E, float>(ex, nx, ny, nz, bc);
    }
}

TEST(Transfers3Host, RestrictionRowsGiveTheCellByCellBits) {
  check_restrictions(Serial{});
  check_restrictions(OpenMP{});
}

TEST(Transfers3Host, ProlongationRowsGiveTheCellByCellBits) {
  check_prolongations(Serial{});
  check_prolongations(OpenMP{});
}

#ifdef PDEX_HAVE_CUDA
class Transfers3Gpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!backend_available(Backend::cuda)) GTEST_SKIP() << "no CUDA device: " << backend_unavailable_reason(Backend::cuda);
  }
};

TEST_F(Transfers3Gpu, RestrictionWalksGiveTheCellByCellBits) { check_restrictions(make_executor<Cuda>()); }

TEST_F(Transfers3Gpu, ProlongationWalksGiveTheCellByCellBits) { check_prolongations(make_executor<Cuda>()); }

// The residual restricted where it is made (restrict_residual3: on the GPU one launch, the residual in
// shared memory) gives the bits of residual_field then restrict3, on grids that the blocks and runs do
// not divide, grids of one coarse cell along an axis, two components with per-cell diffusivities, mixed
// sides, the seven-point and the tensor's operator, f32 and f64.
template <class T, bool Tensor>
void check_residual_restriction(int nx, int ny, int nz) {
  SCOPED_TRACE(::testing::Message() << nx << "x" << ny << "x" << nz << (Tensor ? ", tensor" : "") << (sizeof(T) == 4 ? ", f32" : ", f64"));
  const Cuda ex = make_executor<Cuda>();
  const MemorySpace device = MemorySpace::device;
  const Grid2 g = box(nx, ny, nz);
  const Field<T> x = to_space(noise<T>(g, 37), device), b = to_space(noise<T>(g, 41), device);
  const Field<T> d = to_space(noise<T>(g, 43), device), m = to_space(noise<T>(g, 47, 6), device);
  const double beta[2] = {1, 0.5};
  Helmholtz3<T, Tensor> op = make_helmholtz3<T, Tensor>(g, x.view(), 0.3, beta, 2, mixed_sides());
  for (int c = 0; c < 2; ++c) op.d[c] = d.cview().comp(c);
  if constexpr (Tensor) op.m = m.cview().data, op.m_stride = m.cview().comp_stride;
  const Field<T> start = noise<T>(g.halved(true, true, true), 53);
  Field<T> fused = to_space(start, device), unfused = to_space(start, device), r = x.like(device);
  restrict_residual3(ex, op, x.cview(), b.cview(), r.view(), fused.view());
  residual_field(ex, op, x.cview(), b.cview(), r.view());
  restrict3(ex, r.cview(), unfused.view());
  finish(ex);
  expect_same_bits(fused, unfused);
}

TEST_F(Transfers3Gpu, TheResidualRestrictedWhereItIsMadeIsTheResidualThenItsRestriction) {
  for (const auto& [nx, ny, nz] : sizes) {
    check_residual_restriction<double, false>(nx, ny, nz);
    check_residual_restriction<float, false>(nx, ny, nz);
    check_residual_restriction<double, true>(nx, ny, nz);
    check_residual_restriction<float, true>(nx, ny, nz);
  }
  check_residual_restriction<double, false>(4, 2, 2);
  check_residual_restriction<float, true>(8, 6, 2);
}

#endif
}  // namespace
}  // namespace pdex::test
