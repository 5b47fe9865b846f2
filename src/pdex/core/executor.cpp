#include "pdex/core/executor.hpp"

#include <omp.h>

#include <fstream>

#include "pdex/core/error.hpp"
#ifdef PDEX_HAVE_CUDA
#include <cuda_runtime.h>

#include "pdex/core/cuda/cuda_context.hpp"
#endif

namespace pdex {

std::string_view backend_name(Backend b) {
  switch (b) {
    case Backend::serial: return "serial";
    case Backend::openmp: return "openmp";
    case Backend::cuda: return "cuda";
  }
  return "?";
}

Backend parse_backend(std::string_view name) {
  if (name == "serial") return Backend::serial;
  if (name == "openmp") return Backend::openmp;
  if (name == "cuda") return Backend::cuda;
  if (name == "auto") return best_backend();
  throw InputError("unknown backend '" + std::string(name) + "': expected serial, openmp, cuda or auto");
}

std::string backend_unavailable_reason(Backend b) {
  if (b != Backend::cuda) return {};
#ifdef PDEX_HAVE_CUDA
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    return std::string("no usable CUDA device (") + cudaGetErrorString(err) + ")";
  }
  if (count == 0) return "no CUDA device found";
  return {};
#else
  return "this pdex was built without CUDA (nvcc was not found when it was configured)";
#endif
}

bool backend_available(Backend b) { return backend_unavailable_reason(b).empty(); }

Backend best_backend() { return backend_available(Backend::cuda) ? Backend::cuda : Backend::openmp; }

namespace {
std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) {
      auto pos = line.find(':');
      if (pos != std::string::npos) return line.substr(pos + 2);
    }
  return "unknown CPU";
}
}  // namespace

std::string device_name(Backend b) {
  switch (b) {
    case Backend::serial: return cpu_model() + " (1 thread)";
    case Backend::openmp: return cpu_model() + " (" + std::to_string(openmp_threads()) + " threads)";
    case Backend::cuda:
#ifdef PDEX_HAVE_CUDA
      if (backend_available(b)) {
        cudaDeviceProp prop{};
        if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess) return prop.name;
      }
#endif
      return "no CUDA device";
  }
  return "?";
}

int openmp_threads() { return omp_get_max_threads(); }

}  // namespace pdex
