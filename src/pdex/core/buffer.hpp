#pragma once
// An owning, move-only array in one memory space. Allocation happens at set-up, never in a step loop.
#include <cstddef>
#include <span>
#include <utility>

#include "pdex/core/memory_space.hpp"

namespace pdex {

namespace detail {
void* allocate_bytes(std::size_t bytes, MemorySpace space);
void free_bytes(void* p, MemorySpace space) noexcept;
void copy_bytes(void* dst, MemorySpace dst_space, const void* src, MemorySpace src_space, std::size_t bytes);
void fill_zero_bytes(void* p, MemorySpace space, std::size_t bytes);
}  // namespace detail

template <class T>
class Buffer {
 public:
  Buffer() = default;
  Buffer(std::size_t n, MemorySpace space) : size_(n), space_(space) {
    data_ = static_cast<T*>(detail::allocate_bytes(n * sizeof(T), space));
    detail::fill_zero_bytes(data_, space, n * sizeof(T));
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  Buffer(Buffer&& o) noexcept { swap(o); }
  Buffer& operator=(Buffer&& o) noexcept {
    Buffer tmp(std::move(o));
    swap(tmp);
    return *this;
  }
  ~Buffer() { detail::free_bytes(data_, space_); }

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return size_; }
  std::size_t bytes() const { return size_ * sizeof(T); }
  MemorySpace space() const { return space_; }
  // Host access; only valid for host buffers.
  std::span<T> host_span() { return {data_, size_}; }
  std::span<const T> host_span() const { return {data_, size_}; }

  void swap(Buffer& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    std::swap(space_, o.space_);
  }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
  MemorySpace space_ = MemorySpace::host;
};

// Copies all of src into dst (same size), across spaces as needed. Synchronous.
template <class T>
void copy(Buffer<T>& dst, const Buffer<T>& src) {
  detail::copy_bytes(dst.data(), dst.space(), src.data(), src.space(), src.bytes());
}

}  // namespace pdex
