#pragma once
// Dispatch once, at the top (DESIGN principle 1): calls make(executor) with the executor of a backend
// chosen at run time. The executor-specific `make` bodies live in per-executor translation units.
#include <string>

#include "pdex/core/error.hpp"
#include "pdex/core/executor.hpp"
#ifdef PDEX_HAVE_CUDA
#include "pdex/core/cuda/cuda_context.hpp"
#endif

namespace pdex {

// Throws BackendUnavailable for a backend this build or machine lacks.
template <class Make>
auto on_executor(Backend backend, Make&& make) {
  if (!backend_available(backend))
    throw BackendUnavailable("backend '" + std::string(backend_name(backend)) +
                             "' is not available: " + backend_unavailable_reason(backend));
  switch (backend) {
    case Backend::serial: return make(Serial{});
    case Backend::openmp: return make(OpenMP{});
    case Backend::cuda:
#ifdef PDEX_HAVE_CUDA
      return make(Cuda{&default_cuda_context()});
#else
      break;
#endif
  }
  throw BackendUnavailable("backend not built");
}

}  // namespace pdex
