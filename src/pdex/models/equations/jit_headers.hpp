#pragma once
// pdex's headers that the source generated from a text model includes (text_cell.hpp and what it
// includes), built into pdex (cmake/embed_headers.cmake): the host compiler reads them from a copy in
// the kernel cache and NVRTC from memory, so that text models compile wherever pdex runs.
#include <string>
#include <vector>

namespace pdex::eq {

struct JitHeader {
  const char* name;  // as included: "pdex/grid/grid.hpp"
  const char* text;
};

const std::vector<JitHeader>& jit_headers();

// 16 hex digits identifying the headers' names and texts (kernel_cache.hpp's hash).
const std::string& jit_headers_hash();

}  // namespace pdex::eq
