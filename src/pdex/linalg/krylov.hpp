#pragma once
// CG, preconditioned CG and BiCGStab, written once for every operator: the matrix-free grid operators
// (grid_system.hpp) and stored matrices (matrix_system.hpp) alike. Vectors are FieldViews: a grid's
// interior, or a stored vector's rows (vector.hpp). A System is the operator A with its preconditioner M:
//   double residual(FieldView<const T> x, FieldView<const T> b, FieldView<T> r)  r = b - A x; |r|^2
//   double apply_dot(FieldView<T> p, FieldView<T> q)    q = A p; p . q (p a correction: homogeneous conditions)
//   double precondition(FieldView<const T> r, FieldView<T> z, double rr)        z = M r; r . z (rr = r . r)
// The vector updates are the fused kernels of krylov_kernels.hpp: one memory pass each, with the dot
// products the method needs next. A System whose vectors are blocks of a grid split among MPI ranks
// (its `halo` set) sums its own products over the ranks, and the methods sum the kernels' (total()).
#include <cmath>
#include <string>

#include "pdex/core/error.hpp"
#include "pdex/grid/halo.hpp"
#include "pdex/linalg/krylov_kernels.hpp"
#include "pdex/linalg/solver_settings.hpp"

namespace pdex {

// The work vectors, allocated once by the caller (BiCGStab uses all; CG r, p, q, z).
template <class T>
struct KrylovVectors {
  FieldView<T> r, p, q, z, rhat, s, shat, t;
};

// When to stop: |r| / bnorm <= tol, or after max_iter iterations.
struct KrylovGoal {
  double tol = 1e-8;
  int max_iter = 1000;
  double bnorm = 1;
  bool reached(double rel) const { return rel <= tol; }
};

namespace krylov_detail {

// A dot product of the kernels, over every rank's block where the system is split (System::halo).
template <class System>
double total(const System& sys, double local) {
  if constexpr (requires { sys.halo; }) return sum_over_ranks(sys.halo, local);
  else return local;
}
template <class System>
Pair total(const System& sys, Pair local) {
  return {total(sys, local.a), total(sys, local.b)};
}

inline void record(SolveStats& st, double rel) {
  st.residual = rel;
  st.history.push_back(rel);
}

inline SolveStats converged(SolveStats st) {
  st.converged = true;
  return st;
}

// r = b - A x, recorded in st; true when x already meets the goal.
template <class T, class System>
bool start(System& sys, FieldView<T> x, FieldView<const T> b, const KrylovVectors<T>& w, const KrylovGoal& goal,
           SolveStats& st, double& rr) {
  rr = sys.residual(as_const(x), b, w.r);
  record(st, std::sqrt(rr) / goal.bnorm);
  return goal.reached(st.residual);
}

}  // namespace krylov_detail

// (Preconditioned) conjugate gradients; x holds the initial guess.
template <class Exec, class T, class System>
SolveStats cg(const Exec& ex, System& sys, FieldView<T> x, FieldView<const T> b, const KrylovVectors<T>& w,
              const KrylovGoal& goal) {
  using namespace krylov_detail;
  SolveStats st;
  double rr = 0;
  if (start(sys, x, b, w, goal, st, rr)) return converged(st);
  double rz = sys.precondition(as_const(w.r), w.z, rr);
  copy_interior(ex, as_const(w.z), w.p);
  while (st.iterations < goal.max_iter) {
    const double pq = sys.apply_dot(w.p, w.q);
    const T a = T(rz / pq);
    rr = total(sys, cg_update(ex, a, as_const(w.p), as_const(w.q), x, w.r));
    ++st.iterations;
    record(st, std::sqrt(rr) / goal.bnorm);
    if (goal.reached(st.residual)) return converged(st);
    const double rz_new = sys.precondition(as_const(w.r), w.z, rr);
    axpby(ex, T(1), as_const(w.z), T(rz_new / rz), w.p);
    rz = rz_new;
  }
  return st;
}

// Right-preconditioned BiCGStab (van der Vorst 1992), for non-symmetric A.
template <class Exec, class T, class System>
SolveStats bicgstab(const Exec& ex, System& sys, FieldView<T> x, FieldView<const T> b, const KrylovVectors<T>& w,
                    const KrylovGoal& goal) {
  using namespace krylov_detail;
  SolveStats st;
  double rr = 0;
  if (start(sys, x, b, w, goal, st, rr)) return converged(st);
  copy_interior(ex, as_const(w.r), w.rhat);
  fill_all(ex, w.p, T(0));
  fill_all(ex, w.q, T(0));  // q holds v = A p-hat
  double rho = 1, alpha = 1, omega = 1;
  while (st.iterations < goal.max_iter) {
    const double rho_new = total(sys, dot(ex, as_const(w.rhat), as_const(w.r)));
    if (rho_new == 0)
      throw NumericalError("bicgstab broke down (r-hat . r = 0) after " + std::to_string(st.iterations) +
                               " iterations; use another method (multigrid for grids) or another initial guess",
                           -1);
    bicgstab_direction(ex, as_const(w.r), T((rho_new / rho) * (alpha / omega)), T(omega), as_const(w.q), w.p);
    rho = rho_new;
    sys.precondition(as_const(w.p), w.z, 0);
    sys.apply_dot(w.z, w.q);
    alpha = rho / total(sys, dot(ex, as_const(w.rhat), as_const(w.q)));
    const double ss = total(sys, combine(ex, T(1), as_const(w.r), T(-alpha), as_const(w.q), w.s));
    ++st.iterations;
    if (goal.reached(std::sqrt(ss) / goal.bnorm)) {
      add_two(ex, T(alpha), as_const(w.z), T(0), as_const(w.z), x);
      record(st, std::sqrt(ss) / goal.bnorm);
      return converged(st);
    }
    sys.precondition(as_const(w.s), w.shat, 0);
    sys.apply_dot(w.shat, w.t);
    const Pair ts = total(sys, dot_pair(ex, as_const(w.t), as_const(w.s)));  // (t . s, t . t)
    omega = ts.a / ts.b;
    add_two(ex, T(alpha), as_const(w.z), T(omega), as_const(w.shat), x);
    rr = total(sys, combine(ex, T(1), as_const(w.s), T(-omega), as_const(w.t), w.r));  // r = s - omega t
    record(st, std::sqrt(rr) / goal.bnorm);
    if (goal.reached(st.residual)) return converged(st);
  }
  return st;
}

}  // namespace pdex
