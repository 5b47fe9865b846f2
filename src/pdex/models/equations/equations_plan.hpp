#pragma once
// How a text model's forward Euler steps: the one decision that its stepper takes and that a run's
// summary reports ("schedule"). On the GPU, register streaming (time/cuda/stream_walk.cuh through
// cuda/text_stream.cuh), EulerStream<T>::steps steps a pass; on the CPU, cache-blocked rows
// (time/euler_blocked.hpp), any count; where the program and the run suit them. One pass a step by cells
// everywhere else.
#include <string>

#include "pdex/core/error.hpp"
#include "pdex/models/equations/codegen.hpp"
#include "pdex/models/equations/equations_fields.hpp"
#include "pdex/models/equations/equations_spec.hpp"
#include "pdex/time/euler_blocked_shape.hpp"
#include "pdex/time/euler_plan.hpp"
#include "pdex/time/euler_stream_shape.hpp"

namespace pdex {

namespace equations_detail {
// What keeps a run of s from several steps a pass on the GPU (`device`) or the CPU at any size, or ""
// where nothing does.
template <class T>
std::string pass_obstacle(const EquationsSpec& s, bool device) {
  const int n = int(s.text.species.size());
  if (s.scheme != "euler") return "time.scheme is not forward Euler's";
  if (s.grid.is_3d()) return "the grid is 3D";
  if (s.halo) return "the grid is split among ranks";
  if (!s.boundary_values.empty()) return "a side's value is an expression";
  if (!device) {
    if (ghost_of(s) != 1) return "an operator is applied to an operator (two rings of ghost cells)";
    if (!euler_blocked_takes(s.bc, n, 1)) return "the y axis is periodic for some species only or on one side only";
    return "";
  }
  if (n > max_stream_species) return "the model has more than " + std::to_string(max_stream_species) + " species";
  if (!eq::streamable(s.program)) return "an operator is applied to an expression, a parameter field or a tensor, not to a species";
  if (!euler_stream_takes<T>(s.bc, s.grid.extents(), n))
    return "an axis is periodic for some species only or on one side only, or the grid is under " +
           std::to_string(64 * EulerStream<T>::cols) + " x " + std::to_string(2 * EulerStream<T>::steps) + " cells";
  return "";
}
}  // namespace equations_detail

// The plan of a run of s on the GPU (`device`) or the CPU: several steps a pass where nothing keeps the
// run from them and run.temporal_blocking is on, from the sizes where they pay (stream_min_cells,
// blocked_min_cells) or at any size where run.steps_per_pass asks for a count the schedule takes; a count
// the run cannot take is refused before the first step, saying why.
template <class T>
EulerPlan text_euler_plan(const EquationsSpec& s, bool device) {
  const int k = s.steps_per_pass, stream_k = EulerStream<T>::steps;
  const std::string obstacle = equations_detail::pass_obstacle<T>(s, device);
  const bool can = s.temporal_blocking && k != 1 && obstacle.empty();
  if (can && device && (k == stream_k || (k == 0 && s.grid.cells() >= stream_min_cells))) return {EulerPlan::stream, stream_k};
  if (can && !device && (k > 1 || s.grid.cells() >= blocked_min_cells)) return {EulerPlan::rows, k > 1 ? k : blocked_steps};
  if (k <= 1) return {};
  if (!obstacle.empty())
    throw InputError("run.steps_per_pass = " + std::to_string(k) + ": this text model goes 1 step a pass on the " + (device ? "GPU" : "CPU") +
                     ", since " + obstacle + " (docs/config.md, run.steps_per_pass, says which runs take several)");
  throw InputError("run.steps_per_pass = " + std::to_string(k) + ": a text model's forward Euler on the GPU in " + (sizeof(T) == 4 ? "f32" : "f64") +
                   " can go " + std::to_string(stream_k) + " (register streaming, " + std::to_string(stream_k) + " steps a pass) or 1 step a pass");
}

}  // namespace pdex
