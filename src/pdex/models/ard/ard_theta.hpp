#pragma once
// The theta scheme for the advection-reaction-diffusion model, seed 000 eqs. (11)-(14): advection and
// reaction explicit, diffusion weighted theta implicit / (1 - theta) explicit. Each step solves
//   (I - theta dt D lap) u^{n+1} = u^n + dt (-A(u^n) + F(u^n, v^n) + (1 - theta) D lap u^n)
// for u and v in lock step (one block-diagonal system), starting from 2 u^n - u^{n-1}, then clamps as the explicit
// scheme does (the seed clamps after the residual test, sec. 3.2.3).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <string>

#include "pdex/linalg/linear_solver.hpp"
#include "pdex/models/ard/ard_base.hpp"
#include "pdex/models/ard/theta_tiles_shape.hpp"
#include "pdex/time/solver_totals.hpp"

namespace pdex::ard_detail {

// b = u + dt (rhs(u) - theta D lap u) at offset o: the right-hand sides of eqs. (13)-(14).
template <class T, class Rhs>
PDEX_HD inline void theta_b(const Rhs& rhs, const FieldView<const T>& u, int64_t o, T dt, T theta, T b[2]) {
  T r[Rhs::ncomp];
  rhs.eval(u.comp(0), u.comp(1), o, rhs.h, o, r);
  b[0] = u.comp(0)[o] + dt * (r[0] - theta * (rhs.Du.at(o) * lap(u.comp(0), o, rhs.h)));
  b[1] = u.comp(1)[o] + dt * (r[1] - theta * (rhs.Dv.at(o) * lap(u.comp(1), o, rhs.h)));
}

// b at every cell and, in the same pass, the solve's initial guess x = 2 u - x (x holding the previous
// state u^{n-1}): the linear extrapolation of the last two states, closer to u^{n+1} than u^n is by a
// factor of order dt.
template <class Exec, class T, class Rhs>
void theta_rhs(const Exec& ex, const Rhs& rhs, FieldView<const T> u, FieldView<T> b, FieldView<T> x, T dt, T theta) {
  for_each_cell(ex, u.interior(), [=] PDEX_HD(int i, int j) {
    const int64_t o = u.offset(i, j);
    T bo[2];
    theta_b(rhs, u, o, dt, theta, bo);
    for (int c = 0; c < Rhs::ncomp; ++c) {
      b.comp(c)[o] = bo[c];
      x.comp(c)[o] = T(2) * u.comp(c)[o] - x.comp(c)[o];
    }
  });
}

// to = the clamped state from `from` (the same field, or the solution written elsewhere), with its
// boundary images.
template <class Exec, class T, class Rhs>
void limit_state(const Exec& ex, const Rhs& rhs, FieldView<const T> from, FieldView<T> to, const FieldBoundary& bc) {
  for_each_cell(ex, to.interior(), [=] PDEX_HD(int i, int j) {
    const bool edge = near_boundary(to, i, j);
    for (int c = 0; c < Rhs::ncomp; ++c) {
      const T v = rhs.limit(c, from(c, i, j));
      to(c, i, j) = v;
      if (edge) push_ghosts(to, bc, c, i, j, v);
    }
  });
}

// The runs the one-launch CUDA step serves: periodic on every side with even sizes (so that the
// red-black colouring closes across the wrap), constant isotropic diffusion, and a red-black relaxation
// tested by its residual every check_every <= ThetaTiles::sweeps sweeps (a change test needs every
// sweep's largest change, which the launch does not keep).
template <class T>
bool theta_tiles_apply(const ArdSpec& s) {
  const SolverSettings& v = s.solver;
  return s.temporal_blocking && all_periodic(s.bc) && s.grid.nx % 2 == 0 && s.grid.ny % 2 == 0 && !s.anisotropic &&
         !s.params.at("Du").varies() && !s.params.at("Dv").varies() &&
         (v.method == SolverMethod::rbgs || v.method == SolverMethod::sor) && v.change_tol == 0 && v.tol > 0 &&
         v.check_every >= 1 && v.check_every <= ThetaTiles<T>::sweeps;
}

template <class Exec, class T, class Rhs>
class ArdTheta final : public ArdBase<Exec, T, Rhs> {
  using Base = ArdBase<Exec, T, Rhs>;
  using Base::bc_, Base::cur_, Base::dt_, Base::ex_, Base::params_, Base::rhs_, Base::state_;

 public:
  ArdTheta(const Exec& ex, const ArdSpec& spec)
      : Base(ex, spec), theta_(T(spec.theta)), method_(solver_method_name(spec.solver.method)),
        b_(state_[0].like(Exec::space)), solver_(ex, state_[0], implicit_operator(spec), spec.bc, spec.solver),
        tiled_(Exec::backend == Backend::cuda && !Rhs::tensor && theta_tiles_apply<T>(spec)) {}

  // state_[1 - cur_] holds the previous state (the current one before the first step), where the next
  // state is solved for. With fixed cycles only the last solve of the call measures its residual.
  void advance(int64_t steps) override {
    for (int64_t k = 0; k < steps; ++k) {
      const int next = 1 - cur_;
      if (!has_previous_) copy(state_[next], state_[cur_]);
      if (tiled_) {
        tiled_step(next);
      } else {
        theta_rhs(ex_, rhs_, state_[cur_].cview(), b_.view(), state_[next].view(), dt_, theta_);
        record(solver_.solve(state_[next].view(), b_.cview(), k + 1 == steps));
        limit_state(ex_, rhs_, state_[next].cview(), state_[next].view(), bc_);
      }
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

  // The step in one launch on CUDA (theta_tiles.cuh): the right-hand side, the extrapolated guess and
  // the first check_every sweeps of the solve, with the residual test; where the test fails, one more
  // launch per check_every sweeps, from the last one's result (the same sweeps and tests as the plain
  // solver's). Launches alternate between b_ and the next state, which the first reads as the previous
  // state; the clamp moves the solution into the state. When the last step's first test passed, the
  // clamp is queued behind the first launch, before its residual is read: it runs while the host waits,
  // and the next step is launched as soon as the test passes (at small grids a step is that round trip,
  // docs/performance.md). Should the test fail, the next launch reads b_ and rewrites the state.
  void tiled_step(int next) {
    if constexpr (Exec::backend == Backend::cuda && !Rhs::tensor) {
      const auto t0 = std::chrono::steady_clock::now();
      const SolverSettings& s = solver_.settings();
      const FieldView<T> buf[2] = {b_.view(), state_[next].view()};
      FieldView<const T> from = state_[next].cview();
      int to = 0;
      SolveStats st;
      const bool clamp_early = first_test_passed_;  // the first launch's result, queued before its test
      auto clamp = [&] { limit_state(ex_, rhs_, as_const(buf[to]), state_[next].view(), bc_); };
      while (true) {
        const int sweeps = std::min(s.check_every, s.max_iter - st.iterations);
        const bool first = st.iterations == 0;
        const Pair rb = theta_tiles(ex_, rhs_, state_[cur_].cview(), from, buf[to], solver_.op().refreshed(), dt_,
                                    theta_, T(solver_.omega()), sweeps, first, [&] {
                                      if (first && clamp_early) clamp();
                                    });
        st.iterations += sweeps;
        st.residual = std::sqrt(rb.a) / (rb.b > 0 ? std::sqrt(rb.b) : 1.0);
        st.history.push_back(st.residual);
        st.converged = st.residual <= s.tol;
        if (first) first_test_passed_ = st.converged;
        if (st.converged || st.iterations >= s.max_iter) break;
        from = as_const(buf[to]);
        to = 1 - to;
      }
      if (!clamp_early || st.history.size() > 1) clamp();
      st.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      ++totals_.one_launch;
      record(st);
    }
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
  bool tiled_ = false;  // the one-launch CUDA step (theta_tiles.cuh)
  bool first_test_passed_ = true;  // the last tiled step's first residual test
  SolverTotals totals_;
};

}  // namespace pdex::ard_detail

#if defined(__CUDACC__) && defined(PDEX_HAVE_CUDA)
#include "pdex/models/ard/theta_tiles.cuh"
#endif
