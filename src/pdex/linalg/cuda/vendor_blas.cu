// cuSPARSE and cuBLAS behind vendor_blas.hpp. Every call is checked; errors carry the library's name.
#include <cublas_v2.h>
#include <cusparse.h>

#include <string>

#include "pdex/core/buffer.hpp"
#include "pdex/core/cuda/cuda_context.hpp"
#include "pdex/core/error.hpp"
#include "pdex/linalg/cuda/vendor_blas.hpp"

namespace pdex {
namespace {

void check(cusparseStatus_t s, const char* what) {
  if (s != CUSPARSE_STATUS_SUCCESS)
    throw Error(std::string("cuSPARSE: ") + what + " failed: " + cusparseGetErrorString(s));
}

void check(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS) throw Error(std::string("cuBLAS: ") + what + " failed (status " + std::to_string(int(s)) + ")");
}

template <class T>
constexpr cudaDataType data_type() {
  return sizeof(T) == 4 ? CUDA_R_32F : CUDA_R_64F;
}

}  // namespace

template <class T>
struct CusparseCsr<T>::Impl {
  cusparseHandle_t handle = nullptr;
  cusparseSpMatDescr_t mat = nullptr;
  cusparseDnVecDescr_t x = nullptr, y = nullptr;
  Buffer<unsigned char> work;
};

template <class T>
CusparseCsr<T>::CusparseCsr(CudaContext& ctx, int rows, int cols, int64_t nnz, const int* row_ptr, const int* col,
                            const T* val)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  check(cusparseCreate(&m.handle), "cusparseCreate");
  check(cusparseSetStream(m.handle, ctx.stream()), "cusparseSetStream");
  check(cusparseCreateCsr(&m.mat, rows, cols, nnz, const_cast<int*>(row_ptr), const_cast<int*>(col),
                          const_cast<T*>(val), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                          data_type<T>()),
        "cusparseCreateCsr");
  // Placeholder pointers: the vectors are bound at each product (cusparseDnVecSetValues).
  check(cusparseCreateDnVec(&m.x, cols, const_cast<T*>(val), data_type<T>()), "cusparseCreateDnVec");
  check(cusparseCreateDnVec(&m.y, rows, const_cast<T*>(val), data_type<T>()), "cusparseCreateDnVec");
  const T one = T(1), zero = T(0);
  std::size_t bytes = 0;
  check(cusparseSpMV_bufferSize(m.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, m.mat, m.x, &zero, m.y,
                                data_type<T>(), CUSPARSE_SPMV_ALG_DEFAULT, &bytes),
        "cusparseSpMV_bufferSize");
  m.work = Buffer<unsigned char>(bytes > 0 ? bytes : 1, MemorySpace::device);
}

template <class T>
CusparseCsr<T>::~CusparseCsr() {
  cusparseDestroyDnVec(impl_->x);
  cusparseDestroyDnVec(impl_->y);
  cusparseDestroySpMat(impl_->mat);
  cusparseDestroy(impl_->handle);
}

template <class T>
void CusparseCsr<T>::multiply(const T* x, T* y) {
  Impl& m = *impl_;
  check(cusparseDnVecSetValues(m.x, const_cast<T*>(x)), "cusparseDnVecSetValues");
  check(cusparseDnVecSetValues(m.y, y), "cusparseDnVecSetValues");
  const T one = T(1), zero = T(0);
  check(cusparseSpMV(m.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, m.mat, m.x, &zero, m.y, data_type<T>(),
                     CUSPARSE_SPMV_ALG_DEFAULT, m.work.data()),
        "cusparseSpMV");
}

template <class T>
struct CublasDense<T>::Impl {
  cublasHandle_t handle = nullptr;
  int rows = 0, cols = 0;
  const T* a = nullptr;
};

template <class T>
CublasDense<T>::CublasDense(CudaContext& ctx, int rows, int cols, const T* a) : impl_(std::make_unique<Impl>()) {
  impl_->rows = rows;
  impl_->cols = cols;
  impl_->a = a;
  check(cublasCreate(&impl_->handle), "cublasCreate");
  check(cublasSetStream(impl_->handle, ctx.stream()), "cublasSetStream");
}

template <class T>
CublasDense<T>::~CublasDense() {
  cublasDestroy(impl_->handle);
}

// cuBLAS is column-major: our row-major rows x cols matrix is its cols x rows matrix A^T.
template <class T>
void CublasDense<T>::multiply(const T* x, T* y, bool transpose) {
  const Impl& m = *impl_;
  const T one = T(1), zero = T(0);
  const cublasOperation_t op = transpose ? CUBLAS_OP_N : CUBLAS_OP_T;
  if constexpr (sizeof(T) == 4)
    check(cublasSgemv(m.handle, op, m.cols, m.rows, &one, m.a, m.cols, x, 1, &zero, y, 1), "cublasSgemv");
  else
    check(cublasDgemv(m.handle, op, m.cols, m.rows, &one, m.a, m.cols, x, 1, &zero, y, 1), "cublasDgemv");
}

template class CusparseCsr<float>;
template class CusparseCsr<double>;
template class CublasDense<float>;
template class CublasDense<double>;

}  // namespace pdex
