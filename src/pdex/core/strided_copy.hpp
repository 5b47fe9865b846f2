#pragma once
// A box of rows between two memory spaces: `planes` planes of `rows` rows of `width` bytes, rows
// `*_pitch` bytes apart and planes `*_plane` bytes apart, at src and at dst (cudaMemcpy3D where one side
// is the device). Waits for the device's queued work first and for the copy after: for the halo
// exchange's slabs (mpi/mpi_halo.cpp), not for time steps.
#include <cstddef>

#include "pdex/core/memory_space.hpp"

namespace pdex::detail {

struct RowBox {
  std::size_t width = 0, rows = 1, planes = 1;
};

void copy_box(void* dst, std::size_t dst_pitch, std::size_t dst_plane, MemorySpace dst_space, const void* src,
              std::size_t src_pitch, std::size_t src_plane, MemorySpace src_space, RowBox box);

}  // namespace pdex::detail
