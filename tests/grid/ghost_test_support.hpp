#pragma once
// Host-side helpers of the ghost-cell tests: fields whose every interior value is distinct, a plain
// reference fill written from the conventions in grid/boundary.hpp, and cell-by-cell comparison.
#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <string>

#include "core/executor_types.hpp"
#include "pdex/grid/boundary.hpp"
#include "pdex/grid/field.hpp"
#include "pdex/grid/fill_ghosts.hpp"

namespace pdex::test {

// Distinct interior values (exact in float for these sizes); every ghost NaN, so that a ghost no rule
// wrote cannot compare equal to anything.
template <class T>
Field<T> numbered_field(const Grid2& g, int ncomp, int ghost) {
  Field<T> f(g, ncomp, ghost, MemorySpace::host);
  for (T& x : f.buffer().host_span()) x = std::numeric_limits<T>::quiet_NaN();
  auto v = f.view();
  for (int c = 0; c < ncomp; ++c)
    for (int j = 0; j < g.ny; ++j)
      for (int i = 0; i < g.nx; ++i) v(c, i, j) = T(0.25) * T(1 + i + 64 * j + 4096 * c);
  return f;
}

// fill_ghosts on the executor `ex`, starting from a host field; the result back on the host.
template <class Exec, class T>
Field<T> fill_on(const Exec& ex, const Field<T>& host, const FieldBoundary& bc) {
  Field<T> dev = to_space(host, Exec::space);
  finish(ex);
  fill_ghosts(ex, dev, bc);
  finish(ex);
  return to_space(dev, MemorySpace::host);
}

// The reference: x ghosts of the interior rows first, then whole ghost rows (x ghosts included), each
// ghost from the cell k+1 in from the opposite side (periodic) or the mirror cell (Neumann: equal;
// Dirichlet: 2 b - mirror).
template <class T>
Field<T> reference_fill(const Field<T>& host, const FieldBoundary& bc) {
  Field<T> r = host.like(MemorySpace::host);
  copy(r, host);
  auto v = r.view();
  const int nx = v.nx, ny = v.ny, g = v.ghost;
  auto image = [](const SideBc& s, T x) { return s.kind == BcKind::neumann ? x : T(2 * s.value) - x; };
  for (int c = 0; c < v.ncomp; ++c) {
    const SideBc &lo = bc.side[left][c], &hi = bc.side[right][c], &bo = bc.side[bottom][c], &to = bc.side[top][c];
    for (int j = 0; j < ny; ++j)
      for (int k = 0; k < g; ++k) {
        v(c, -1 - k, j) = lo.kind == BcKind::periodic ? v(c, nx - 1 - k, j) : image(lo, v(c, k, j));
        v(c, nx + k, j) = hi.kind == BcKind::periodic ? v(c, k, j) : image(hi, v(c, nx - 1 - k, j));
      }
    for (int k = 0; k < g; ++k)
      for (int i = -g; i < nx + g; ++i) {
        v(c, i, -1 - k) = bo.kind == BcKind::periodic ? v(c, i, ny - 1 - k) : image(bo, v(c, i, k));
        v(c, i, ny + k) = to.kind == BcKind::periodic ? v(c, i, k) : image(to, v(c, i, ny - 1 - k));
      }
  }
  return r;
}

inline bool is_interior(int i, int j, int nx, int ny) { return i >= 0 && j >= 0 && i < nx && j < ny; }

template <class T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// Every cell, ghosts included, bit for bit; reports the first few differences.
template <class T>
::testing::AssertionResult same_cells(const Field<T>& a, const Field<T>& b) {
  auto va = a.view();
  auto vb = b.view();
  int bad = 0;
  std::string where;
  for (int c = 0; c < va.ncomp; ++c)
    for (int j = -va.ghost; j < va.ny + va.ghost; ++j)
      for (int i = -va.ghost; i < va.nx + va.ghost; ++i)
        if (!same_bits(va(c, i, j), vb(c, i, j)) && bad++ < 5)
          where += " (c " + std::to_string(c) + ", i " + std::to_string(i) + ", j " + std::to_string(j) +
                   "): " + std::to_string(double(va(c, i, j))) + " vs " + std::to_string(double(vb(c, i, j))) + ";";
  if (bad == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << bad << " cells differ:" << where;
}

}  // namespace pdex::test
