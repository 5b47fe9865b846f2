// cuSPARSE and cuBLAS behind vendor_blas.hpp, opened when a product first needs them. pdex links
// neither: loading cuBLAS (and cuBLASLt, which it pulls in) would delay every start of every program,
// runs that never call it included. Every call is checked; errors carry the library's name.
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <cusparse.h>

#include <string>
#include <utility>

#include "pdex/core/buffer.hpp"
#include "pdex/core/cuda/cuda_context.hpp"
#include "pdex/core/cuda/vendor_library.hpp"
#include "pdex/core/error.hpp"
#include "pdex/linalg/cuda/vendor_blas.hpp"

namespace pdex {
namespace {

const VendorLibrary& cusparse() {
  static const VendorLibrary lib("cuSPARSE", "libcusparse.so." + std::to_string(CUSPARSE_VER_MAJOR));
  return lib;
}

const VendorLibrary& cublas() {
  static const VendorLibrary lib("cuBLAS", "libcublas.so." + std::to_string(CUBLAS_VER_MAJOR));
  return lib;
}

void check(cusparseStatus_t s, const char* what) {
  if (s != CUSPARSE_STATUS_SUCCESS) {
    static const auto message = cusparse().function<decltype(&cusparseGetErrorString)>("cusparseGetErrorString");
    throw Error(std::string("cuSPARSE: ") + what + " failed: " + message(s));
  }
}

void check(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS) throw Error(std::string("cuBLAS: ") + what + " failed (status " + std::to_string(int(s)) + ")");
}

template <class T>
constexpr cudaDataType data_type() {
  return sizeof(T) == 4 ? CUDA_R_32F : CUDA_R_64F;
}

}  // namespace

// The library's function `name`, typed by its declaration in the library's header and looked up once.
// The headers map some names to others (cublasCreate to cublasCreate_v2); PDEX_VENDOR_NAME, reached
// through the macros below, stringizes the name after that mapping, the symbol the library exports.
#define PDEX_VENDOR_NAME(name) #name
#define PDEX_VENDOR_FUNCTION(library, name) \
  ([] { static const auto f = library().function<decltype(&name)>(PDEX_VENDOR_NAME(name)); return f; }())
// Calls the library's function `name` with the arguments that follow, and checks its status.
#define PDEX_CUSPARSE(name, ...) check(PDEX_VENDOR_FUNCTION(cusparse, name)(__VA_ARGS__), PDEX_VENDOR_NAME(name))
#define PDEX_CUBLAS(name, ...) check(PDEX_VENDOR_FUNCTION(cublas, name)(__VA_ARGS__), PDEX_VENDOR_NAME(name))

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
  PDEX_CUSPARSE(cusparseCreate, &m.handle);
  PDEX_CUSPARSE(cusparseSetStream, m.handle, ctx.stream());
  PDEX_CUSPARSE(cusparseCreateCsr, &m.mat, rows, cols, nnz, const_cast<int*>(row_ptr), const_cast<int*>(col),
                const_cast<T*>(val), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, data_type<T>());
  // Placeholder pointers: the vectors are bound at each product (cusparseDnVecSetValues).
  PDEX_CUSPARSE(cusparseCreateDnVec, &m.x, cols, const_cast<T*>(val), data_type<T>());
  PDEX_CUSPARSE(cusparseCreateDnVec, &m.y, rows, const_cast<T*>(val), data_type<T>());
  const T one = T(1), zero = T(0);
  std::size_t bytes = 0;
  PDEX_CUSPARSE(cusparseSpMV_bufferSize, m.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, m.mat, m.x, &zero, m.y,
                data_type<T>(), CUSPARSE_SPMV_ALG_DEFAULT, &bytes);
  m.work = Buffer<unsigned char>(bytes > 0 ? bytes : 1, MemorySpace::device);
}

template <class T>
CusparseCsr<T>::~CusparseCsr() {
  PDEX_VENDOR_FUNCTION(cusparse, cusparseDestroyDnVec)(impl_->x);
  PDEX_VENDOR_FUNCTION(cusparse, cusparseDestroyDnVec)(impl_->y);
  PDEX_VENDOR_FUNCTION(cusparse, cusparseDestroySpMat)(impl_->mat);
  PDEX_VENDOR_FUNCTION(cusparse, cusparseDestroy)(impl_->handle);
}

template <class T>
void CusparseCsr<T>::multiply(const T* x, T* y) {
  Impl& m = *impl_;
  PDEX_CUSPARSE(cusparseDnVecSetValues, m.x, const_cast<T*>(x));
  PDEX_CUSPARSE(cusparseDnVecSetValues, m.y, y);
  const T one = T(1), zero = T(0);
  PDEX_CUSPARSE(cusparseSpMV, m.handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, m.mat, m.x, &zero, m.y,
                data_type<T>(), CUSPARSE_SPMV_ALG_DEFAULT, m.work.data());
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
  PDEX_CUBLAS(cublasCreate, &impl_->handle);
  PDEX_CUBLAS(cublasSetStream, impl_->handle, ctx.stream());
}

template <class T>
CublasDense<T>::~CublasDense() {
  PDEX_VENDOR_FUNCTION(cublas, cublasDestroy)(impl_->handle);
}

// cuBLAS is column-major: our row-major rows x cols matrix is its cols x rows matrix A^T.
template <class T>
void CublasDense<T>::multiply(const T* x, T* y, bool transpose) {
  const Impl& m = *impl_;
  const T one = T(1), zero = T(0);
  const cublasOperation_t op = transpose ? CUBLAS_OP_N : CUBLAS_OP_T;
  if constexpr (sizeof(T) == 4)
    PDEX_CUBLAS(cublasSgemv, m.handle, op, m.cols, m.rows, &one, m.a, m.cols, x, 1, &zero, y, 1);
  else
    PDEX_CUBLAS(cublasDgemv, m.handle, op, m.cols, m.rows, &one, m.a, m.cols, x, 1, &zero, y, 1);
}

template class CusparseCsr<float>;
template class CusparseCsr<double>;
template class CublasDense<float>;
template class CublasDense<double>;

}  // namespace pdex
