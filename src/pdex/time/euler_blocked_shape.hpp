#pragma once
// Shape of the host's cache-blocked forward Euler (time/euler_blocked.hpp) and the runs it takes,
// visible to the planner without the kernels.
#include "pdex/grid/boundary.hpp"

namespace pdex {

// Rows a chunk (a thread's unit of work): long enough that the rows each side computed twice, 2 (steps -
// 1) a level, stay few; short enough that two windows of a few thousand cells a row stay in a core's L2.
constexpr int blocked_chunk_rows = 32;
// Steps a pass, and the grids from which blocking pays: those whose two states outgrow the caches
// (measured on two cores, docs/performance.md).
constexpr int blocked_steps = 4;
constexpr long long blocked_min_cells = 1024LL * 1024;

// Whether euler_blocked takes a field of `ncomp` components with conditions bc and a ghost ring of
// `ghost`: the y axis periodic on both sides for every component, or on neither side for any (the x
// sides any mix), and a ring of one cell.
inline bool euler_blocked_takes(const FieldBoundary& bc, int ncomp, int ghost) {
  int periodic = 0;
  for (int c = 0; c < ncomp; ++c)
    periodic += (bc.side[bottom][c].kind == BcKind::periodic) + (bc.side[top][c].kind == BcKind::periodic);
  return ghost == 1 && (periodic == 0 || periodic == 2 * ncomp);
}

}  // namespace pdex
