#pragma once
// The theta scheme for the advection-reaction-diffusion model, seed 000 eqs. (11)-(14): advection and
// reaction explicit, diffusion weighted theta implicit / (1 - theta) explicit. Each step solves
//   (I - theta dt D lap) u^{n+1} = u^n + dt (-A(u^n) + F(u^n, v^n) + (1 - theta) D lap u^n)
// for u and v in lock step (one block-diagonal system), starting from u^n, then clamps as the explicit
// scheme does (the seed clamps after the residual test, sec. 3.2.3).
#include <cstdint>
#include <string>

#include "pdex/linalg/linear_solver.hpp"
#include "pdex/models/ard/ard_base.hpp"
#include "pdex/time/solver_totals.hpp"

namespace pdex::ard_detail {

// b = u + dt (rhs(u) - theta D lap u): the right-hand sides of eqs. (13)-(14); and, in the same pass,
// the solve's initial guess x = 2 u - x (x holding the previous state u^{n-1}): the linear extrapolation
// of the last two states, closer to u^{n+1} than u^n is by a factor of order dt.
template <class Exec, class T, class Rhs>
void theta_rhs(const Exec& ex, const Rhs& rhs, FieldView<const T> u, FieldView<T> b, FieldView<T> x, T dt, T theta) {
  for_each_cell(ex, u.interior(), [=] PDEX_HD(int i, int j) {
    T r[Rhs::ncomp];
    rhs(u, i, j, r);
    const int64_t o = u.offset(i, j);
    b.comp(0)[o] = u.comp(0)[o] + dt * (r[0] - theta * (rhs.Du.at(o) * lap(u.comp(0), o, rhs.h)));
    b.comp(1)[o] = u.comp(1)[o] + dt * (r[1] - theta * (rhs.Dv.at(o) * lap(u.comp(1), o, rhs.h)));
    for (int c = 0; c < Rhs::ncomp; ++c) x.comp(c)[o] = T(2) * u.comp(c)[o] - x.comp(c)[o];
  });
}

// Clamps the new state and writes its boundary images.
template <class Exec, class T, class Rhs>
void limit_state(const Exec& ex, const Rhs& rhs, FieldView<T> u, const FieldBoundary& bc) {
  for_each_cell(ex, u.interior(), [=] PDEX_HD(int i, int j) {
    const bool edge = near_boundary(u, i, j);
    for (int c = 0; c < Rhs::ncomp; ++c) {
      const T v = rhs.limit(c, u(c, i, j));
      u(c, i, j) = v;
      if (edge) push_ghosts(u, bc, c, i, j, v);
    }
  });
}

template <class Exec, class T, class Rhs>
class ArdTheta final : public ArdBase<Exec, T, Rhs> {
  using Base = ArdBase<Exec, T, Rhs>;
  using Base::bc_, Base::cur_, Base::dt_, Base::ex_, Base::params_, Base::rhs_, Base::state_;

 public:
  ArdTheta(const Exec& ex, const ArdSpec& spec)
      : Base(ex, spec), theta_(T(spec.theta)), method_(solver_method_name(spec.solver.method)),
        b_(state_[0].like(Exec::space)), solver_(ex, state_[0], implicit_operator(spec), spec.bc, spec.solver) {}

  // state_[1 - cur_] holds the previous state (the current one before the first step), where the next
  // state is solved for. With fixed cycles only the last solve of the call measures its residual.
  void advance(int64_t steps) override {
    for (int64_t k = 0; k < steps; ++k) {
      const int next = 1 - cur_;
      if (!has_previous_) copy(state_[next], state_[cur_]);
      theta_rhs(ex_, rhs_, state_[cur_].cview(), b_.view(), state_[next].view(), dt_, theta_);
      record(solver_.solve(state_[next].view(), b_.cview(), k + 1 == steps));
      limit_state(ex_, rhs_, state_[next].view(), bc_);
      cur_ = next;
      has_previous_ = true;
    }
  }

  void restore() override {
    Base::restore();
    has_previous_ = false;  // the saved state has no previous one
  }

  const SolverTotals* solver_totals() const override { return &totals_; }

 private:
  // I - theta dt D lap, D per species: a constant, or a per-cell field (then beta = theta dt, d = D).
  Helmholtz<T> implicit_operator(const ArdSpec& spec) {
    const Grid2& g = spec.grid;
    const char* names[2] = {"Du", "Dv"};
    double beta[2];
    const T* d[2] = {nullptr, nullptr};
    for (int c = 0; c < 2; ++c) {
      const ScalarSpec& D = spec.params.at(names[c]);
      beta[c] = spec.theta * spec.dt * (D.varies() ? 1.0 : D.value);
      if (D.varies()) d[c] = params_.upload(D, bc_).cells;
    }
    Helmholtz<T> op = make_helmholtz<T>(g.nx, g.ny, g.dx, g.dy, state_[0].view().pitch, 1.0, beta, 2, spec.bc);
    op.d[0] = d[0];
    op.d[1] = d[1];
    return op;
  }

  void record(const SolveStats& st) {
    add_solve(totals_, st);
    if (!st.converged)
      throw NumericalError("the " + method_ + " solver did not converge in " + std::to_string(st.iterations) +
                           " iterations (relative residual " + std::to_string(st.residual) +
                           "); raise solver.max_iter, loosen solver.tol, reduce time.dt, or use solver.method = "
                           "\"multigrid\"");
  }

  T theta_;
  bool has_previous_ = false;
  std::string method_;
  Field<T> b_;
  LinearSolver<Exec, T> solver_;
  SolverTotals totals_;
};

}  // namespace pdex::ard_detail
