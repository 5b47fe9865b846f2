#pragma once
// A stored matrix moved to one executor's memory at set-up, with y = A x and y = A^T x on stored vectors.
// The CPU executors run our kernels (matrix_kernels.hpp, OpenMP over rows); on the GPU, CSR and dense
// products go through cuSPARSE and cuBLAS, bands through our kernel (a structured format).
#include <algorithm>
#include <cstddef>
#include <memory>
#include <type_traits>
#include <vector>

#include "pdex/core/buffer.hpp"
#include "pdex/core/executor.hpp"
#include "pdex/linalg/cuda/vendor_blas.hpp"
#include "pdex/linalg/matrix.hpp"
#include "pdex/linalg/matrix_kernels.hpp"
#include "pdex/linalg/schedules.hpp"
#include "pdex/linalg/vector.hpp"

namespace pdex {

template <class U>
Buffer<U> upload(const std::vector<U>& v, MemorySpace space) {
  Buffer<U> host(v.size(), MemorySpace::host);
  std::copy(v.begin(), v.end(), host.data());
  if (space == MemorySpace::host) return host;
  Buffer<U> out(v.size(), space);
  copy(out, host);
  return out;
}

// True where the executor's products go through the vendor's libraries (LinalgSchedules).
template <class Exec>
constexpr bool uses_vendor_blas = LinalgSchedules<Exec>::vendor_blas;

// The vendor library's handle, held only where the executor uses it (host builds have no library to call).
template <class Exec, class Library>
using LibraryOn = std::conditional_t<uses_vendor_blas<Exec>, std::unique_ptr<Library>, std::nullptr_t>;

template <class T>
std::vector<T> diagonal(const CsrMatrix<T>& m) {
  std::vector<T> d(std::size_t(std::min(m.rows, m.cols)), T(0));
  for (const auto& e : triplets(m))
    if (e.row == e.col) d[std::size_t(e.row)] = e.value;
  return d;
}

template <class Exec, class T>
class DenseOn {
 public:
  DenseOn(const Exec& ex, const DenseMatrix<T>& m)
      : ex_(ex), rows_(m.rows), cols_(m.cols), a_(upload(m.values, Exec::space)) {
    if constexpr (uses_vendor_blas<Exec>) blas_ = std::make_unique<CublasDense<T>>(*ex.context, rows_, cols_, a_.data());
  }
  int rows() const { return rows_; }
  int cols() const { return cols_; }
  void apply(FieldView<const T> x, FieldView<T> y) { multiply(x, y, false); }
  void apply_transpose(FieldView<const T> x, FieldView<T> y) { multiply(x, y, true); }

 private:
  void multiply(FieldView<const T> x, FieldView<T> y, bool transpose) {
    if constexpr (uses_vendor_blas<Exec>) {
      blas_->multiply(x.data, y.data, transpose);
    } else {
      const DenseRows<T> a{rows_, cols_, a_.data()};
      if (transpose)
        multiply_rows(ex_, Transposed<DenseRows<T>>{a}, x, y, cols_);
      else
        multiply_rows(ex_, a, x, y, rows_);
    }
  }

  Exec ex_;
  int rows_, cols_;
  Buffer<T> a_;
  LibraryOn<Exec, CublasDense<T>> blas_{};
};

template <class Exec, class T>
class BandedOn {
 public:
  BandedOn(const Exec& ex, const BandedMatrix<T>& m)
      : ex_(ex), n_(m.n), ndiag_(int(m.offsets.size())), off_(upload(m.offsets, Exec::space)),
        v_(upload(m.values, Exec::space)) {}
  int rows() const { return n_; }
  int cols() const { return n_; }
  void apply(FieldView<const T> x, FieldView<T> y) { multiply_rows(ex_, rows_body(), x, y, n_); }
  void apply_transpose(FieldView<const T> x, FieldView<T> y) {
    multiply_rows(ex_, Transposed<BandedRows<T>>{rows_body()}, x, y, n_);
  }

 private:
  BandedRows<T> rows_body() const { return {n_, ndiag_, off_.data(), v_.data()}; }

  Exec ex_;
  int n_, ndiag_;
  Buffer<int> off_;
  Buffer<T> v_;
};

// A^T is stored too (built once on the host) when asked: a row-parallel product either way.
template <class Exec, class T>
class CsrOn {
 public:
  CsrOn(const Exec& ex, const CsrMatrix<T>& m, bool with_transpose = false)
      : ex_(ex), rows_(m.rows), cols_(m.cols), a_(ex, m) {
    if (with_transpose) at_ = std::make_unique<Part>(ex, transpose(m));
  }
  int rows() const { return rows_; }
  int cols() const { return cols_; }
  void apply(FieldView<const T> x, FieldView<T> y) { a_.multiply(ex_, x, y); }
  void apply_transpose(FieldView<const T> x, FieldView<T> y) {
    if (!at_) throw Error("CsrOn::apply_transpose: built without its transpose");
    at_->multiply(ex_, x, y);
  }

 private:
  struct Part {
    Part(const Exec& ex, const CsrMatrix<T>& m)
        : rows(m.rows), nnz(m.nnz()), row_ptr(upload(m.row_ptr, Exec::space)), col(upload(m.col, Exec::space)),
          val(upload(m.val, Exec::space)) {
      if constexpr (uses_vendor_blas<Exec>)
        sparse = std::make_unique<CusparseCsr<T>>(*ex.context, m.rows, m.cols, nnz, row_ptr.data(), col.data(),
                                                  val.data());
    }
    void multiply(const Exec& ex, FieldView<const T> x, FieldView<T> y) {
      if constexpr (uses_vendor_blas<Exec>)
        sparse->multiply(x.data, y.data);
      else
        multiply_rows(ex, CsrRows<T>{rows, row_ptr.data(), col.data(), val.data()}, x, y, rows);
    }
    int rows;
    int64_t nnz;
    Buffer<int> row_ptr, col;
    Buffer<T> val;
    LibraryOn<Exec, CusparseCsr<T>> sparse{};
  };

  Exec ex_;
  int rows_, cols_;
  Part a_;
  std::unique_ptr<Part> at_;
};

}  // namespace pdex
