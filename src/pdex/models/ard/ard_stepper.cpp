#include "pdex/models/ard/ard_stepper.hpp"

#include "pdex/core/dispatch.hpp"

namespace pdex {

std::unique_ptr<Stepper> make_ard_stepper(const ArdSpec& spec, Backend backend, Precision precision) {
  return with_executor(backend, [&](const auto& ex) { return make_ard_stepper_on(ex, spec, precision); });
}

}  // namespace pdex
