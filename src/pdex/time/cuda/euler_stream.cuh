#pragma once
// Forward Euler on CUDA, EulerStream<T>::steps steps a launch by register streaming (the design of
// bench/euler_stream_probe.cu, docs/performance.md): each warp owns a strip of columns and a segment of
// rows, and walks down the rows keeping, for each time level, the last two rows it computed in
// registers; level l's row R is computed from level l - 1's rows R - 1 .. R + 1 as soon as row R + 1
// exists. East and west neighbours across threads come from warp shuffles: no shared memory, no
// barrier, one read and one write of each cell per launch. A strip recomputes a halo of columns each
// side and a segment k - 1 rows above it, so that warps never exchange data.
//
// The walk itself is in stream_walk.cuh, which a text model's kernel shares. Every update is the model's
// own (ArdRhs::eval_stars, limit), on the same stars as euler_strips, so the
// result is bitwise that of `steps` one-pass steps. The sides: the first level reads the ghosts of `in`;
// every later level forms the ghost a stencil reads at a non-periodic side as push_ghosts would have
// written it (the same expression, a * cell + b, of the side's image rule), while a periodic axis is
// read across, wrapped. `out`'s ghosts are pushed at the end of each walk.
// Runs that euler_stream_takes (time/euler_stream_shape.hpp).
#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "pdex/core/cuda/cuda_check.hpp"
#include "pdex/core/cuda/cuda_context.hpp"
#include "pdex/core/cuda/launch.cuh"
#include "pdex/core/executor.hpp"
#include "pdex/grid/boundary.hpp"
#include "pdex/grid/field_view.hpp"
#include "pdex/time/cuda/stream_walk.cuh"
#include "pdex/time/euler_stream_shape.hpp"

namespace pdex {

namespace stream_detail {

// The reaction-diffusion family's right-hand side as the walk's evaluator (stream_walk.cuh): R is the
// kernel's parameter by reference, or (Uniform) its copy with every parameter read once.
template <class T, class R, bool Uniform>
struct ArdStreamEval {
  using Rhs = std::remove_cvref_t<R>;
  static constexpr int ncomp = Rhs::ncomp;
  static constexpr bool uniform = Uniform;
  R rhs;
  __device__ __forceinline__ void eval(const Star<T> (&s)[ncomp], int, int, int64_t o, int, T (&r)[ncomp]) const {
    rhs.eval_stars(s, rhs.h, o, r);
  }
  __device__ __forceinline__ T next(int c, T u, T r, T dt) const { return rhs.limit(c, u + dt * r); }
};

template <class T, class Rhs, bool Uniform>
__global__ void __launch_bounds__(EulerStream<T>::threads, EulerStream<T>::min_blocks)
    euler_stream_kernel(const __grid_constant__ StreamStep<T, Rhs> step) {
  begin_dependent_grid();
  if constexpr (Uniform)  // parameters in registers, read once
    stream_walk(step, [&] { return ArdStreamEval<T, decltype(step.cell.at(0)), true>{step.cell.at(0)}; });
  else
    stream_walk(step, [&] { return ArdStreamEval<T, const Rhs&, false>{step.cell}; });
}

// Whether every parameter of rhs is one number (Param's stride 0 and no cells): then the kernel reads
// them once. Right-hand sides whose parameters cannot be told count as per-cell.
template <class P>
bool uniform_param(const P& p) {
  if constexpr (requires { p.cells; }) return p.cells == nullptr;
  else return true;
}
template <class Rhs>
bool uniform_params(const Rhs& rhs) {
  if constexpr (requires { rhs.reaction; rhs.D[0]; rhs.ax; rhs.ay; }) {
    bool all = uniform_param(rhs.ax) && uniform_param(rhs.ay);
    for (const auto& d : rhs.D) all = all && uniform_param(d);
    rhs.reaction.map([&](const auto& p) {
      all = all && uniform_param(p);
      return p;
    });
    return all;
  } else {
    return false;
  }
}

template <class T, class Rhs, bool Uniform>
void launch_stream(const CudaContext& ctx, StreamStep<T, Rhs> step) {
  using S = EulerStream<T>;
  const auto kernel = euler_stream_kernel<T, Rhs, Uniform>;
  const long long resident = (long long)ctx.resident_blocks(reinterpret_cast<const void*>(kernel), S::threads, 0) *
                             (S::threads / 32) * ctx.multiprocessors();
  const StreamLaunch shape = stream_launch<T>(step.in.extents(), resident);
  step.strips = shape.strips;
  step.seg_rows = shape.seg_rows;
  launch(ctx, "euler_stream", kernel, dim3(unsigned(shape.blocks)), dim3(S::threads), 0, step);
}

}  // namespace stream_detail

// EulerStream<T>::steps forward Euler steps from `in` to `out` in one launch, `out`'s ghosts written
// (Rhs isotropic, two species; a run that euler_stream_takes). `in` and `out` must not overlap.
template <class T, class Rhs>
void euler_stream(const Cuda& ex, const Rhs& rhs, FieldView<const T> in, FieldView<T> out, const FieldBoundary& bc,
                  T dt) {
  using namespace stream_detail;
  const CudaContext& ctx = *ex.context;
  const StreamStep<T, Rhs> step{stream_args<T>(rhs, in, out, bc, dt, 2)};
  if (uniform_params(rhs)) launch_stream<T, Rhs, true>(ctx, step);
  else launch_stream<T, Rhs, false>(ctx, step);
}

}  // namespace pdex
