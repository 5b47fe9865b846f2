// fill_ghosts (grid/fill_ghosts.hpp, grid/boundary.hpp) on every executor: each boundary kind's
// defining property, cell by cell, corners included, for one and two ghost layers.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/executor_types.hpp"
#include "grid/ghost_test_support.hpp"

namespace pdex::test {
namespace {

constexpr int ghost_widths[] = {1, 2};

inline int wrap(int i, int n) { return ((i % n) + n) % n; }
inline int mirror(int i, int n) { return i < 0 ? -1 - i : i >= n ? 2 * n - 1 - i : i; }

template <class E>
class GhostFillTest : public ExecutorTest<E> {};
TYPED_TEST_SUITE(GhostFillTest, Executors, ExecutorNames);

template <class Exec, class T>
void check_periodic(const Exec& ex, const Grid2& g, int ghost) {
  SCOPED_TRACE(::testing::Message() << g.nx << "x" << g.ny << ", ghost " << ghost);
  const Field<T> f = fill_on(ex, numbered_field<T>(g, 2, ghost), FieldBoundary::all(BcKind::periodic));
  auto v = f.view();
  for (int c = 0; c < 2; ++c)
    for (int j = -ghost; j < g.ny + ghost; ++j)
      for (int i = -ghost; i < g.nx + ghost; ++i)
        if (!is_interior(i, j, g.nx, g.ny)) {
          ASSERT_EQ(v(c, i, j), v(c, wrap(i, g.nx), wrap(j, g.ny))) << "ghost (" << i << ", " << j << ")";
        }
}

TYPED_TEST(GhostFillTest, PeriodicGhostEqualsTheOppositeInteriorCellCornersIncluded) {
  for (int ghost : ghost_widths) {
    check_periodic<TypeParam, double>(make_executor<TypeParam>(), Grid2{7, 5}, ghost);
    check_periodic<TypeParam, float>(make_executor<TypeParam>(), Grid2{7, 5}, ghost);
  }
  check_periodic<TypeParam, double>(make_executor<TypeParam>(), Grid2{3, 2}, 2);  // narrower than 2 ghosts
}

template <class Exec, class T>
void check_neumann(const Exec& ex, const Grid2& g, int ghost) {
  SCOPED_TRACE(::testing::Message() << g.nx << "x" << g.ny << ", ghost " << ghost);
  const Field<T> f = fill_on(ex, numbered_field<T>(g, 2, ghost), FieldBoundary::all(BcKind::neumann));
  auto v = f.view();
  for (int c = 0; c < 2; ++c)
    for (int j = -ghost; j < g.ny + ghost; ++j)
      for (int i = -ghost; i < g.nx + ghost; ++i)
        if (!is_interior(i, j, g.nx, g.ny)) {
          ASSERT_EQ(v(c, i, j), v(c, mirror(i, g.nx), mirror(j, g.ny))) << "ghost (" << i << ", " << j << ")";
        }
}

TYPED_TEST(GhostFillTest, NeumannGhostMirrorsTheInteriorAcrossTheFaceCornersIncluded) {
  for (int ghost : ghost_widths) {
    check_neumann<TypeParam, double>(make_executor<TypeParam>(), Grid2{6, 5}, ghost);
    check_neumann<TypeParam, float>(make_executor<TypeParam>(), Grid2{6, 5}, ghost);
  }
}

// Values whose doubles are not exact sums of the cell values, so rounding is exercised.
FieldBoundary dirichlet_sides() {
  FieldBoundary bc;
  const double values[4] = {0.1, -0.7, 1.0 / 3.0, 2.9};
  for (int s = 0; s < 4; ++s)
    for (int c = 0; c < max_components; ++c) bc.side[s][c] = SideBc{BcKind::dirichlet, values[s] + c};
  return bc;
}

template <class Exec, class T>
void check_dirichlet_face_values(const Exec& ex, int ghost) {
  SCOPED_TRACE(::testing::Message() << "ghost " << ghost);
  const Grid2 g{8, 6};
  const FieldBoundary bc = dirichlet_sides();
  const Field<T> f = fill_on(ex, numbered_field<T>(g, max_components, ghost), bc);
  auto v = f.view();
  const T eps = std::numeric_limits<T>::epsilon();
  // (ghost + its mirror cell) / 2 is the value at the face between them: b, to rounding of 2b - x.
  auto expect_face = [&](T ghost_value, T cell, double b) {
    const T face = (ghost_value + cell) / T(2);
    EXPECT_LE(std::abs(double(face) - b), 2 * double(eps) * (2 * std::abs(b) + std::abs(double(cell))))
        << "face value " << face << " for b = " << b;
  };
  for (int c = 0; c < max_components; ++c)  // every component a boundary holds
    for (int k = 0; k < ghost; ++k) {
      for (int j = 0; j < g.ny; ++j) {
        expect_face(v(c, -1 - k, j), v(c, k, j), bc.side[left][c].value);
        expect_face(v(c, g.nx + k, j), v(c, g.nx - 1 - k, j), bc.side[right][c].value);
      }
      for (int i = 0; i < g.nx; ++i) {
        expect_face(v(c, i, -1 - k), v(c, i, k), bc.side[bottom][c].value);
        expect_face(v(c, i, g.ny + k), v(c, i, g.ny - 1 - k), bc.side[top][c].value);
      }
    }
  // Corners: the x rule, then the y rule.
  EXPECT_TRUE(same_cells(f, reference_fill(numbered_field<T>(g, max_components, ghost), bc)));
}

TYPED_TEST(GhostFillTest, DirichletFaceValueEqualsTheBoundaryValue) {
  for (int ghost : ghost_widths) {
    check_dirichlet_face_values<TypeParam, double>(make_executor<TypeParam>(), ghost);
    check_dirichlet_face_values<TypeParam, float>(make_executor<TypeParam>(), ghost);
  }
}

// Every kind on some side, sides differing per component (and periodic never paired with another kind
// on the same axis).
FieldBoundary mixed_sides() {
  FieldBoundary bc = FieldBoundary::all(BcKind::periodic);
  bc.side[bottom][0] = {BcKind::dirichlet, 1.5};
  bc.side[top][0] = {BcKind::neumann, 0.0};
  bc.side[left][1] = {BcKind::dirichlet, -0.3};
  bc.side[right][1] = {BcKind::neumann, 0.0};
  bc.side[left][2] = {BcKind::neumann, 0.0};
  bc.side[right][2] = {BcKind::dirichlet, 2.2};
  bc.side[bottom][2] = {BcKind::neumann, 0.0};
  bc.side[top][2] = {BcKind::dirichlet, -1.1};
  return bc;
}

template <class Exec, class T>
void check_mixed(const Exec& ex, const Grid2& g, int ghost) {
  SCOPED_TRACE(::testing::Message() << g.nx << "x" << g.ny << ", ghost " << ghost);
  const Field<T> start = numbered_field<T>(g, 3, ghost);
  EXPECT_TRUE(same_cells(fill_on(ex, start, mixed_sides()), reference_fill(start, mixed_sides())));
}

TYPED_TEST(GhostFillTest, MixedPerSideAndPerComponentConditionsMatchTheReferenceFill) {
  for (int ghost : ghost_widths) {
    check_mixed<TypeParam, double>(make_executor<TypeParam>(), Grid2{9, 6}, ghost);
    check_mixed<TypeParam, float>(make_executor<TypeParam>(), Grid2{9, 6}, ghost);
  }
  check_mixed<TypeParam, double>(make_executor<TypeParam>(), Grid2{3, 2}, 2);
}

// A 3D field: every plane's x and y ghosts as the 2D rule gives them, and the ghost planes' cells beside
// the interior by the z sides' rules (front periodic with back, or each its own kind), per component.
template <class Exec, class T>
void check_3d(const Exec& ex, int ghost, BcKind front_kind, BcKind back_kind) {
  SCOPED_TRACE(::testing::Message() << "ghost " << ghost << ", z sides " << int(front_kind) << ", " << int(back_kind));
  Grid2 g{5, 4};
  g.nz = 3;
  Field<T> host(g, 2, ghost, MemorySpace::host);
  for (T& x : host.buffer().host_span()) x = std::numeric_limits<T>::quiet_NaN();
  auto h = host.view();
  for_each_cell(g.extents(), [&](int i, int j, int k) {
    for (int c = 0; c < 2; ++c) h(c, i, j, k) = T(0.25) * T(1 + i + 8 * j + 64 * k + 512 * c);
  });
  FieldBoundary bc = FieldBoundary::all(BcKind::neumann);
  for (int c = 0; c < 2; ++c) {
    bc.side[left][c] = bc.side[right][c] = SideBc{BcKind::periodic};
    bc.side[bottom][c] = SideBc{BcKind::dirichlet, 1.0 + c};
    bc.side[front][c] = SideBc{front_kind, 2.0};
    bc.side[back][c] = SideBc{back_kind, -1.0};
  }
  const Field<T> f = fill_on(ex, host, bc);
  const auto v = f.view();
  for (int k = 0; k < g.nz; ++k) {  // each plane's own ghosts, as a 2D field's
    Field<T> plane(Grid2{g.nx, g.ny}, 2, ghost, MemorySpace::host);
    for (int c = 0; c < 2; ++c)
      for (int j = 0; j < g.ny; ++j)
        for (int i = 0; i < g.nx; ++i) plane.view()(c, i, j) = v(c, i, j, k);
    const Field<T> want = reference_fill(plane, bc);
    for (int c = 0; c < 2; ++c)
      for (int j = -ghost; j < g.ny + ghost; ++j)
        for (int i = -ghost; i < g.nx + ghost; ++i) ASSERT_EQ(v(c, i, j, k), want.view()(c, i, j)) << "plane " << k << " (" << i << ", " << j << ")";
  }
  auto image = [](const SideBc& s, T x) { return s.kind == BcKind::neumann ? x : T(2 * s.value) - x; };
  for (int c = 0; c < 2; ++c)
    for (int j = 0; j < g.ny; ++j)
      for (int i = 0; i < g.nx; ++i)
        for (int d = 0; d < ghost; ++d) {  // d < nz: the ghost planes' images are interior planes
          const SideBc &lo = bc.side[front][c], &hi = bc.side[back][c];
          const int n = g.nz;
          const T below = lo.kind == BcKind::periodic ? v(c, i, j, n - 1 - d) : image(lo, v(c, i, j, d));
          const T above = hi.kind == BcKind::periodic ? v(c, i, j, d) : image(hi, v(c, i, j, n - 1 - d));
          ASSERT_EQ(v(c, i, j, -1 - d), below) << "ghost plane " << -1 - d << " (" << i << ", " << j << ")";
          ASSERT_EQ(v(c, i, j, n + d), above) << "ghost plane " << n + d << " (" << i << ", " << j << ")";
        }
}

TYPED_TEST(GhostFillTest, ThreeDimensionalFieldsFillTheirPlanesAndTheirGhostPlanes) {
  for (int ghost : ghost_widths) {
    check_3d<TypeParam, double>(make_executor<TypeParam>(), ghost, BcKind::periodic, BcKind::periodic);
    check_3d<TypeParam, double>(make_executor<TypeParam>(), ghost, BcKind::neumann, BcKind::dirichlet);
    check_3d<TypeParam, float>(make_executor<TypeParam>(), ghost, BcKind::dirichlet, BcKind::neumann);
  }
}

// A multigrid level's conditions (FieldBoundary::respaced): a Robin side a u + b du/dn = c respaced by
// a ratio is the side robin_side builds at that ratio times h, offset (the data) and factor alike.
TEST(RespacedSides, ARobinSideRespacedIsTheSideAtTheCoarserSpacing) {
  const double h = 0.01;
  for (const double a : {0.0, 0.5, 3.0})
    for (const double ratio : {2.0, 4.0, 1.5}) {
      const SideBc fine = robin_side(a, 1.0, 0.7, h), want = robin_side(a, 1.0, 0.7, ratio * h), got = respaced(fine, ratio);
      EXPECT_NEAR(got.scale, want.scale, 1e-14) << "a = " << a << ", ratio " << ratio;
      EXPECT_NEAR(got.value, want.value, 1e-14) << "a = " << a << ", ratio " << ratio;
    }
  const SideBc dirichlet{BcKind::dirichlet, 2.5, 0.0};
  EXPECT_EQ(respaced(dirichlet, 2.0).value, 2.5);
}

}  // namespace
}  // namespace pdex::test
