#pragma once
// A frame as it travels to the page: every field quantized to 16 bits between its own minimum and
// maximum (the page colour-maps them on its GPU), behind a JSON header. Layout, little-endian:
//   uint32 n | n bytes of JSON header | zero padding to a multiple of 4 | per field nx*ny uint16, [y][x]
// A value v is min + q (max - min) / 65534; q = 65535 marks a NaN or Inf cell.
#include <cstdint>
#include <string>

#include "pdex/serve/live_run.hpp"

namespace pdex::serve {

inline constexpr uint16_t frame_levels = 65534, frame_nonfinite = 65535;

std::string encode_frame(const Snapshot& s);

}  // namespace pdex::serve
