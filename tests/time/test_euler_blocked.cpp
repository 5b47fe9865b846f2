// The host's cache-blocked forward Euler (time/euler_blocked.hpp) must be `steps` single steps
// (euler_step) bit for bit, interior and every ghost: Serial and OpenMP, f32 and f64, several steps a
// pass, periodic, Neumann, Dirichlet and Robin sides (y periodic or not, x any mix per component), a
// parameter per cell, grids of one chunk, of several and of a part chunk, narrower than a vector; and
// a block of a grid split among ranks along y, whose levels reach into ghost rows as deep as a pass.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <utility>
#include <vector>

#include "pdex/grid/field.hpp"
#include "pdex/grid/fill_ghosts.hpp"
#include "pdex/models/ard/ard_rhs.hpp"
#include "pdex/models/ard/kinetics/gray_scott.hpp"
#include "pdex/time/euler_blocked.hpp"

namespace pdex {
namespace {

template <class T>
using GrayScottRhs = ArdRhs<T, GrayScott<T, Param<T>>, Advection::upwind>;

// Gray-Scott from noise with a feed rate per cell and a velocity, on an nx x ny grid with sides bc.
template <class T>
struct Problem {
  Grid2 g;
  FieldBoundary bc;
  Field<T> start, feed;
  std::vector<T> constants{T(0.06), T(0.2), T(0.1), T(0.03), T(-0.02)};
  GrayScottRhs<T> rhs;

  Problem(int nx, int ny, const FieldBoundary& sides)
      : g{nx, ny, 1.0, 1.1}, bc(sides), start(g, 2, 1, MemorySpace::host), feed(g, 1, 1, MemorySpace::host) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> d(0.0, 1.0);
    auto s = start.view();
    auto f = feed.view();
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        s(0, i, j) = T(1 - 0.5 * d(rng));
        s(1, i, j) = T(0.3 * d(rng));
        f(0, i, j) = T(0.03 + 0.02 * d(rng));
      }
    fill_ghosts(Serial{}, start, bc);
    fill_ghosts(Serial{}, feed, coefficient_boundary(bc, 1));
    auto constant = [&](int k) { return Param<T>{constants[std::size_t(k)], &constants[std::size_t(k)], 0}; };
    rhs.reaction = {Param<T>{T(0), feed.cview().data, 1}, constant(0)};
    rhs.D[0] = constant(1);
    rhs.D[1] = constant(2);
    rhs.ax = constant(3);
    rhs.ay = constant(4);
    rhs.h = Spacing<T>::make(g.dx, g.dy, start.cview().pitch);
  }
};

template <class T>
bool same_bits(const Field<T>& a, const Field<T>& b) {
  const auto x = a.cview(), y = b.cview();
  int bad = 0;
  for (int c = 0; c < x.ncomp; ++c)
    for (int j = -1; j <= x.ny; ++j)
      for (int i = -1; i <= x.nx; ++i)
        if (std::memcmp(&x(c, i, j), &y(c, i, j), sizeof(T)) != 0 && ++bad <= 3)
          ADD_FAILURE() << "component " << c << " differs at (" << i << ", " << j << "): " << y(c, i, j)
                        << ", expected " << x(c, i, j);
  return bad == 0;
}

template <class Exec, class T>
void check(const Exec& ex, int nx, int ny, const FieldBoundary& bc, int steps) {
  SCOPED_TRACE(::testing::Message() << nx << "x" << ny << ", " << steps << " steps a pass, "
                                    << (sizeof(T) == 4 ? "f32" : "f64"));
  Problem<T> p(nx, ny, bc);
  const T dt = T(0.9);
  Field<T> a = to_space(p.start, MemorySpace::host), b = p.start.like(MemorySpace::host);
  for (int k = 0; k < steps; ++k) {
    euler_step(ex, p.rhs, a.cview(), b.view(), bc, dt);
    std::swap(a, b);
  }
  Field<T> blocked = p.start.like(MemorySpace::host);
  euler_blocked(ex, p.rhs, p.start.cview(), blocked.view(), bc, dt, steps);
  EXPECT_TRUE(same_bits(a, blocked));
}

FieldBoundary mixed() {  // x: periodic u, Neumann and Robin v; y: Dirichlet u, Neumann v
  FieldBoundary bc = FieldBoundary::all(BcKind::neumann);
  bc.side[left][0] = bc.side[right][0] = SideBc{BcKind::periodic, 0.0};
  bc.side[right][1] = robin_side(1.0, 0.5, 0.2, 1.0);
  bc.side[bottom][0] = SideBc{BcKind::dirichlet, 1.0};
  bc.side[top][0] = SideBc{BcKind::dirichlet, 0.5};
  return bc;
}

FieldBoundary y_periodic_x_sides() {  // y periodic; x Dirichlet u, Robin v
  FieldBoundary bc = FieldBoundary::all(BcKind::periodic);
  bc.side[left][0] = bc.side[right][0] = SideBc{BcKind::dirichlet, 0.75};
  bc.side[left][1] = bc.side[right][1] = robin_side(2.0, 1.0, -0.1, 1.0);
  return bc;
}

// Rows a .. b - 1 of a grid's field as the block of a grid split among ranks along y, with `ghost` ghost
// rows: beyond a side it shares with another block (`deep`: a cut, or the grid's periodic y axis) the
// grid's rows there, as the exchange leaves them; at the grid's own y sides its one ghost row.
template <class T>
Field<T> block_rows(const Field<T>& whole, int a, int b, int ghost, unsigned deep) {
  Grid2 g = whole.grid();
  g.ny = b - a;
  Field<T> block(g, whole.components(), ghost, MemorySpace::host);
  const auto w = whole.cview();
  const auto v = block.view();
  for (int j = -ghost; j < g.ny + ghost; ++j) {
    const bool wall = j < 0 ? !(deep >> bottom & 1u) : j >= g.ny && !(deep >> top & 1u);
    if (wall && (j < -1 || j > g.ny)) continue;
    const int from = wall ? a + j : ((a + j) % w.ny + w.ny) % w.ny;
    for (int c = 0; c < v.ncomp; ++c)
      for (int i = -1; i <= g.nx; ++i) v(c, i, j) = w(c, i, from);
  }
  return block;
}

// Such a block, `steps` steps in one pass with its shared sides deep, equals the grid's rows after `steps`
// single steps bit for bit (cells and x ghosts).
template <class T>
void check_block(const FieldBoundary& bc, int a, int b, int steps) {
  SCOPED_TRACE(::testing::Message() << "rows " << a << " .. " << b << ", " << steps << " steps a pass, "
                                    << (sizeof(T) == 4 ? "f32" : "f64"));
  Problem<T> p(67, 45, bc);
  const T dt = T(0.9);
  Field<T> x = to_space(p.start, MemorySpace::host), y = p.start.like(MemorySpace::host);
  for (int k = 0; k < steps; ++k) {
    euler_step(Serial{}, p.rhs, x.cview(), y.view(), bc, dt);
    std::swap(x, y);
  }
  const bool y_periodic = bc.side[bottom][0].kind == BcKind::periodic;
  const unsigned deep = (a > 0 || y_periodic ? 1u << bottom : 0u) | (b < p.g.ny || y_periodic ? 1u << top : 0u);
  const Field<T> in = block_rows(p.start, a, b, steps, deep), feed = block_rows(p.feed, a, b, steps, deep);
  FieldBoundary block_bc = bc;
  for (const Side side : {bottom, top})
    if (deep >> side & 1u) block_bc.side[side][0] = block_bc.side[side][1] = SideBc{BcKind::periodic, 0.0};
  GrayScottRhs<T> rhs = p.rhs;
  rhs.reaction.F = Param<T>{T(0), feed.cview().data, 1};
  rhs.h = Spacing<T>::make(p.g.dx, p.g.dy, in.cview().pitch);
  Field<T> out = in.like(MemorySpace::host);
  euler_blocked(Serial{}, rhs, in.cview(), out.view(), block_bc, dt, steps, deep);
  const auto want = x.cview();
  const auto got = out.cview();
  int bad = 0;
  for (int c = 0; c < 2; ++c)
    for (int j = 0; j < b - a; ++j)
      for (int i = -1; i <= p.g.nx; ++i)
        if (std::memcmp(&want(c, i, a + j), &got(c, i, j), sizeof(T)) != 0 && ++bad <= 3)
          ADD_FAILURE() << "component " << c << " differs at (" << i << ", " << a + j << "): " << got(c, i, j)
                        << ", expected " << want(c, i, a + j);
  EXPECT_EQ(bad, 0);
}

template <class Exec>
void check_all(const Exec& ex) {
  const FieldBoundary sides[] = {FieldBoundary::all(BcKind::periodic), mixed(), y_periodic_x_sides()};
  for (const FieldBoundary& bc : sides)
    for (int steps : {1, 2, 3, 4, 7}) {
      check<Exec, double>(ex, 67, 45, bc, steps);
      check<Exec, float>(ex, 67, 45, bc, steps);
    }
  for (const FieldBoundary& bc : sides) {
    check<Exec, float>(ex, 5, 32, bc, 4);    // one chunk, narrower than a vector
    check<Exec, double>(ex, 130, 97, bc, 4);  // chunks of 32 and a part one
    check<Exec, float>(ex, 9, 6, bc, 5);     // windows reaching past the grid on both sides
  }
}

TEST(EulerBlocked, SerialEqualsSingleSteps) { check_all(Serial{}); }
TEST(EulerBlocked, OpenMPEqualsSingleSteps) { check_all(OpenMP{}); }

// Blocks of a grid split along y: the first, a middle and the last (the grid's own y sides clipped where
// they are walls), ghost rows as deep as the steps a pass.
TEST(EulerBlocked, ABlockWithDeepGhostRowsEqualsTheGridsRows) {
  for (const FieldBoundary& bc : {FieldBoundary::all(BcKind::periodic), mixed(), y_periodic_x_sides()})
    for (int steps : {2, 4})
      for (const auto& [a, b] : {std::pair{0, 15}, std::pair{15, 32}, std::pair{32, 45}}) {
        check_block<double>(bc, a, b, steps);
        check_block<float>(bc, a, b, steps);
      }
}

TEST(EulerBlocked, TakesAxesPeriodicOnBothSidesOrNeither) {
  EXPECT_TRUE(euler_blocked_takes(FieldBoundary::all(BcKind::periodic), 2, 1));
  EXPECT_TRUE(euler_blocked_takes(mixed(), 2, 1));
  EXPECT_TRUE(euler_blocked_takes(y_periodic_x_sides(), 2, 1));
  FieldBoundary one_sided = FieldBoundary::all(BcKind::periodic);
  one_sided.side[top][1] = SideBc{BcKind::neumann, 0.0};
  EXPECT_FALSE(euler_blocked_takes(one_sided, 2, 1));
  EXPECT_FALSE(euler_blocked_takes(FieldBoundary::all(BcKind::periodic), 2, 2)) << "a ring of two";
}

}  // namespace
}  // namespace pdex
