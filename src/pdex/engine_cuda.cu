// The engine's CUDA instantiations (compiled by nvcc), but for the advection-reaction-diffusion family's,
// which models/ard/cuda/ard_engine.cu compiles beside this unit.
//
// nvcc's host-side wrapper of an extended __host__ __device__ lambda keeps state per translation unit,
// while the linker merges the template instantiations that use it across translation units. With the
// same kernel template (say axpby's for_each_cell) instantiated in two .cu files, a launch could take
// one file's copy of the launcher and the other's never-initialized wrapper state, and call address 0
// (an older nvcc, in the stored-matrix solvers). nvcc 13 names the wrappers by their enclosing
// function, alike in every unit; still, a kernel is best instantiated in one of them. (Test sources compiled by
// nvcc live in executables of their own for the same reason: tests/CMakeLists.txt.)
#include "pdex/linalg/cuda/matrix_solve_cuda.cuh"  // first: it defines rb_sweep_into, which the solvers call
#include "pdex/linalg/cuda/elliptic_cuda.cuh"
#include "pdex/linalg/cuda/linear_solvers_cuda.cuh"
#include "pdex/models/scalar/cuda/scalar_cuda.cuh"
#include "pdex/models/wave/cuda/wave_cuda.cuh"
#include "pdex/models/curvature/cuda/curvature_cuda.cuh"
#include "pdex/models/chemotaxis/cuda/chemotaxis_cuda.cuh"
#include "pdex/models/equations/cuda/equations_cuda.cuh"

#include "pdex/core/cuda/cuda_check.hpp"
#include "pdex/core/cuda/cuda_context.hpp"

namespace pdex {
namespace {
// A kernel of this translation unit's module, whose attributes make CUDA load the module.
__global__ void engine_module_kernel() {}
}  // namespace

// The CUDA executor's linear solvers, for every unit that uses them (linalg/cuda/linear_solvers_cuda.cuh).
PDEX_LINEAR_SOLVERS(template class, Cuda)

void load_ard_kernels();  // models/ard/cuda/ard_engine.cu

void load_engine_kernels() {
  cudaFuncAttributes a{};
  PDEX_CUDA_CHECK(cudaFuncGetAttributes(&a, engine_module_kernel));
  load_ard_kernels();
}
}  // namespace pdex
