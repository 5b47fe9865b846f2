#include "pdex/core/host_block.hpp"

#include "pdex/core/buffer.hpp"
#ifdef PDEX_HAVE_CUDA
#include <cuda_runtime.h>
#endif

namespace pdex {

HostBlock::HostBlock(std::size_t bytes, bool pinned) : size_(bytes) {
#ifdef PDEX_HAVE_CUDA
  // Without a GPU (or with too little memory to lock), plain memory does: only the speed differs.
  if (pinned && bytes > 0 && cudaHostAlloc(reinterpret_cast<void**>(&data_), bytes, cudaHostAllocDefault) == cudaSuccess) {
    pinned_ = true;
    return;
  }
  (void)cudaGetLastError();
#else
  (void)pinned;
#endif
  data_ = static_cast<std::byte*>(detail::allocate_bytes(bytes, MemorySpace::host));
}

HostBlock::~HostBlock() {
#ifdef PDEX_HAVE_CUDA
  if (pinned_) {
    (void)cudaFreeHost(data_);
    return;
  }
#endif
  detail::free_bytes(data_, MemorySpace::host);
}

}  // namespace pdex
