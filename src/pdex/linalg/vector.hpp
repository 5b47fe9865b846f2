#pragma once
// A stored vector of n values on one executor's memory (seed 001 sec. 44.2: vectors as 2D textures).
// The values are laid out in rows of `width` (the last row padded with zeros) and seen as a one-component
// FieldView without ghosts, so the grid kernels (for_each_cell, reduce, the fused Krylov kernels of
// krylov_kernels.hpp) run on it unchanged: rows split among OpenMP threads, warps run along a row, and
// sums keep their fixed order. Every operation keeps the padding zero.
#include <cstdint>
#include <vector>

#include "pdex/core/buffer.hpp"
#include "pdex/grid/field_view.hpp"

namespace pdex {

// Rows of 1024 values: wide enough for coalesced warps, short enough for many rows per thread.
constexpr int vector_row = 1024;

template <class T>
class Vector {
 public:
  Vector() = default;
  Vector(int64_t n, MemorySpace space)
      : n_(n), width_(n < vector_row ? int(n > 0 ? n : 1) : vector_row), rows_(int((n + width_ - 1) / width_)),
        buffer_(std::size_t(int64_t(width_) * rows_), space) {}

  int64_t size() const { return n_; }
  MemorySpace space() const { return buffer_.space(); }
  FieldView<T> view() { return {buffer_.data(), width_, rows_, 0, 1, width_, int64_t(width_) * rows_, 0}; }
  FieldView<const T> cview() const {
    return {buffer_.data(), width_, rows_, 0, 1, width_, int64_t(width_) * rows_, 0};
  }
  Vector like(MemorySpace space) const { return Vector(n_, space); }
  Buffer<T>& buffer() { return buffer_; }
  const Buffer<T>& buffer() const { return buffer_; }

  // The n values in order. Host vectors only.
  std::vector<T> values() const {
    const T* p = buffer_.data();
    return std::vector<T>(p, p + n_);
  }
  void set_values(const std::vector<T>& v) {
    T* p = buffer_.data();
    for (int64_t k = 0; k < n_; ++k) p[k] = v[std::size_t(k)];
  }

 private:
  int64_t n_ = 0;
  int width_ = 1, rows_ = 0;
  Buffer<T> buffer_;
};

// The explicit transfers between host and device (DESIGN principle 2).
template <class T>
Vector<T> to_space(const Vector<T>& v, MemorySpace space) {
  Vector<T> out = v.like(space);
  copy(out.buffer(), v.buffer());
  return out;
}

template <class T>
Vector<T> make_vector(const std::vector<T>& values, MemorySpace space) {
  Vector<T> host(int64_t(values.size()), MemorySpace::host);
  host.set_values(values);
  return space == MemorySpace::host ? std::move(host) : to_space(host, space);
}

template <class T>
std::vector<T> host_values(const Vector<T>& v) {
  return v.space() == MemorySpace::host ? v.values() : to_space(v, MemorySpace::host).values();
}

}  // namespace pdex
