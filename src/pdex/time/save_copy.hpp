#pragma once
// A stepper's copy of its state to go back to (Stepper::save), kept only by runs that save.
#include "pdex/core/memory_stats.hpp"
#include "pdex/grid/field.hpp"

namespace pdex {

// src into `saved`, which is made at the first call, where spare_space puts it.
template <class T>
void save_copy(Field<T>& saved, const Field<T>& src) {
  if (saved.components() == 0) saved = src.like(spare_space(src.space(), src.bytes()));
  copy(saved, src);
}

}  // namespace pdex
