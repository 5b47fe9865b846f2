#pragma once
// CUDA errors become pdex::Error with the call, the file and line, and the runtime's message.
#include <cuda_runtime.h>

#include <string>

#include "pdex/core/error.hpp"

namespace pdex {

[[noreturn]] inline void throw_cuda_error(cudaError_t err, const char* call, const char* file, int line) {
  throw Error(std::string("CUDA error in ") + call + " at " + file + ":" + std::to_string(line) + ": " +
              cudaGetErrorName(err) + " (" + cudaGetErrorString(err) + ")");
}

}  // namespace pdex

#define PDEX_CUDA_CHECK(call)                                                  \
  do {                                                                         \
    cudaError_t pdex_err_ = (call);                                            \
    if (pdex_err_ != cudaSuccess) {                                            \
      (void)cudaGetLastError();                                                \
      ::pdex::throw_cuda_error(pdex_err_, #call, __FILE__, __LINE__);          \
    }                                                                          \
  } while (0)
