#pragma once
// How forward Euler of the family steps on a backend: the one decision that ArdEuler takes and that a
// run's summary reports ("schedule").
#include <array>
#include <string>
#include <type_traits>

#include "pdex/models/ard/ard_base.hpp"
#include "pdex/models/ard/ard_spec.hpp"
#include "pdex/time/euler_blocked_shape.hpp"
#include "pdex/time/euler_stream_shape.hpp"
#include "pdex/time/euler_tiles_shape.hpp"
#include "pdex/time/schedules.hpp"

namespace pdex {

struct EulerPlan {
  enum Kind { cells, strips, tiles, stream, rows, columns } kind = cells;
  int steps_per_pass = 1;

  std::string name() const {
    switch (kind) {
      case strips: return "one pass a step, by strips";
      case tiles: return "temporally blocked tiles, " + std::to_string(steps_per_pass) + " steps a pass";
      case stream: return "register streaming, " + std::to_string(steps_per_pass) + " steps a pass";
      case rows: return "cache-blocked rows, " + std::to_string(steps_per_pass) + " steps a pass";
      case columns: return "one pass a step, by columns";
      default: return "one pass a step, by cells";
    }
  }
};

// Where streaming was measured faster than one pass a step in the engine (docs/performance.md): runs
// without advection whose parameters are one number each. With parameters per cell (read again at every
// step of a pass) the schedule was slower in both precisions.
inline bool streams_pay(const ArdSpec& s) {
  if (s.advection != Advection::none) return false;
  for (const auto& [name, p] : s.params)
    if (p.varies()) return false;
  return true;
}

// The y sides (bit bottom, bit top) across which a block of a grid split among ranks reads its
// neighbours' rows `blocked_steps` deep, so that it goes several steps a pass as the whole grid would
// (euler_blocked), or 0 where it steps one pass a step: the grid split along y alone, large enough that
// one process would block it, every block at least that many rows tall, and at each y side every
// species' condition periodic (another rank's block lies across it) or none's. Parameter fields take the
// same ghost rows (ard_state_ghost), filled from the neighbours once.
inline unsigned deep_block_sides(const ArdSpec& s) {
  if (!s.halo || s.grid.is_3d() || !s.temporal_blocking || s.theta > 0 || !s.mol_scheme.empty() || s.members.count > 1)
    return 0;
  const std::array<int, 3> ranks = s.halo->ranks();
  const Extents2 whole = s.halo->whole();
  if (ranks[0] != 1 || ranks[1] < 2 || whole.cells() < blocked_min_cells || whole.ny / ranks[1] < blocked_steps) return 0;
  unsigned deep = 0;
  const int n = int(s.species.size());
  for (const Side side : {bottom, top}) {
    int periodic = 0;
    for (int c = 0; c < n; ++c) periodic += s.bc.side[side][c].kind == BcKind::periodic;
    if (periodic == n) deep |= 1u << side;
    else if (periodic > 0) return 0;
  }
  return deep;
}

// The state's ghost ring on executor space `space`: deep where a block reads its neighbours' rows so.
inline int ard_state_ghost(const ArdSpec& s, MemorySpace space) {
  return space == MemorySpace::host && deep_block_sides(s) ? blocked_steps : ard_ghost_width;
}

// Whether the executor of `backend` has forward Euler's device schedules (TimeSchedules).
inline bool has_euler_schedules(Backend backend) {
  auto has = [&](auto exec) { return backend == decltype(exec)::backend && TimeSchedules<decltype(exec)>::euler_tiles; };
  return has(Serial{}) || has(OpenMP{}) || has(Cuda{});
}

// The schedules a run's backend offers forward Euler: the host's cache blocking, or the device's
// (TimeSchedules: where the right-hand side suits them, two species and five-point diffusion,
// schedules_take), or none.
enum class EulerSchedules { none, host, device };

// On the device, large grids whose sides euler_stream takes stream several steps a pass where that
// pays; small periodic ones take tiles; 3D grids walk columns up through the planes. On the host, grids
// that outgrow the caches go several steps a pass in chunks of rows, and so do the blocks of such a grid
// split among ranks along y (deep_block_sides). The rest, and the steps left over after the last whole
// pass, one pass a step.
template <class T>
EulerPlan euler_plan(const ArdSpec& s, EulerSchedules where) {
  if (where == EulerSchedules::none || s.theta > 0 || !s.mol_scheme.empty()) return {};
  if (s.grid.is_3d() && where == EulerSchedules::device) return {EulerPlan::columns, 1};
  if (where == EulerSchedules::host && deep_block_sides(s)) return {EulerPlan::rows, blocked_steps};
  if (s.grid.is_3d() || s.halo) return {};
  const bool ensemble = s.members.count > 1;
  const long long cells = s.grid.cells();
  if (where == EulerSchedules::host) {
    if (!ensemble && s.temporal_blocking && cells >= blocked_min_cells &&
        euler_blocked_takes(s.bc, int(s.species.size()), ard_ghost_width))
      return {EulerPlan::rows, blocked_steps};
    return {};
  }
  if (streams_pay(s) && !ensemble && s.temporal_blocking && cells >= stream_min_cells &&
      euler_stream_takes<T>(s.bc, s.grid.extents()))
    return {EulerPlan::stream, EulerStream<T>::steps};
  if (!ensemble && s.temporal_blocking && ard_detail::all_periodic(s.bc, 2) && cells <= temporal_blocking_max_cells)
    return {EulerPlan::tiles, EulerTiles<T>::steps};
  if (ensemble || cells >= strips_min_cells) return {EulerPlan::strips, 1};
  return {};
}

}  // namespace pdex
