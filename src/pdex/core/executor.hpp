#pragma once
// Executors: where and how kernels run. A type inside the library, a string outside (DESIGN principle 1).
#include <string>
#include <string_view>
#include <vector>

#include "pdex/core/memory_space.hpp"

namespace pdex {

enum class Backend { serial, openmp, cuda };

// Runs every kernel on the calling thread, in index order.
struct Serial {
  static constexpr Backend backend = Backend::serial;
  static constexpr MemorySpace space = MemorySpace::host;
};

// Runs kernels on the host's cores; rows are split statically among threads.
struct OpenMP {
  static constexpr Backend backend = Backend::openmp;
  static constexpr MemorySpace space = MemorySpace::host;
};

class CudaContext;  // stream and reduction scratch; core/cuda/cuda_context.hpp

// Runs kernels on the current CUDA device, in the context's stream.
struct Cuda {
  static constexpr Backend backend = Backend::cuda;
  static constexpr MemorySpace space = MemorySpace::device;
  CudaContext* context = nullptr;
};

// Waits until everything the executor has queued is done: host executors run each call to its end, a
// device's calls return once queued (core/cuda/cuda_context.cpp).
inline void finish(const Serial&) {}
inline void finish(const OpenMP&) {}
void finish(const Cuda& ex);

std::string_view backend_name(Backend b);
// Parses "serial" | "openmp" | "cuda"; "auto" is resolved by best_backend(). Throws InputError otherwise.
Backend parse_backend(std::string_view name);
// True when this build has the backend and (for CUDA) a device is present.
bool backend_available(Backend b);
// Why a backend is unavailable, for messages ("no CUDA device found: ..."). Empty when available.
std::string backend_unavailable_reason(Backend b);
// CUDA when available, else OpenMP.
Backend best_backend();
// Human-readable name of the device that runs this backend (CPU model, GPU name).
std::string device_name(Backend b);
int openmp_threads();

}  // namespace pdex
