#include "bandwidth.hpp"

#include <algorithm>
#include <chrono>
#include <vector>

#include "pdex/core/buffer.hpp"
#include "pdex/core/executor.hpp"
#ifdef PDEX_HAVE_CUDA
#include <cuda_runtime.h>

#include "device_timing.hpp"
#include "pdex/core/cuda/cuda_check.hpp"
#endif

namespace pdex::bench {

double host_triad_gbs() {
  const std::size_t n = std::size_t(1) << 25;  // 3 x 256 MiB: far beyond any cache
  Buffer<double> a(n, MemorySpace::host), b(n, MemorySpace::host), c(n, MemorySpace::host);
  double *pa = a.data(), *pb = b.data(), *pc = c.data();
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) pb[i] = 1.0, pc[i] = 2.0, pa[i] = 0.0;
  std::vector<double> times;
  for (int rep = 0; rep < 7; ++rep) {
    auto t0 = std::chrono::steady_clock::now();
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < n; ++i) pa[i] = pb[i] + 3.0 * pc[i];
    times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(times.begin(), times.end());
  return 3.0 * double(n) * sizeof(double) / times[times.size() / 2] / 1e9;
}

double device_copy_gbs(std::size_t bytes) {
#ifdef PDEX_HAVE_CUDA
  if (!backend_available(Backend::cuda)) return 0;
  const int copies = int(std::max<std::size_t>(1, (std::size_t(1) << 30) / bytes));  // a gigabyte per sample
  Buffer<char> a(bytes, MemorySpace::device), b(bytes, MemorySpace::device);
  const double ms = median_device_ms(11, [&] {
    for (int k = 0; k < copies; ++k)
      PDEX_CUDA_CHECK(cudaMemcpyAsync(b.data(), a.data(), bytes, cudaMemcpyDeviceToDevice));
  });
  return 2.0 * double(bytes) * copies / (ms * 1e-3) / 1e9;
#else
  (void)bytes;
  return 0;
#endif
}

}  // namespace pdex::bench
