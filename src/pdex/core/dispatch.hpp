#pragma once
// Dispatch once, at the top (DESIGN principle 1): calls f with the executor a run-time Backend names.
// f's templates for each executor live in their own translation units (the CUDA one compiled by nvcc).
#include <string>

#include "pdex/core/error.hpp"
#include "pdex/core/executor.hpp"
#ifdef PDEX_HAVE_CUDA
#include "pdex/core/cuda/cuda_context.hpp"
#endif

namespace pdex {

template <class F>
auto with_executor(Backend backend, F&& f) {
  if (!backend_available(backend))
    throw BackendUnavailable("backend '" + std::string(backend_name(backend)) +
                             "' is not available: " + backend_unavailable_reason(backend));
  switch (backend) {
    case Backend::serial: return f(Serial{});
    case Backend::openmp: return f(OpenMP{});
    case Backend::cuda:
#ifdef PDEX_HAVE_CUDA
      return f(Cuda{&default_cuda_context()});
#else
      break;
#endif
  }
  throw BackendUnavailable("backend not built");
}

}  // namespace pdex
