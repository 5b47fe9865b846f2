#pragma once
#include <string>
#include <string_view>

#include "pdex/core/error.hpp"

namespace pdex {

// Floating-point precision of a run; both are instantiated, a configuration picks one (principle 8).
enum class Precision { f32, f64 };

inline std::string_view precision_name(Precision p) { return p == Precision::f32 ? "f32" : "f64"; }

inline Precision parse_precision(std::string_view s) {
  if (s == "f32" || s == "float" || s == "single") return Precision::f32;
  if (s == "f64" || s == "double") return Precision::f64;
  throw InputError("unknown precision '" + std::string(s) + "': expected f32 or f64");
}

}  // namespace pdex
