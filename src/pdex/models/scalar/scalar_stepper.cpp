#include "pdex/models/scalar/scalar_stepper.hpp"

#include "pdex/core/dispatch.hpp"

namespace pdex {

std::unique_ptr<Stepper> make_scalar_stepper(const ScalarModelSpec& spec, Backend backend, Precision precision) {
  return with_executor(backend, [&](const auto& ex) { return make_scalar_stepper_on(ex, spec, precision); });
}

}  // namespace pdex
