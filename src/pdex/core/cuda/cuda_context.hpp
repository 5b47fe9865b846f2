#pragma once
// The state a CUDA executor needs: a stream, scratch for reductions and a pinned word for results.
// Created once at set-up; kernels and reductions reuse it, so nothing is allocated inside a step loop.
#include <cuda_runtime.h>

#include <cstddef>
#include <map>
#include <string>
#include <utility>

namespace pdex {

class CudaContext {
 public:
  // About one wave of 256-thread blocks on a large GPU (eight blocks on each of about 130 multiprocessors):
  // blocks beyond one wave would only wait for free multiprocessors.
  static constexpr int max_reduce_blocks = 1024;
  static constexpr std::size_t max_reduce_value_bytes = 16;

  explicit CudaContext(int device = 0);
  ~CudaContext();
  CudaContext(const CudaContext&) = delete;
  CudaContext& operator=(const CudaContext&) = delete;

  cudaStream_t stream() const { return stream_; }
  void* reduce_scratch() const { return scratch_; }  // max_reduce_blocks values
  unsigned* reduce_count() const { return count_; }  // blocks finished in the running reduction (0 between)
  unsigned long long* max_word() const { return max_word_; }  // max_of_cells' running maximum (0 between)
  void* pinned_result() const { return pinned_; }    // host memory the device writes to directly
  // A reduction's completion: the device writes its ticket to the pinned flag; the host polls it.
  volatile unsigned* pinned_flag() const {
    return reinterpret_cast<volatile unsigned*>(static_cast<char*>(pinned_) + max_reduce_value_bytes);
  }
  unsigned next_ticket() const { return ++ticket_; }
  void wait_for(unsigned ticket) const;
  int multiprocessors() const { return sm_count_; }
  // Whether kernels may meet at grid barriers (cooperative launches).
  bool cooperative_launch() const { return cooperative_; }
  // The blocks of `threads` threads and `shared` bytes of dynamic shared memory that a multiprocessor
  // holds at once of `kernel` (a __global__ function), raising its allowance of dynamic shared memory to
  // `shared` where it is less; 0 where a block cannot have that much. Asked of the device once for each
  // kernel and size.
  int resident_blocks(const void* kernel, int threads, std::size_t shared) const;
  // Whether kernels may be placed while the one before drains (core/cuda/launch.cuh): on compute
  // capability 9.0 and later, unless PDEX_CUDA_PDL=0.
  bool programmatic_launch() const { return programmatic_; }
  const std::string& name() const { return name_; }
  void synchronize() const;

 private:
  cudaStream_t stream_ = nullptr;
  void* scratch_ = nullptr;
  unsigned* count_ = nullptr;
  unsigned long long* max_word_ = nullptr;
  mutable unsigned ticket_ = 0;
  void* pinned_ = nullptr;
  int sm_count_ = 0;
  std::size_t max_shared_ = 0;  // the most shared memory a block may ask for (beyond the default 48 KB)
  bool cooperative_ = false;
  bool programmatic_ = false;
  std::string name_;
  mutable std::map<std::pair<const void*, std::size_t>, int> resident_blocks_;
  // The allowance is the kernel's, not a launch's: set lower for a smaller size, it would fail the
  // launches of a larger size asked for before.
  mutable std::map<const void*, std::size_t> shared_allowance_;
  bool allow_shared(const void* kernel, std::size_t shared) const;
};

}  // namespace pdex

namespace pdex {
// The process-wide context for device 0, created on first use, with the engine's kernels loaded
// (load_engine_kernels).
CudaContext& default_cuda_context();
// Loads the modules of the engine's kernels (engine_cuda.cu, models/ard/cuda/ard_engine.cu) up front. CUDA loads a module at the first use
// of one of its kernels (lazy loading, the default since CUDA 12.2), which would put the load inside
// whatever is timed first, such as a steady solve's seconds in summary.json.
void load_engine_kernels();
}  // namespace pdex
