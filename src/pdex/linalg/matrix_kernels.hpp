#pragma once
// The row bodies of the matrix-vector products (seed 001 sec. 44.2.4), one per stored format, written
// once for every executor. x and y are the raw values of stored vectors (vector.hpp): row r of y lives
// at flat index r.
#include <cstdint>

#include "pdex/core/macros.hpp"
#include "pdex/core/parallel.hpp"
#include "pdex/grid/field_view.hpp"

namespace pdex {

template <class T>
struct DenseRows {
  int rows = 0, cols = 0;
  const T* a = nullptr;  // row-major
  PDEX_HD T row(int r, const T* x) const {
    const T* ar = a + int64_t(r) * cols;
    T s = T(0);
    for (int c = 0; c < cols; ++c) s += ar[c] * x[c];
    return s;
  }
  // Row c of the transpose: column c of A.
  PDEX_HD T column(int c, const T* x) const {
    T s = T(0);
    for (int r = 0; r < rows; ++r) s += a[int64_t(r) * cols + c] * x[r];
    return s;
  }
};

// Diagonal d holds A(i, i + offset[d]) at index i (seed 001 sec. 44.2.1: banded matrices by diagonals).
template <class T>
struct BandedRows {
  int n = 0, ndiag = 0;
  const int* offset = nullptr;
  const T* v = nullptr;  // ndiag x n
  PDEX_HD T row(int r, const T* x) const {
    T s = T(0);
    for (int d = 0; d < ndiag; ++d) {
      const int c = r + offset[d];
      if (c >= 0 && c < n) s += v[int64_t(d) * n + r] * x[c];
    }
    return s;
  }
  // (A^T x)_r = sum_d A(r - o_d, r) x(r - o_d)
  PDEX_HD T column(int r, const T* x) const {
    T s = T(0);
    for (int d = 0; d < ndiag; ++d) {
      const int i = r - offset[d];
      if (i >= 0 && i < n) s += v[int64_t(d) * n + i] * x[i];
    }
    return s;
  }
};

template <class T>
struct CsrRows {
  int rows = 0;
  const int* row_ptr = nullptr;
  const int* col = nullptr;
  const T* val = nullptr;
  PDEX_HD T row(int r, const T* x) const {
    T s = T(0);
    for (int k = row_ptr[r]; k < row_ptr[r + 1]; ++k) s += val[k] * x[col[k]];
    return s;
  }
};

// The rows of A^T for formats that read their columns in place (dense, banded).
template <class Rows>
struct Transposed {
  Rows a;
  template <class T>
  PDEX_HD T row(int r, const T* x) const {
    return a.column(r, x);
  }
};

// y = A x over the rows of y's layout; padding rows are left at zero.
template <class Exec, class T, class Rows>
void multiply_rows(const Exec& ex, const Rows& a, FieldView<const T> x, FieldView<T> y, int64_t rows) {
  const T* xv = x.data;
  T* yv = y.data;
  const int64_t w = y.pitch;
  for_each_cell(ex, y.interior(), [=] PDEX_HD(int i, int j) {
    const int64_t r = int64_t(j) * w + i;
    if (r < rows) yv[r] = a.row(int(r), xv);
  });
}

}  // namespace pdex
