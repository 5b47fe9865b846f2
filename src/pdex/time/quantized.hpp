#pragma once
// A field quantized to 16 bits between its finite minimum and maximum: what a picture of it needs (the
// explorer's frames) in a quarter of the bytes of single precision. A value v is stored as
// q = round((v - min) / (max - min) * 65534); q = 65535 marks a NaN or Inf cell.
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace pdex {

inline constexpr uint16_t quantized_levels = 65534, quantized_nonfinite = 65535;

struct QuantizedField {
  double min = 0, max = 0, mean = 0;  // over the finite cells
  std::vector<uint16_t> q;            // row-major [y][x]
};

// The factor from v - min to q (0 for a constant field).
inline double quantize_scale(double min, double max) { return max > min ? quantized_levels / (max - min) : 0.0; }

// On the host, from the values.
inline QuantizedField quantize_values(const std::vector<double>& v) {
  QuantizedField out{std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(), 0, {}};
  std::size_t n = 0;
  for (double x : v) {
    if (!std::isfinite(x)) continue;
    out.min = std::min(out.min, x), out.max = std::max(out.max, x), out.mean += x, ++n;
  }
  if (n == 0) out.min = out.max = 0;
  out.mean = n ? out.mean / double(n) : 0.0;
  const double scale = quantize_scale(out.min, out.max);
  out.q.reserve(v.size());
  for (double x : v) out.q.push_back(std::isfinite(x) ? uint16_t((x - out.min) * scale + 0.5) : quantized_nonfinite);
  return out;
}

}  // namespace pdex
