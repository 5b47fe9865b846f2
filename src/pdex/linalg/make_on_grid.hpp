#pragma once
// Steppers and solvers templated on the precision and the grid operator, made for a run's choice of both.
#include <memory>

#include "pdex/core/precision.hpp"
#include "pdex/linalg/helmholtz3.hpp"

namespace pdex {

// A new Impl<Exec, T, Op>(ex, spec) as a Base: T the precision's type, Op the operator of spec.grid.
template <class Base, template <class, class, class> class Impl, class Exec, class Spec>
std::unique_ptr<Base> make_on_grid(const Exec& ex, const Spec& spec, Precision precision) {
  auto make = [&]<class T>() -> std::unique_ptr<Base> {
    return with_grid_operator<T>(spec.grid, [&]<class Op>(Op) -> std::unique_ptr<Base> {
      return std::make_unique<Impl<Exec, T, Op>>(ex, spec);
    });
  };
  if (precision == Precision::f32) return make.template operator()<float>();
  return make.template operator()<double>();
}

}  // namespace pdex
