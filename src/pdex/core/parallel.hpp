#pragma once
// The one header kernels' callers include: for_each_cell and reduce for every executor this
// translation unit can drive. CUDA launches exist only in translation units compiled by nvcc.
#include "pdex/core/parallel_host.hpp"
#include "pdex/core/reduce_ops.hpp"
#if defined(__CUDACC__) && defined(PDEX_HAVE_CUDA)
#include "pdex/core/cuda/parallel_cuda.cuh"
#endif
