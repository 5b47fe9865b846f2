#pragma once
// Host memory for the copies of fields that outputs and checkpoints take: page-locked where pdex has
// CUDA and a GPU (the GPU copies into it several times faster than into pageable memory), plain
// otherwise. Move-only; its bytes are not initialized.
#include <cstddef>
#include <utility>

namespace pdex {

class HostBlock {
 public:
  HostBlock() = default;
  // `bytes` bytes, page-locked when `pinned` and a GPU can pin them, else plain. Throws Error when the
  // host has not that much memory.
  HostBlock(std::size_t bytes, bool pinned);
  ~HostBlock();
  HostBlock(HostBlock&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)), pinned_(std::exchange(o.pinned_, false)) {}
  HostBlock& operator=(HostBlock&& o) noexcept {
    std::swap(data_, o.data_), std::swap(size_, o.size_), std::swap(pinned_, o.pinned_);
    return *this;
  }

  std::byte* data() const { return data_; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  bool pinned() const { return pinned_; }

 private:
  std::byte* data_ = nullptr;
  std::size_t size_ = 0;
  bool pinned_ = false;
};

}  // namespace pdex
