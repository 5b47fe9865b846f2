#pragma once
// The GPU's general sparse and dense products go through the libraries a user would pick (cuSPARSE
// SpMV, cuBLAS gemv); pdex writes its own GPU kernels only for structured grids and bands. Handles,
// descriptors and work buffers are made once at set-up. Declared without CUDA headers (the pimpl is in
// vendor_blas.cu), so host translation units can hold these objects; defined only in CUDA builds.
#include <cstdint>
#include <memory>

namespace pdex {

class CudaContext;

template <class T>
class CusparseCsr {
 public:
  CusparseCsr(CudaContext& ctx, int rows, int cols, int64_t nnz, const int* row_ptr, const int* col, const T* val);
  ~CusparseCsr();
  CusparseCsr(const CusparseCsr&) = delete;
  CusparseCsr& operator=(const CusparseCsr&) = delete;
  void multiply(const T* x, T* y);  // y = A x, in the context's stream

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

template <class T>
class CublasDense {
 public:
  CublasDense(CudaContext& ctx, int rows, int cols, const T* a);  // a: row-major, device memory
  ~CublasDense();
  CublasDense(const CublasDense&) = delete;
  CublasDense& operator=(const CublasDense&) = delete;
  void multiply(const T* x, T* y, bool transpose);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace pdex
