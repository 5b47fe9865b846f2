// The advection-reaction-diffusion engine's CUDA instantiations, in a translation unit apart from
// engine_cuda.cu: a change to a kinetics or to the family rebuilds this unit alone, and a two-core
// build compiles the two side by side. The linear solvers' CUDA sweeps it calls are instantiated once,
// in engine_cuda.cu (linalg/cuda/sweeps_cuda.hpp declares them).
#include "pdex/models/ard/cuda/ard_cuda.cuh"

#include "pdex/core/cuda/cuda_check.hpp"

namespace pdex {
namespace {
// A kernel of this unit's module, whose attributes make CUDA load the module (load_engine_kernels).
__global__ void ard_module_kernel() {}
}  // namespace

void load_ard_kernels() {
  cudaFuncAttributes a{};
  PDEX_CUDA_CHECK(cudaFuncGetAttributes(&a, ard_module_kernel));
}
}  // namespace pdex
