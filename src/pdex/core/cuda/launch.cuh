#pragma once
// Kernel launches with programmatic dependent launch (Hopper and later). A kernel queued behind another
// is normally placed on the multiprocessors only after the one before has finished and its stores are
// flushed: a gap of a launch's fixed cost between every two kernels of a step. Launched this way, its
// blocks are placed while the kernel before drains, and wait on the device (begin_dependent_grid) until
// it has finished, with the same memory guarantees as stream order.
//
// Every kernel launched by launch() must call begin_dependent_grid() before it touches global memory.
// PDEX_CUDA_PDL=0 in the environment turns the overlap off (CudaContext::programmatic_launch()).
#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <utility>

#include "pdex/core/cuda/cuda_check.hpp"
#include "pdex/core/cuda/cuda_context.hpp"

namespace pdex {

// Waits until the grid queued before this one has finished and its stores are visible (at once when it
// has, or when this grid was launched in stream order), then lets the grid queued after this one be
// placed as this one's blocks finish.
__device__ __forceinline__ void begin_dependent_grid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

namespace launch_detail {
template <class... Params, class... Args>
void launch_with(const CudaContext& ctx, const char* what, cudaLaunchAttribute attribute, void (*kernel)(Params...),
                 dim3 grid, dim3 block, std::size_t shared, Args&&... args) {
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = shared;
  config.stream = ctx.stream();
  config.attrs = &attribute;
  config.numAttrs = 1;
  const cudaError_t err = cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    throw_cuda_error(err, (std::string("launch of ") + what).c_str(), __FILE__, __LINE__);
  }
}
}  // namespace launch_detail

// kernel<<<grid, block, shared, ctx.stream()>>>(args...), with the overlap when ctx allows it; what names
// the kernel in the error a failed launch raises.
template <class... Params, class... Args>
void launch(const CudaContext& ctx, const char* what, void (*kernel)(Params...), dim3 grid, dim3 block,
            std::size_t shared, Args&&... args) {
  cudaLaunchAttribute overlap{};
  overlap.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  overlap.val.programmaticStreamSerializationAllowed = ctx.programmatic_launch() ? 1 : 0;
  launch_detail::launch_with(ctx, what, overlap, kernel, grid, block, shared, std::forward<Args>(args)...);
}

// launch() for a kernel whose blocks meet at grid barriers (cooperative_groups::this_grid().sync()):
// every block placed at once, so `grid` must not exceed the blocks that fit on the device together. It
// starts in stream order (no overlap with the kernel before).
template <class... Params, class... Args>
void launch_cooperative(const CudaContext& ctx, const char* what, void (*kernel)(Params...), dim3 grid, dim3 block,
                        std::size_t shared, Args&&... args) {
  cudaLaunchAttribute cooperative{};
  cooperative.id = cudaLaunchAttributeCooperative;
  cooperative.val.cooperative = 1;
  launch_detail::launch_with(ctx, what, cooperative, kernel, grid, block, shared, std::forward<Args>(args)...);
}

}  // namespace pdex
