#pragma once
// How forward Euler of the family steps on a backend: the one decision that ArdEuler takes and that a
// run's summary reports ("schedule").
#include <array>
#include <string>
#include <type_traits>

#include "pdex/core/error.hpp"
#include "pdex/models/ard/ard_base.hpp"
#include "pdex/models/ard/ard_spec.hpp"
#include "pdex/time/euler_blocked_shape.hpp"
#include "pdex/time/euler_plan.hpp"
#include "pdex/time/euler_stream_shape.hpp"
#include "pdex/time/euler_tiles_shape.hpp"
#include "pdex/time/schedules.hpp"

namespace pdex {

// Where streaming was measured faster than one pass a step in the engine (docs/performance.md): runs
// without advection whose parameters are one number each. With parameters per cell (read again at every
// step of a pass) the schedule was slower in both precisions.
inline bool streams_pay(const ArdSpec& s) {
  if (s.advection != Advection::none) return false;
  for (const auto& [name, p] : s.params)
    if (p.varies()) return false;
  return true;
}

// The steps a pass of the host's cache-blocked rows: run.steps_per_pass where given, else blocked_steps.
inline int host_pass_steps(const ArdSpec& s) { return s.steps_per_pass > 1 ? s.steps_per_pass : blocked_steps; }

// The y sides (bit bottom, bit top) across which a block of a grid split among ranks reads its
// neighbours' rows `blocked_steps` deep, so that it goes several steps a pass as the whole grid would
// (euler_blocked), or 0 where it steps one pass a step: the grid split along y alone, large enough that
// one process would block it, every block at least that many rows tall, and at each y side every
// species' condition periodic (another rank's block lies across it) or none's. Parameter fields take the
// same ghost rows (ard_state_ghost), filled from the neighbours once.
inline unsigned deep_block_sides(const ArdSpec& s) {
  if (!s.halo || s.grid.is_3d() || !s.temporal_blocking || s.steps_per_pass == 1 || s.theta > 0 || !s.mol_scheme.empty() ||
      s.members.count > 1)
    return 0;
  const std::array<int, 3> ranks = s.halo->ranks();
  const Extents2 whole = s.halo->whole();
  const bool large = s.steps_per_pass > 1 || whole.cells() >= blocked_min_cells;
  if (ranks[0] != 1 || ranks[1] < 2 || !large || whole.ny / ranks[1] < host_pass_steps(s)) return 0;
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
  return space == MemorySpace::host && deep_block_sides(s) ? host_pass_steps(s) : ard_ghost_width;
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

namespace ard_detail {
// euler_plan's choice, several steps a pass where `blocking`: k = 0 where the grid's size suits them, k
// > 1 a schedule of k steps a pass at any size.
template <class T>
EulerPlan plan_for(const ArdSpec& s, EulerSchedules where, bool blocking, int k) {
  if (where == EulerSchedules::none || s.theta > 0 || !s.mol_scheme.empty()) return {};
  if (s.grid.is_3d() && where == EulerSchedules::device) return {EulerPlan::columns, 1};
  if (where == EulerSchedules::host && deep_block_sides(s)) return {EulerPlan::rows, host_pass_steps(s)};
  if (s.grid.is_3d() || s.halo) return {};
  const bool ensemble = s.members.count > 1, any_size = k > 1;
  const long long cells = s.grid.cells();
  blocking = blocking && !ensemble;
  if (where == EulerSchedules::host) {
    if (blocking && (any_size || cells >= blocked_min_cells) && euler_blocked_takes(s.bc, int(s.species.size()), ard_ghost_width))
      return {EulerPlan::rows, host_pass_steps(s)};
    return {};
  }
  if (blocking && streams_pay(s) && (any_size ? k == EulerStream<T>::steps : cells >= stream_min_cells) &&
      euler_stream_takes<T>(s.bc, s.grid.extents()))
    return {EulerPlan::stream, EulerStream<T>::steps};
  if (blocking && ard_detail::all_periodic(s.bc, 2) && (any_size ? k == EulerTiles<T>::steps : cells <= temporal_blocking_max_cells))
    return {EulerPlan::tiles, EulerTiles<T>::steps};
  if (ensemble || cells >= strips_min_cells) return {EulerPlan::strips, 1};
  return {};
}

// For an error, the counts other than 1 that the device's schedules offer a run: "4 (register streaming,
// 4 steps a pass), ", or "" where none, and on the host (its rows take any count where they take a run).
template <class T>
std::string other_passes(const ArdSpec& s, EulerSchedules where) {
  std::string out;
  for (const int k : {EulerStream<T>::steps, EulerTiles<T>::steps}) {
    const EulerPlan p = plan_for<T>(s, where, true, k);
    if (p.steps_per_pass != k || out.find(p.name()) != std::string::npos) continue;
    out += std::to_string(k) + " (" + p.name() + "), ";
  }
  return out;
}
}  // namespace ard_detail

// On the device, large grids whose sides euler_stream takes stream several steps a pass where that
// pays; small periodic ones take tiles; 3D grids walk columns up through the planes. On the host, grids
// that outgrow the caches go several steps a pass in chunks of rows, and so do the blocks of such a grid
// split among ranks along y (deep_block_sides). The rest, and the steps left over after the last whole
// pass, one pass a step. run.steps_per_pass = k asks for k steps a pass whatever the grid's size (1: one
// pass a step); a run that cannot take k is refused, saying what it can take.
template <class T>
EulerPlan euler_plan(const ArdSpec& s, EulerSchedules where) {
  const int k = s.steps_per_pass;
  const EulerPlan p = ard_detail::plan_for<T>(s, where, s.temporal_blocking && k != 1, k);
  if (k > 1 && p.steps_per_pass != k)
    throw InputError("run.steps_per_pass = " + std::to_string(k) + ": forward Euler of this run, " +
                     (where == EulerSchedules::host ? "on the CPU" : "on the GPU") + " in " + (sizeof(T) == 4 ? "f32" : "f64") +
                     ", can go " + ard_detail::other_passes<T>(s, where) +
                     "1 step a pass (docs/config.md, run.steps_per_pass, says which runs take several)");
  return p;
}

}  // namespace pdex
