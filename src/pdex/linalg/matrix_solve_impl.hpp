#pragma once
// The templated engine behind solve_matrix_on() and multiply_matrix_on(); included once per executor
// translation unit.
#include <chrono>
#include <cmath>
#include <string>
#include <vector>

#include "pdex/core/error.hpp"
#include "pdex/linalg/matrix_solve.hpp"
#include "pdex/linalg/matrix_system.hpp"
#include "pdex/linalg/stored_matrix.hpp"
#include "pdex/linalg/vector_ops.hpp"

namespace pdex {
namespace matrix_detail {

// Calls f with A stored in the requested format on ex (cgls needs A^T: CSR keeps a copy of it).
template <class Exec, class T, class F>
auto with_format(const Exec& ex, const CsrMatrix<T>& a, MatrixFormat format, bool transpose, F&& f) {
  switch (format) {
    case MatrixFormat::dense: {
      DenseOn<Exec, T> m(ex, to_dense(a));
      return f(m);
    }
    case MatrixFormat::banded: {
      BandedOn<Exec, T> m(ex, to_banded(a));
      return f(m);
    }
    case MatrixFormat::csr: break;
  }
  CsrOn<Exec, T> m(ex, a, transpose);
  return f(m);
}

template <class Exec, class T>
Vector<T> inverted_diagonal(const CsrMatrix<T>& a) {
  std::vector<T> d = diagonal(a);
  for (std::size_t k = 0; k < d.size(); ++k) {
    if (d[k] == T(0))
      throw InputError("Jacobi preconditioning needs a nonzero diagonal; A(" + std::to_string(k + 1) + ", " +
                       std::to_string(k + 1) + ") is 0: use --solver cg or bicgstab without it");
    d[k] = T(1) / d[k];
  }
  return make_vector(d, Exec::space);
}

template <class Exec, class T, class Matrix>
SolveStats run(const Exec& ex, Matrix& m, const Vector<T>& inv_diag, Vector<T>& x, const Vector<T>& b,
               const MatrixSolve& s) {
  KrylovGoal goal{s.tol, s.max_iter, 1};
  if (s.method == MatrixMethod::cgls) {
    Vector<T> r = b.like(Exec::space), q = b.like(Exec::space), sv = x.like(Exec::space), p = x.like(Exec::space);
    return cgls(ex, m, x.view(), b.cview(), CglsVectors<T>{r.view(), q.view(), sv.view(), p.view()}, goal);
  }
  const double bn = norm2(ex, b);
  goal.bnorm = bn > 0 ? bn : 1;
  Vector<T> w[8];
  for (auto& v : w) v = b.like(Exec::space);
  const KrylovVectors<T> kv{w[0].view(), w[1].view(), w[2].view(), w[3].view(),
                            w[4].view(), w[5].view(), w[6].view(), w[7].view()};
  MatrixSystem<Exec, T, Matrix> sys{ex, &m, inv_diag.size() ? inv_diag.cview() : FieldView<const T>{}};
  if (s.method == MatrixMethod::bicgstab) return bicgstab(ex, sys, x.view(), b.cview(), kv, goal);
  return cg(ex, sys, x.view(), b.cview(), kv, goal);
}

inline double host_residual(const CsrMatrix<double>& a, const std::vector<double>& x, const std::vector<double>& b) {
  double rr = 0, bb = 0;
  for (int i = 0; i < a.rows; ++i) {
    double s = b[std::size_t(i)];
    for (int k = a.row_ptr[std::size_t(i)]; k < a.row_ptr[std::size_t(i) + 1]; ++k)
      s -= a.val[std::size_t(k)] * x[std::size_t(a.col[std::size_t(k)])];
    rr += s * s;
    bb += b[std::size_t(i)] * b[std::size_t(i)];
  }
  return std::sqrt(rr) / (bb > 0 ? std::sqrt(bb) : 1.0);
}

template <class T>
std::vector<T> narrow(const std::vector<double>& v) {
  return std::vector<T>(v.begin(), v.end());
}

template <class Exec, class T>
MatrixSolution solve(const Exec& ex, const CsrMatrix<double>& a64, const std::vector<double>& b64,
                     const MatrixSolve& s) {
  const CsrMatrix<T> a = convert<T>(a64);
  const bool jacobi = s.method == MatrixMethod::pcg || (s.method == MatrixMethod::bicgstab && s.jacobi);
  const Vector<T> inv_diag = jacobi ? inverted_diagonal<Exec>(a) : Vector<T>{};
  Vector<T> b = make_vector(narrow<T>(b64), Exec::space), x(a.cols, Exec::space);
  return with_format(ex, a, s.format, s.method == MatrixMethod::cgls, [&](auto& m) {
    const auto t0 = std::chrono::steady_clock::now();
    MatrixSolution out;
    out.stats = run(ex, m, inv_diag, x, b, s);
    out.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const std::vector<T> xv = host_values(x);
    out.x.assign(xv.begin(), xv.end());
    out.true_residual = host_residual(a64, out.x, b64);
    return out;
  });
}

inline void check_sizes(const CsrMatrix<double>& a, std::size_t b, const MatrixSolve& s) {
  if (s.method != MatrixMethod::cgls && a.rows != a.cols)
    throw InputError("the matrix is " + std::to_string(a.rows) + " x " + std::to_string(a.cols) + ", not square: " +
                     std::string(matrix_method_name(s.method)) + " needs a square matrix (use --solver cgls for least squares)");
  if (std::size_t(a.rows) != b)
    throw InputError("sizes do not match: the matrix has " + std::to_string(a.rows) + " rows, the right-hand side " +
                     std::to_string(b) + " values");
}

template <class Exec, class T>
std::vector<double> multiply(const Exec& ex, const CsrMatrix<double>& a, const std::vector<double>& x64,
                             MatrixFormat format) {
  const Vector<T> x = make_vector(narrow<T>(x64), Exec::space);
  Vector<T> y(a.rows, Exec::space);
  with_format(ex, convert<T>(a), format, false, [&](auto& m) {
    m.apply(x.cview(), y.view());
    return 0;
  });
  const std::vector<T> yv = host_values(y);
  return std::vector<double>(yv.begin(), yv.end());
}

}  // namespace matrix_detail

template <class Exec>
MatrixSolution solve_matrix_on(const Exec& ex, const CsrMatrix<double>& a, const std::vector<double>& b,
                               const MatrixSolve& s, Precision precision) {
  matrix_detail::check_sizes(a, b.size(), s);
  if (precision == Precision::f32) return matrix_detail::solve<Exec, float>(ex, a, b, s);
  return matrix_detail::solve<Exec, double>(ex, a, b, s);
}

template <class Exec>
std::vector<double> multiply_matrix_on(const Exec& ex, const CsrMatrix<double>& a, const std::vector<double>& x,
                                       MatrixFormat format, Precision precision) {
  if (std::size_t(a.cols) != x.size())
    throw InputError("sizes do not match: the matrix has " + std::to_string(a.cols) + " columns, the vector " +
                     std::to_string(x.size()) + " values");
  if (precision == Precision::f32) return matrix_detail::multiply<Exec, float>(ex, a, x, format);
  return matrix_detail::multiply<Exec, double>(ex, a, x, format);
}

}  // namespace pdex
