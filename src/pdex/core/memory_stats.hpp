#pragma once
// What a run holds in memory, for its summary: the most device memory pdex's buffers held at once
// (core/buffer.hpp; a few fixed scratch words of the CUDA context aside) and the process's peak resident
// host memory.
#include <cstddef>

namespace pdex {

std::size_t device_bytes_peak();
std::size_t host_peak_bytes();

}  // namespace pdex
