#pragma once
// Memory bandwidth of this machine, measured in the same run as the benchmarks it normalizes.

#include <cstddef>

namespace pdex::bench {

// STREAM-triad bandwidth of the host with OpenMP threads (a[i] = b[i] + s c[i]), GB/s, counting 3 arrays moved.
double host_triad_gbs();
// Device-to-device copy bandwidth of the CUDA device, GB/s, counting bytes read plus bytes written; 0 without CUDA.
// `bytes` is the size of one copy: the default is far beyond the L2 cache; a small one, repeated on the
// same buffers, shows what the memory system gives a kernel of that size (launch ramp, tail, L2 reuse).
double device_copy_gbs(std::size_t bytes = std::size_t(1) << 30);

}  // namespace pdex::bench
