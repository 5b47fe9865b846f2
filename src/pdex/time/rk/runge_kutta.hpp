#pragma once
// One driver for every explicit Runge-Kutta method of the method of lines (seed 003, Remark 3.3): the
// tableau is data, the right-hand side is the model's. A System provides
//   void operator()(const Exec&, double t, FieldView<const T> u, FieldView<T> k) const
// writing k = f(t, u) on the interior of u (whose ghosts are filled).
// All fields live in the executor's memory space and are allocated here, at set-up.
#include <utility>

#include "pdex/core/parallel.hpp"
#include "pdex/grid/boundary.hpp"
#include "pdex/grid/field.hpp"
#include "pdex/time/rk/rk_kernels.hpp"
#include "pdex/time/rk/tableau.hpp"

namespace pdex {

// A free function: nvcc refuses extended lambdas in private member functions.
template <class Exec, class T>
void rk_combine(const Exec& ex, const RkCombine<T>& cell) {
  for_each_cell_split(
      ex, cell.out.interior(), cell.out.ghost, [=] PDEX_HD(int i, int j) { cell.template apply<false>(i, j); },
      [=] PDEX_HD(int i, int j) { cell.template apply<true>(i, j); });
}

// Field values one step moves per cell in the combination passes (stage arguments, update and error),
// each stage field read once per use: the traffic a step adds to its right-hand sides'.
inline int combine_values_per_step(const Tableau& t) {
  int n = 0;
  for (int s = 1; s < t.stages; ++s) {
    n += 2;  // u read, argument written
    for (int m = 0; m < s; ++m) n += t.a[s][m] != 0;
  }
  n += 2;
  for (int s = 0; s < t.stages; ++s) n += t.b[s] != 0 || t.e[s] != 0;
  return n;
}

template <class Exec, class T, class System>
class RungeKutta {
 public:
  // u0: the initial state with its ghosts filled, in Exec's space.
  RungeKutta(const Exec& ex, const Tableau& tab, System sys, Field<T>&& u0, const FieldBoundary& bc)
      : ex_(ex), tab_(tab), sys_(std::move(sys)), bc_(bc), u_(std::move(u0)), next_(u_.like(Exec::space)),
        arg_(u_.like(Exec::space)) {
    for (int s = 0; s < tab_.stages; ++s) k_[s] = u_.like(Exec::space);
  }

  const Tableau& tableau() const { return tab_; }
  Field<T>& state() { return u_; }
  const Field<T>& state() const { return u_; }
  System& system() { return sys_; }

  // Computes the step of size tau from (t, state) into a candidate; returns its error estimate (eq. 28;
  // 0 for fixed-step methods). accept() makes the candidate the state.
  double attempt(double t, double tau) {
    for (int s = 0; s < tab_.stages; ++s) {
      FieldView<const T> at = u_.cview();
      if (s > 0) {
        combine(terms(tab_.a[s], s, tau), StageTerms<T>{}, arg_.view());
        at = arg_.cview();
      }
      sys_(ex_, t + tab_.c[s] * tau, at, k_[s].view());
    }
    const StageTerms<T> b = terms(tab_.b, tab_.stages, tau);
    if (!tab_.adaptive()) {
      combine(b, StageTerms<T>{}, next_.view());
      return 0.0;
    }
    const RkCombine<T> cell{u_.cview(), next_.view(), bc_, b, terms(tab_.e, tab_.stages, tau)};
    return double(reduce<T>(ex_, u_.cview().interior(), cell, Max<T>{}));
  }

  void accept() { std::swap(u_, next_); }

  // f(t, state) into the first stage field alone (benchmarks of the right-hand side).
  void evaluate(double t) { sys_(ex_, t, u_.cview(), k_[0].view()); }

 private:
  StageTerms<T> terms(const double* w, int count, double tau) const {
    StageTerms<T> t;
    for (int m = 0; m < count; ++m)
      if (w[m] != 0) {
        t.k[t.n] = k_[m].cview().data;
        t.w[t.n++] = T(tau * w[m]);
      }
    return t;
  }

  void combine(const StageTerms<T>& sum, const StageTerms<T>& err, FieldView<T> out) {
    rk_combine(ex_, RkCombine<T>{u_.cview(), out, bc_, sum, err});
  }

  Exec ex_;
  Tableau tab_;
  System sys_;
  FieldBoundary bc_;
  Field<T> u_, next_, arg_;
  Field<T> k_[max_stages];
};

}  // namespace pdex
