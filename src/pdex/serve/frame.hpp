#pragma once
// A frame as it travels to the page: every field quantized to 16 bits between its own minimum and
// maximum where it lives (time/quantized.hpp; the page colour-maps it on its GPU), behind a JSON
// header. Layout, little-endian:
//   uint32 n | n bytes of JSON header | zero padding to a multiple of 4 | per field nx*ny uint16, [y][x]
#include <string>

#include "pdex/serve/live_run.hpp"

namespace pdex::serve {

std::string encode_frame(const Snapshot& s);

}  // namespace pdex::serve
