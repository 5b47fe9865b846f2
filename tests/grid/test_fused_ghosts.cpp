// The fused Euler step (time/forward_euler.hpp) writes the ghost images of each new boundary value as
// it computes it (push_ghosts), so that a step needs no separate ghost pass. That is correct only if
// those ghosts are exactly what fill_ghosts would produce from the new interior: checked here, bit for
// bit, on every executor, for every boundary kind, one and two ghost layers.
#include <gtest/gtest.h>

#include <random>

#include "core/executor_types.hpp"
#include "grid/ghost_test_support.hpp"
#include "pdex/grid/stencil.hpp"
#include "pdex/time/forward_euler.hpp"

namespace pdex::test {
namespace {

FieldBoundary two_component_mix() {
  FieldBoundary bc = FieldBoundary::all(BcKind::neumann);
  bc.side[left][0] = {BcKind::periodic, 0.0};
  bc.side[right][0] = {BcKind::periodic, 0.0};
  bc.side[bottom][0] = {BcKind::dirichlet, 3.5};
  bc.side[left][1] = {BcKind::dirichlet, 4.25};
  bc.side[bottom][1] = {BcKind::periodic, 0.0};
  bc.side[top][1] = {BcKind::periodic, 0.0};
  return bc;
}

// A right-hand side written for this test, so that it follows euler_step's contract (ncomp, the
// call, limit) rather than the model's evolving kernel structs: diffusion, upwind advection and a
// coupling of the two components, so that every new value depends on its neighbours.
template <class T>
struct CoupledRhs {
  static constexpr int ncomp = 2;
  Spacing<T> h;
  PDEX_HD void operator()(FieldView<const T> s, int i, int j, T r[ncomp]) const {
    const int64_t o = s.offset(i, j);
    const T* u = s.comp(0);
    const T* v = s.comp(1);
    r[0] = T(0.25) * lap(u, o, h) - advect_upwind(u, o, T(0.3), T(-0.2), h) + u[o] * v[o] / T(64) - T(0.25);
    r[1] = T(0.5) * lap(v, o, h) + T(0.2) - u[o] * v[o] / T(64);
  }
  PDEX_HD T limit(int, T x) const { return x; }
};

template <class Exec, class T>
void check_step_ghosts(const Exec& ex, const Grid2& g, int ghost, const FieldBoundary& bc) {
  SCOPED_TRACE(::testing::Message() << g.nx << "x" << g.ny << ", ghost " << ghost);
  Field<T> start(g, 2, ghost, MemorySpace::host);
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> noise(3.5, 4.5);
  auto sv = start.view();
  for (int c = 0; c < 2; ++c)
    for (int j = 0; j < g.ny; ++j)
      for (int i = 0; i < g.nx; ++i) sv(c, i, j) = T(noise(rng));
  fill_ghosts(Serial{}, start, bc);
  const Field<T> in = to_space(start, Exec::space);
  Field<T> out = to_space(numbered_field<T>(g, 2, ghost), Exec::space);  // ghosts NaN until written
  finish(ex);

  euler_step(ex, CoupledRhs<T>{Spacing<T>::make(g.dx, g.dy, in.view().pitch)}, in.cview(), out.view(), bc, T(0.3));
  finish(ex);
  const Field<T> stepped = to_space(out, MemorySpace::host);
  const Field<T> refilled = fill_on(ex, stepped, bc);

  EXPECT_TRUE(same_cells(stepped, refilled));
  EXPECT_NE(stepped.view()(0, 0, 0), start.view()(0, 0, 0)) << "the step changed nothing";
}

template <class E>
class FusedGhostTest : public ExecutorTest<E> {};
TYPED_TEST_SUITE(FusedGhostTest, Executors, ExecutorNames);

TYPED_TEST(FusedGhostTest, GhostsPushedByAnEulerStepEqualFillGhostsOfTheNewInterior) {
  const FieldBoundary kinds[] = {FieldBoundary::all(BcKind::periodic), FieldBoundary::all(BcKind::neumann),
                                 FieldBoundary::all(BcKind::dirichlet, 3.75), two_component_mix()};
  for (const FieldBoundary& bc : kinds)
    for (int ghost : {1, 2}) {
      check_step_ghosts<TypeParam, double>(make_executor<TypeParam>(), Grid2{13, 9, 1.0, 0.8}, ghost, bc);
      check_step_ghosts<TypeParam, float>(make_executor<TypeParam>(), Grid2{13, 9, 1.0, 0.8}, ghost, bc);
    }
  // Grids narrower than two ghost layers: cells near both sides at once.
  check_step_ghosts<TypeParam, double>(make_executor<TypeParam>(), Grid2{3, 2}, 2, two_component_mix());
  check_step_ghosts<TypeParam, double>(make_executor<TypeParam>(), Grid2{1, 5}, 1, two_component_mix());
}

}  // namespace
}  // namespace pdex::test
