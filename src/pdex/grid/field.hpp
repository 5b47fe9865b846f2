#pragma once
// An owning multi-component field with ghost layers on a Grid2 (2D or 3D), living in one memory space.
#include <cstdint>
#include <string>
#include <utility>
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
        pitch_(round_up(int64_t(xoff_) + grid.nx + ghost)), plane_(pitch_ * (int64_t(grid.ny) + 2 * ghost)),
        zghost_(grid.is_3d() ? ghost : 0), comp_stride_(plane_ * (int64_t(grid.nz) + 2 * zghost_)),
        buffer_(std::size_t(comp_stride_ * ncomp), space) {}

  const Grid2& grid() const { return grid_; }
  int components() const { return ncomp_; }
  int ghost() const { return ghost_; }
  MemorySpace space() const { return buffer_.space(); }
  std::size_t bytes() const { return buffer_.bytes(); }

  FieldView<T> view() { return as_writable(cview()); }
  FieldView<const T> view() const {
    return {buffer_.data() + zghost_ * plane_, grid_.nx, grid_.ny, ghost_, ncomp_, pitch_, comp_stride_, xoff_, grid_.nz, plane_};
  }
  FieldView<const T> cview() const { return view(); }

  // A zero-filled field of the same shape in another space (for explicit transfers).
  Field like(MemorySpace space) const { return Field(grid_, ncomp_, ghost_, space); }
  Buffer<T>& buffer() { return buffer_; }
  const Buffer<T>& buffer() const { return buffer_; }

  // Interior values of component c as a dense row-major [y][x] ([z][y][x]) array. Host fields only.
  std::vector<T> interior(int c) const {
    std::vector<T> out(std::size_t(grid_.cells()));
    const FieldView<const T> v = view();
    for_each_cell(grid_.extents(), [&](int i, int j, int k) { out[std::size_t(grid_.extents().index(i, j, k))] = v(c, i, j, k); });
    return out;
  }
  // Sets the interior of component c from a dense row-major [y][x] ([z][y][x]) array, its values converted
  // to T (no copy of the array in T is needed). Host fields only.
  template <class U>
  void set_interior(int c, const std::vector<U>& values) {
    const FieldView<T> v = view();
    for_each_cell(grid_.extents(), [&](int i, int j, int k) { v(c, i, j, k) = T(values[std::size_t(grid_.extents().index(i, j, k))]); });
  }

 private:
  static constexpr int64_t align = 128 / sizeof(T);  // values per 128-byte line
  static constexpr int64_t round_up(int64_t n) { return (n + align - 1) / align * align; }

  Grid2 grid_{};
  int ncomp_ = 0, ghost_ = 0, xoff_ = 0;
  int64_t pitch_ = 0, plane_ = 0, zghost_ = 0, comp_stride_ = 0;
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

// src in `space`: the field itself where it lies there already (a host run keeps the field it built, so
// that the largest grids are limited by the state alone), else a copy, src then freed.
template <class T>
Field<T> into_space(Field<T>&& src, MemorySpace space) {
  if (src.space() == space) return std::move(src);
  const Field<T> host = std::move(src);
  return to_space(host, space);
}

}  // namespace pdex
