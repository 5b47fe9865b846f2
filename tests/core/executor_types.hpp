#pragma once
// Typed tests over the executors, for tests that call the templates (reduce, for_each_cell,
// fill_ghosts, stencils) directly with PDEX_HD lambdas: each test is written once and instantiated for
// Serial, OpenMP and, in translation units compiled by nvcc, Cuda. Cuda cases skip with a message when
// no device is present.
//
// nvcc does not accept extended (__host__ __device__) lambdas inside a private member function, and
// GoogleTest's TestBody() is one: kernels therefore live in free function templates that the test
// bodies call.
#include <gtest/gtest.h>

#include <string>
#include <type_traits>

#include "pdex/core/executor.hpp"
#include "pdex/core/parallel.hpp"
#if defined(PDEX_HAVE_CUDA) && defined(__CUDACC__)
#include <cuda_runtime.h>

#include "pdex/core/cuda/cuda_check.hpp"
#include "pdex/core/cuda/cuda_context.hpp"
#define PDEX_TEST_WITH_CUDA 1
#endif

namespace pdex::test {

#ifdef PDEX_TEST_WITH_CUDA
using Executors = ::testing::Types<Serial, OpenMP, Cuda>;
#else
using Executors = ::testing::Types<Serial, OpenMP>;
#endif

struct ExecutorNames {
  template <class E>
  static std::string GetName(int) {
    return std::string(backend_name(E::backend));
  }
};

// Call only after the fixture's SetUp (the Cuda context needs a device).
template <class E>
E make_executor() {
#ifdef PDEX_TEST_WITH_CUDA
  if constexpr (std::is_same_v<E, Cuda>) return Cuda{&default_cuda_context()};
#endif
  return E{};
}

// Waits until the kernels an executor queued have finished. For Cuda the whole device is synchronized:
// kernels run in the context's non-blocking stream while Buffer copies and zero-fills use the legacy
// default stream, which a non-blocking stream does not order against (see the report of this suite).
template <class E>
void finish(const E&) {
#ifdef PDEX_TEST_WITH_CUDA
  if constexpr (std::is_same_v<E, Cuda>) PDEX_CUDA_CHECK(cudaDeviceSynchronize());
#endif
}

template <class E>
class ExecutorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!backend_available(E::backend))
      GTEST_SKIP() << "no CUDA device: " << backend_unavailable_reason(E::backend);
  }
};

}  // namespace pdex::test
