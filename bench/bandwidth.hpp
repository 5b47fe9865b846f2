#pragma once
// Memory bandwidth of this machine, measured in the same run as the benchmarks it normalizes.

namespace pdex::bench {

// STREAM-triad bandwidth of the host with OpenMP threads (a[i] = b[i] + s c[i]), GB/s, counting 3 arrays moved.
double host_triad_gbs();
// Device-to-device copy bandwidth of the CUDA device, GB/s, counting bytes read plus bytes written; 0 without CUDA.
double device_copy_gbs();

}  // namespace pdex::bench
