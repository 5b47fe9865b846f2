#pragma once
// An owning multi-component field with ghost layers on a Grid2, living in one memory space.
#include <cstdint>
#include <string>
#include <vector>

#include "pdex/core/buffer.hpp"
#include "pdex/grid/field_view.hpp"
#include "pdex/grid/grid.hpp"

namespace pdex {

template <class T>
class Field {
 public:
  Field() = default;
  Field(const Grid2& grid, int ncomp, int ghost, MemorySpace space)
      : grid_(grid), ncomp_(ncomp), ghost_(ghost), xoff_(int(round_up(ghost))),
        pitch_(round_up(int64_t(xoff_) + grid.nx + ghost)), comp_stride_(pitch_ * (int64_t(grid.ny) + 2 * ghost)),
        buffer_(std::size_t(comp_stride_ * ncomp), space) {}

  const Grid2& grid() const { return grid_; }
  int components() const { return ncomp_; }
  int ghost() const { return ghost_; }
  MemorySpace space() const { return buffer_.space(); }
  std::size_t bytes() const { return buffer_.bytes(); }

  FieldView<T> view() { return {buffer_.data(), grid_.nx, grid_.ny, ghost_, ncomp_, pitch_, comp_stride_, xoff_}; }
  FieldView<const T> view() const {
    return {buffer_.data(), grid_.nx, grid_.ny, ghost_, ncomp_, pitch_, comp_stride_, xoff_};
  }
  FieldView<const T> cview() const { return view(); }

  // A zero-filled field of the same shape in another space (for explicit transfers).
  Field like(MemorySpace space) const { return Field(grid_, ncomp_, ghost_, space); }
  Buffer<T>& buffer() { return buffer_; }
  const Buffer<T>& buffer() const { return buffer_; }

  // Interior values of component c as a dense row-major [y][x] array. Host fields only.
  std::vector<T> interior(int c) const {
    std::vector<T> out(std::size_t(grid_.cells()));
    auto v = view();
    for (int j = 0; j < grid_.ny; ++j)
      for (int i = 0; i < grid_.nx; ++i) out[std::size_t(j) * grid_.nx + i] = v(c, i, j);
    return out;
  }
  // Sets the interior of component c from a dense row-major [y][x] array. Host fields only.
  void set_interior(int c, const std::vector<T>& values) {
    auto v = view();
    for (int j = 0; j < grid_.ny; ++j)
      for (int i = 0; i < grid_.nx; ++i) v(c, i, j) = values[std::size_t(j) * grid_.nx + i];
  }

 private:
  static constexpr int64_t align = 128 / sizeof(T);  // values per 128-byte line
  static constexpr int64_t round_up(int64_t n) { return (n + align - 1) / align * align; }

  Grid2 grid_{};
  int ncomp_ = 0, ghost_ = 0, xoff_ = 0;
  int64_t pitch_ = 0, comp_stride_ = 0;
  Buffer<T> buffer_;
};

// Copies src into dst (same shape), across memory spaces as needed. Ghost cells included.
template <class T>
void copy(Field<T>& dst, const Field<T>& src) {
  copy(dst.buffer(), src.buffer());
}

template <class T>
Field<T> to_space(const Field<T>& src, MemorySpace space) {
  Field<T> out = src.like(space);
  copy(out, src);
  return out;
}

}  // namespace pdex
