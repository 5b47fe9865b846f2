#pragma once
// What a run holds in memory, for its summary: the most device memory pdex's buffers held at once
// (core/buffer.hpp; a few fixed scratch words of the CUDA context aside) and the process's peak resident
// host memory.
#include <cstddef>

#include "pdex/core/memory_space.hpp"

namespace pdex {

std::size_t device_bytes_peak();
std::size_t host_peak_bytes();
// Host memory the process may still take without pushing others out (core/host_memory.hpp).
std::size_t host_available_bytes();
// Where a rarely read copy of `bytes` from `space` (a blow-up guard's) is kept: beside the state where the
// device has room for it twice over, in host memory otherwise, so that the largest grids still fit.
MemorySpace spare_space(MemorySpace space, std::size_t bytes);
// Whether such a copy has room twice over anywhere: on the device beside the state, or in host memory.
bool room_for_copy(MemorySpace space, std::size_t bytes);

}  // namespace pdex
