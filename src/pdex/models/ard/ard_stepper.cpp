#include "pdex/models/ard/ard_stepper.hpp"

#include <string>

#include "pdex/core/error.hpp"
#ifdef PDEX_HAVE_CUDA
#include "pdex/core/cuda/cuda_context.hpp"
#endif

namespace pdex {

std::unique_ptr<Stepper> make_ard_stepper(const ArdSpec& spec, Backend backend, Precision precision) {
  if (!backend_available(backend))
    throw BackendUnavailable("backend '" + std::string(backend_name(backend)) +
                             "' is not available: " + backend_unavailable_reason(backend));
  switch (backend) {
    case Backend::serial: return make_ard_stepper_on(Serial{}, spec, precision);
    case Backend::openmp: return make_ard_stepper_on(OpenMP{}, spec, precision);
    case Backend::cuda:
#ifdef PDEX_HAVE_CUDA
      return make_ard_stepper_on(Cuda{&default_cuda_context()}, spec, precision);
#else
      break;
#endif
  }
  throw BackendUnavailable("backend not built");
}

}  // namespace pdex
