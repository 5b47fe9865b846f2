#pragma once
// Stored matrices on the host, in the three formats of seed 001 sec. 44.2.1: dense (row-major), banded
// (stored by diagonals: diagonal d holds A(i, i + offset[d]) at index i) and general sparse (CSR). They
// are built and converted here, once, at set-up; matrix_ops.hpp moves them to an executor.
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "pdex/core/error.hpp"

namespace pdex {

template <class T>
struct DenseMatrix {
  int rows = 0, cols = 0;
  std::vector<T> values;  // rows x cols, row-major
  T at(int i, int j) const { return values[std::size_t(i) * cols + j]; }
};

template <class T>
struct BandedMatrix {
  int n = 0;                // square: bands are diagonals of a square matrix
  std::vector<int> offsets;  // column - row of each stored diagonal
  std::vector<T> values;     // offsets.size() x n; entries outside the matrix are 0
};

template <class T>
struct CsrMatrix {
  int rows = 0, cols = 0;
  std::vector<int> row_ptr{0};  // rows + 1
  std::vector<int> col;         // sorted within a row, no duplicates
  std::vector<T> val;
  int64_t nnz() const { return int64_t(val.size()); }
};

// One entry (row, col, value) of a matrix being assembled.
template <class T>
struct Triplet {
  int row, col;
  T value;
};

// CSR from triplets in any order; duplicates are summed (as Matrix Market and FEM assembly expect).
template <class T>
CsrMatrix<T> csr_from_triplets(int rows, int cols, std::vector<Triplet<T>> t) {
  std::sort(t.begin(), t.end(), [](const Triplet<T>& a, const Triplet<T>& b) {
    return a.row != b.row ? a.row < b.row : a.col < b.col;
  });
  CsrMatrix<T> m;
  m.rows = rows;
  m.cols = cols;
  m.row_ptr.assign(std::size_t(rows) + 1, 0);
  for (std::size_t k = 0; k < t.size(); ++k) {
    if (k > 0 && t[k].row == t[k - 1].row && t[k].col == t[k - 1].col) {
      m.val.back() += t[k].value;
      continue;
    }
    m.col.push_back(t[k].col);
    m.val.push_back(t[k].value);
    ++m.row_ptr[std::size_t(t[k].row) + 1];
  }
  for (int i = 0; i < rows; ++i) m.row_ptr[std::size_t(i) + 1] += m.row_ptr[std::size_t(i)];
  return m;
}

template <class T>
std::vector<Triplet<T>> triplets(const CsrMatrix<T>& m) {
  std::vector<Triplet<T>> t;
  t.reserve(m.val.size());
  for (int i = 0; i < m.rows; ++i)
    for (int k = m.row_ptr[std::size_t(i)]; k < m.row_ptr[std::size_t(i) + 1]; ++k)
      t.push_back({i, m.col[std::size_t(k)], m.val[std::size_t(k)]});
  return t;
}

template <class T>
CsrMatrix<T> transpose(const CsrMatrix<T>& m) {
  std::vector<Triplet<T>> t = triplets(m);
  for (auto& e : t) std::swap(e.row, e.col);
  return csr_from_triplets(m.cols, m.rows, std::move(t));
}

template <class T>
DenseMatrix<T> to_dense(const CsrMatrix<T>& m) {
  DenseMatrix<T> d{m.rows, m.cols, std::vector<T>(std::size_t(m.rows) * m.cols, T(0))};
  for (const auto& e : triplets(m)) d.values[std::size_t(e.row) * m.cols + e.col] = e.value;
  return d;
}

template <class T>
CsrMatrix<T> to_csr(const DenseMatrix<T>& d) {
  std::vector<Triplet<T>> t;
  for (int i = 0; i < d.rows; ++i)
    for (int j = 0; j < d.cols; ++j)
      if (d.at(i, j) != T(0)) t.push_back({i, j, d.at(i, j)});
  return csr_from_triplets(d.rows, d.cols, std::move(t));
}

// The diagonals that hold a nonzero entry, each stored whole.
template <class T>
BandedMatrix<T> to_banded(const CsrMatrix<T>& m) {
  if (m.rows != m.cols)
    throw InputError("a banded matrix must be square; this one is " + std::to_string(m.rows) + " x " +
                     std::to_string(m.cols));
  BandedMatrix<T> b;
  b.n = m.rows;
  const auto t = triplets(m);
  for (const auto& e : t) b.offsets.push_back(e.col - e.row);
  std::sort(b.offsets.begin(), b.offsets.end());
  b.offsets.erase(std::unique(b.offsets.begin(), b.offsets.end()), b.offsets.end());
  b.values.assign(b.offsets.size() * std::size_t(b.n), T(0));
  for (const auto& e : t) {
    const auto d = std::lower_bound(b.offsets.begin(), b.offsets.end(), e.col - e.row) - b.offsets.begin();
    b.values[std::size_t(d) * b.n + e.row] = e.value;
  }
  return b;
}

template <class T>
CsrMatrix<T> to_csr(const BandedMatrix<T>& b) {
  std::vector<Triplet<T>> t;
  for (std::size_t d = 0; d < b.offsets.size(); ++d)
    for (int i = 0; i < b.n; ++i) {
      const T v = b.values[d * b.n + i];
      if (v != T(0)) t.push_back({i, i + b.offsets[d], v});
    }
  return csr_from_triplets(b.n, b.n, std::move(t));
}

template <class U, class T>
CsrMatrix<U> convert(const CsrMatrix<T>& m) {
  return {m.rows, m.cols, m.row_ptr, m.col, std::vector<U>(m.val.begin(), m.val.end())};
}

}  // namespace pdex
