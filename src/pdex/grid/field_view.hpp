#pragma once
// A non-owning, trivially copyable window on a Field's memory, captured by value into kernels.
// Layout: component-major; within a component, rows of `pitch` values, the first interior cell of
// each row at column `xoff` >= ghost. pitch and xoff are multiples of 128 bytes, so that every row's
// interior starts on a cache line and a warp's loads are aligned. A 3D field stacks nz planes of rows
// `plane` values apart, with `ghost` ghost planes below the first and above the last; `data` points at
// plane 0, so that offset(i, j) is a cell of a 2D field or of plane 0. Every field of one grid and ghost
// width shares offsets, so a kernel computes offset(i, j) once for all of them.
#include <cstdint>

#include "pdex/core/macros.hpp"
#include "pdex/core/range.hpp"
#include "pdex/grid/extents.hpp"

namespace pdex {

template <class T>
struct FieldView {
  T* data = nullptr;
  int nx = 0, ny = 0, ghost = 0, ncomp = 0;
  int64_t pitch = 0, comp_stride = 0;
  int xoff = 0;
  int nz = 1;
  int64_t plane = 0;  // offset between planes: pitch * (ny + 2 ghost)

  PDEX_HD int64_t offset(int i, int j) const { return (int64_t(j) + ghost) * pitch + (i + xoff); }
  PDEX_HD int64_t offset(int i, int j, int k) const { return offset(i, j) + k * plane; }
  PDEX_HD T* comp(int c) const { return data + c * comp_stride; }
  PDEX_HD T& operator()(int c, int i, int j) const { return data[c * comp_stride + offset(i, j)]; }
  PDEX_HD T& operator()(int c, int i, int j, int k) const { return data[c * comp_stride + offset(i, j, k)]; }
  PDEX_HD Extents2 extents() const { return {nx, ny, nz}; }
  // The cells of a 2D field (of plane 0 of a 3D one: interior_rows() walks every plane).
  PDEX_HD Range2 interior() const { return Range2{0, nx, 0, ny}; }
  // Every plane's interior rows one after another: row r is row r % ny of plane r / ny.
  PDEX_HD Range2 interior_rows() const { return Range2{0, nx, 0, ny * nz}; }
  PDEX_HD int64_t row_offset(int i, int r) const { return nz == 1 ? offset(i, r) : offset(i, r % ny, r / ny); }
  // Plane k as a 2D field: its rows and their x and y ghosts (its z neighbours `plane` away).
  PDEX_HD FieldView in_plane(int k) const {
    FieldView v = *this;
    v.data += k * plane;
    v.nz = 1;
    return v;
  }
  // Components first .. first + count - 1, as a field of their own.
  FieldView components(int first, int count) const {
    FieldView v = *this;
    v.data = comp(first);
    v.ncomp = count;
    return v;
  }
};

template <class T>
PDEX_HD FieldView<const T> as_const(const FieldView<T>& v) {
  return {v.data, v.nx, v.ny, v.ghost, v.ncomp, v.pitch, v.comp_stride, v.xoff, v.nz, v.plane};
}
// A view that writes the field `v` reads: for kernels that write, in some launches or rounds, the field
// they are given to read.
template <class T>
PDEX_HD FieldView<T> as_writable(const FieldView<const T>& v) {
  return {const_cast<T*>(v.data), v.nx, v.ny, v.ghost, v.ncomp, v.pitch, v.comp_stride, v.xoff, v.nz, v.plane};
}

}  // namespace pdex
