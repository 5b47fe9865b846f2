#pragma once
// A stored matrix (stored_matrix.hpp) as a Krylov System (krylov.hpp), with no or Jacobi preconditioning,
// and CGLS for least squares (seed 001 sec. 44.3: over-determined systems through the normal equations,
// without forming A^T A).
#include <cmath>

#include "pdex/linalg/krylov.hpp"

namespace pdex {

// z = d r, returning r . z (d: the inverted diagonal).
template <class Exec, class T>
double scale_dot(const Exec& ex, FieldView<const T> d, FieldView<const T> r, FieldView<T> z) {
  return reduce<double>(
      ex, r.interior(),
      [=] PDEX_HD(int i, int j) {
        const T v = d(0, i, j) * r(0, i, j);
        z(0, i, j) = v;
        return double(v) * double(r(0, i, j));
      },
      Sum<double>{});
}

template <class Exec, class T, class Matrix>
struct MatrixSystem {
  Exec ex;
  Matrix* a = nullptr;
  FieldView<const T> inv_diag{};  // Jacobi when set

  double residual(FieldView<const T> x, FieldView<const T> b, FieldView<T> r) {
    a->apply(x, r);
    return combine(ex, T(1), b, T(-1), as_const(r), r);
  }

  double apply_dot(FieldView<T> p, FieldView<T> q) {
    a->apply(as_const(p), q);
    return dot(ex, as_const(p), as_const(q));
  }

  double precondition(FieldView<const T> r, FieldView<T> z, double rr) {
    if (inv_diag.data) return scale_dot(ex, inv_diag, r, z);
    copy_interior(ex, r, z);
    return rr;
  }
};

// Work vectors of CGLS: r and q have A's rows, s and p its columns.
template <class T>
struct CglsVectors {
  FieldView<T> r, q, s, p;
};

// min |b - A x|_2 by CG on the normal equations A^T A x = A^T b; the residual reported is the normal
// equations' |A^T r| / |A^T b|.
template <class Exec, class T, class Matrix>
SolveStats cgls(const Exec& ex, Matrix& a, FieldView<T> x, FieldView<const T> b, const CglsVectors<T>& w,
                const KrylovGoal& goal) {
  SolveStats st;
  a.apply_transpose(b, w.s);
  double norm0 = std::sqrt(dot(ex, as_const(w.s), as_const(w.s)));
  if (norm0 == 0) norm0 = 1;
  a.apply(as_const(x), w.r);
  combine(ex, T(1), b, T(-1), as_const(w.r), w.r);
  a.apply_transpose(as_const(w.r), w.s);
  double gamma = dot(ex, as_const(w.s), as_const(w.s));
  copy_interior(ex, as_const(w.s), w.p);
  krylov_detail::record(st, std::sqrt(gamma) / norm0);
  while (!goal.reached(st.residual) && st.iterations < goal.max_iter) {
    a.apply(as_const(w.p), w.q);
    const T alpha = T(gamma / dot(ex, as_const(w.q), as_const(w.q)));
    axpby(ex, alpha, as_const(w.p), T(1), x);
    axpby(ex, T(-alpha), as_const(w.q), T(1), w.r);
    a.apply_transpose(as_const(w.r), w.s);
    const double gamma_new = dot(ex, as_const(w.s), as_const(w.s));
    axpby(ex, T(1), as_const(w.s), T(gamma_new / gamma), w.p);
    gamma = gamma_new;
    ++st.iterations;
    krylov_detail::record(st, std::sqrt(gamma) / norm0);
  }
  st.converged = goal.reached(st.residual);
  return st;
}

}  // namespace pdex
