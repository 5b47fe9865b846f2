#include "pdex/models/equations/equations_stepper.hpp"

#include "pdex/core/dispatch.hpp"

namespace pdex {

std::unique_ptr<Stepper> make_equations_stepper(const EquationsSpec& spec, Backend backend, Precision precision) {
  return with_executor(backend, [&](const auto& ex) { return make_equations_stepper_on(ex, spec, precision); });
}

}  // namespace pdex
