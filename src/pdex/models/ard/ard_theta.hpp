#pragma once
// The theta scheme for the advection-reaction-diffusion model, seed 000 eqs. (11)-(14): advection and
// reaction explicit, diffusion weighted theta implicit / (1 - theta) explicit. Each step solves
//   (I - theta dt D lap) u^{n+1} = u^n + dt (-A(u^n) + F(u^n, v^n) + (1 - theta) D lap u^n)
// (D lap u is div(D M grad u) with an anisotropic tensor M)
// for every species in lock step (one block-diagonal system), starting from 2 u^n - u^{n-1}, then clamps as the explicit
// scheme does (the seed clamps after the residual test, sec. 3.2.3).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "pdex/linalg/helmholtz3.hpp"
#include "pdex/linalg/linear_solver.hpp"
#include "pdex/models/ard/ard_base.hpp"
#include "pdex/models/ard/ard_schedules.hpp"
#include "pdex/models/ard/theta_tiles_shape.hpp"
#include "pdex/time/solver_totals.hpp"

namespace pdex::ard_detail {

// b = u + dt (rhs(u) - theta div(sigma grad u)) at offset o: the right-hand sides of eqs. (13)-(14).
template <class T, class Rhs>
PDEX_HD inline void theta_b(const Rhs& rhs, const FieldView<const T>& u, int64_t o, T dt, T theta, T b[Rhs::ncomp]) {
  T r[Rhs::ncomp];
  rhs.eval([&](int c) { return u.comp(c); }, o, rhs.h, o, r);
  for (int c = 0; c < Rhs::ncomp; ++c)
    b[c] = u.comp(c)[o] + dt * (r[c] - theta * rhs.diffusion(u.comp(c), o, rhs.D[c], rhs.h, o));
}

// b's explicit share of the diffusion that involves z on a 3D grid, (1 - theta) dt D lap_z u (a tensor's:
// div_tensor_z), added, and the transport across the planes (explicit, as in the plane).
template <class T, class Rhs>
PDEX_HD inline void add_theta_b_z(const Rhs& rhs, const FieldView<const T>& u, int64_t o, T dt, T theta, T b[Rhs::ncomp]) {
  const bool moves = rhs.scheme() != Advection::none;
  for (int c = 0; c < Rhs::ncomp; ++c) {
    const T* p = u.comp(c);
    if constexpr (Rhs::tensor)
      b[c] += dt * ((T(1) - theta) * div_tensor_z(p, o, rhs.D[c], rhs.m, rhs.m_stride, rhs.h));
    else
      b[c] += dt * ((T(1) - theta) * rhs.D[c].at(o) * lap_z(p, o, rhs.h));
    if (moves) b[c] -= dt * rhs.transport_z(p[o - rhs.h.plane], p[o], p[o + rhs.h.plane], o);
  }
}

// b at every cell and, in the same pass, the solve's initial guess x = 2 u - x (x holding the previous
// state u^{n-1}): the linear extrapolation of the last two states, closer to u^{n+1} than u^n is by a
// factor of order dt. On a 3D grid b gains the explicit share of diffusion across the planes.
template <class Exec, class T, class Rhs>
void theta_rhs(const Exec& ex, const Rhs& rhs, FieldView<const T> u, FieldView<T> b, FieldView<T> x, T dt, T theta) {
  const bool volume = u.nz > 1;
  for_each_cell(ex, u.interior_rows(), [=] PDEX_HD(int i, int r) {
    const int64_t o = u.row_offset(i, r);
    T bo[Rhs::ncomp];
    theta_b(rhs, u, o, dt, theta, bo);
    if (volume) add_theta_b_z(rhs, u, o, dt, theta, bo);
    for (int c = 0; c < Rhs::ncomp; ++c) {
      b.comp(c)[o] = bo[c];
      x.comp(c)[o] = T(2) * u.comp(c)[o] - x.comp(c)[o];
    }
  });
}

// to at (i, j) = the clamped state from `from` (the same field, or the solution written elsewhere),
// with its boundary images.
template <class T, int N>
PDEX_HD inline void limit_cell(const ClampBelow<T, N>& clamp, const FieldView<const T>& from, const FieldView<T>& to,
                               const FieldBoundary& bc, int i, int j) {
  const bool edge = near_boundary(to, i, j);
  for (int c = 0; c < N; ++c) {
    const T v = clamp.limit(c, from(c, i, j));
    to(c, i, j) = v;
    if (edge) push_ghosts(to, bc, c, i, j, v);
  }
}

// The same at cell (i, j, k) of a 3D field.
template <class T, int N>
PDEX_HD inline void limit_cell(const ClampBelow<T, N>& clamp, const FieldView<const T>& from, const FieldView<T>& to,
                               const FieldBoundary& bc, int i, int j, int k) {
  const int64_t o = to.offset(i, j, k);
  for (int c = 0; c < N; ++c) {
    const T v = clamp.limit(c, from.comp(c)[o]);
    to.comp(c)[o] = v;
    push_cell_images(to, bc, c, i, j, k, v);
  }
}

template <class Exec, class T, int N>
void limit_state(const Exec& ex, const ClampBelow<T, N>& clamp, FieldView<const T> from, FieldView<T> to,
                 const FieldBoundary& bc) {
  if (to.nz == 1)
    return for_each_cell(ex, to.interior(), [=] PDEX_HD(int i, int j) { limit_cell(clamp, from, to, bc, i, j); });
  const int ny = to.ny;
  for_each_cell(ex, to.interior_rows(), [=] PDEX_HD(int i, int r) { limit_cell(clamp, from, to, bc, i, r % ny, r / ny); });
}

// The clamp of a queued step (ThetaQueue): from whichever of buf[0] and buf[1] its last launch wrote;
// nothing once a step has run out of launches.
template <class Exec, class T, int N>
void limit_queued(const Exec& ex, const ClampBelow<T, N>& clamp, FieldView<const T> buf0, FieldView<const T> buf1,
                  FieldView<T> to, const FieldBoundary& bc, const ThetaQueue* queue) {
  for_each_cell(ex, to.interior(), [=] PDEX_HD(int i, int j) {
    if (queue->overflow == 0) limit_cell(clamp, queue->result ? buf1 : buf0, to, bc, i, j);
  });
}

// The runs the one-launch CUDA step serves: periodic on every side with even sizes (so that the
// red-black colouring closes across the wrap), constant isotropic diffusion, and a red-black relaxation
// tested by its residual every check_every <= ThetaTiles::sweeps sweeps (a change test needs every
// sweep's largest change, which the launch does not keep).
template <class T>
bool theta_tiles_apply(const ArdSpec& s) {
  const SolverSettings& v = s.solver;
  for (const std::string& d : diffusivity_names(s))
    if (s.params.at(d).varies()) return false;
  return s.temporal_blocking && !s.grid.is_3d() && all_periodic(s.bc, int(s.species.size())) && s.grid.extents().even() && !s.anisotropic &&
         (v.method == SolverMethod::rbgs || v.method == SolverMethod::sor) && v.change_tol == 0 && v.tol > 0 &&
         v.check_every >= 1 && v.check_every <= ThetaTiles<T>::sweeps;
}

template <class Exec, class T, class Rhs>
class ArdTheta final : public ArdBase<Exec, T, Rhs> {
  using Base = ArdBase<Exec, T, Rhs>;
  using Base::bc_, Base::cur_, Base::dt_, Base::ex_, Base::halo_, Base::params_, Base::rhs_, Base::state_;

 public:
  ArdTheta(const Exec& ex, const ArdSpec& spec)
      : Base(ex, spec), theta_(T(spec.theta)),
        b_(state_[0].like(Exec::space)), tiled_(has_tiles && theta_tiles_apply<T>(spec)) {
    for (int first = 0; first < Rhs::ncomp; first += group) {
      const int count = std::min(group, Rhs::ncomp - first);
      const FieldBoundary bc = spec.bc.components(first, count);
      // A solver reads only its layout's shape: the state's where one group holds every species, else
      // a host field of the group's components (the same rows).
      const Field<T> group_layout =
          count == Rhs::ncomp ? Field<T>() : Field<T>(spec.grid, count, ghost_width, MemorySpace::host);
      const Field<T>& layout = count == Rhs::ncomp ? state_[0] : group_layout;
      if (spec.grid.is_3d()) {
        solvers3_.push_back(std::make_unique<Solver3>(ex, layout, implicit_operator<Op3>(spec, first, count, bc), bc,
                                                      spec.solver, spec.halo));
        continue;
      }
      solvers_.push_back(
          std::make_unique<Solver>(ex, layout, implicit_operator<Op>(spec, first, count, bc), bc, spec.solver, spec.halo));
    }
    if (tiled_) queue_ = Buffer<ThetaQueue>(1, Exec::space);
  }

  // state_[1 - cur_] holds the previous state (the current one before the first step), where the next
  // state is solved for. With fixed cycles only the last solve of the call measures its residual.
  void advance(int64_t steps) override {
    if (tiled_) {
      while (steps > 0) steps -= queue_steps(int(std::min<int64_t>(steps, batch_)));
      return;
    }
    for (int64_t k = 0; k < steps; ++k) {
      const int next = 1 - cur_;
      if (!has_previous_) copy(state_[next], state_[cur_]);
      theta_rhs(ex_, rhs_, state_[cur_].cview(), b_.view(), state_[next].view(), dt_, theta_);
      solve(state_[next].view(), k + 1 == steps);
      limit_state(ex_, rhs_.clamp, state_[next].cview(), state_[next].view(), bc_);
      exchange_halo(halo_, state_[next].view(), bc_, Exec::space);
      cur_ = next;
      has_previous_ = true;
    }
  }

  void restore() override {
    Base::restore();
    has_previous_ = false;  // the saved state has no previous one
  }
  // The previous state is where the next solve starts (its guess 2 u - previous).
  std::vector<NamedArray> extra_state() override {
    if (!has_previous_) return {};
    return {cells_array("previous", state_[1 - cur_])};
  }
  void set_extra_state(const std::vector<NamedArray>& s) override {
    has_previous_ = std::any_of(s.begin(), s.end(), [](const NamedArray& a) { return a.name == "previous"; });
    if (!has_previous_) return;
    set_cells_array(state_[1 - cur_], s, "previous", bc_);
    exchange_halo(halo_, state_[1 - cur_].view(), bc_, Exec::space);
  }

  const SolverTotals* solver_totals() const override { return &totals_; }

 private:
  using Op = Helmholtz<T, Rhs::tensor>;
  using Solver = LinearSolver<Exec, T, Op>;
  using Op3 = Helmholtz3<T, Rhs::tensor>;  // a 3D grid's
  using Solver3 = LinearSolver<Exec, T, Op3>;
  // Species solved in lock step, at most max_solver_components at a time (seed 000 relaxes its two in
  // lock step); the implicit parts of different species are independent, so more go in groups.
  static constexpr int group = std::min(Rhs::ncomp, max_solver_components);
  static constexpr bool has_tiles = ArdSchedules<Exec>::theta_tiles && schedules_take<Rhs>;

  // Solves for x, the next state (holding the initial guess), from b_, group by group.
  void solve(FieldView<T> x, bool measure) {
    const auto each = [&](auto& solvers) {
      for (std::size_t g = 0; g < solvers.size(); ++g) {
        const int first = int(g) * group, count = std::min(group, Rhs::ncomp - first);
        record(solvers[g]->solve(x.components(first, count), b_.cview().components(first, count), measure));
      }
    };
    if (solvers3_.empty()) each(solvers_);
    else each(solvers3_);
  }

  // For species first .. first + count - 1 (conditions bc): I - theta dt D lap, or I - theta dt div(D M grad) with the
  // tensor M; D per species: a constant, or a per-cell field (then beta = theta dt, d = D).
  template <class O>
  O implicit_operator(const ArdSpec& spec, int first, int count, const FieldBoundary& bc) {
    const Grid2& g = spec.grid;
    const std::vector<std::string> names = diffusivity_names(spec);
    double beta[max_solver_components];
    for (int c = 0; c < count; ++c) {
      const ScalarSpec& D = spec.params.at(names[first + c]);
      beta[c] = spec.theta * spec.dt * (D.varies() ? 1.0 : D.value);
    }
    O op = make_grid_operator<O>(g, state_[0].view(), 1.0, beta, count, bc);
    for (int c = 0; c < count; ++c) {
      const ScalarSpec& D = spec.params.at(names[first + c]);
      op.d[c] = D.varies() ? params_.upload(D, bc_).cells : nullptr;
    }
    if constexpr (O::tensor()) {
      op.m = rhs_.m;
      op.m_stride = rhs_.m_stride;
    }
    return op;
  }

  // Steps in one launch each on CUDA (theta_tiles.cuh): the right-hand side, the extrapolated guess and
  // the first check_every sweeps of the solve, with the residual test; where the test fails, one more
  // launch per check_every sweeps from the last one's result (the same sweeps and tests as the plain
  // solver's). Launches alternate between b_ and the next state, which the first reads as the previous
  // state; the clamp moves the solution into the state. The steps are queued, n at a time, with no host
  // wait: each step's first launch, extra_ more and its clamp, the tests on the device (ThetaQueue); at
  // small grids a wait per step would cost more than the step (docs/performance.md). The host then reads
  // the record: a step that ran out of launches goes on here, its tests read by the host, and the steps
  // queued after it, which did nothing, are queued again. Returns the steps done; each is charged the
  // mean wall time of the queue. The queue doubles after a queue without overflow and starts again from
  // min_batch after one: what an overflow wastes stays small, and so does the share of the waits.
  int queue_steps(int n) {
    if constexpr (has_tiles) {
      const auto t0 = std::chrono::steady_clock::now();
      const int cur0 = cur_;
      for (int k = 0; k < n; ++k) {
        if (!has_previous_) copy(state_[1 - cur_], state_[cur_]);
        has_previous_ = true;
        queue_step(k);
        cur_ = 1 - cur_;
      }
      const std::size_t bytes = offsetof(ThetaQueue, steps) + std::size_t(n) * sizeof(ThetaQueue::Step);
      detail::copy_bytes(&log_, MemorySpace::host, queue_.data(), MemorySpace::device, bytes);  // waits
      const int overflow = log_.overflow, done = overflow ? overflow : n;
      if (overflow) {  // the steps after it did nothing; the queue starts clean
        log_.overflow = 0;
        detail::copy_bytes(queue_.data(), MemorySpace::device, &log_, MemorySpace::host, offsetof(ThetaQueue, steps));
      }
      cur_ = done % 2 ? 1 - cur0 : cur0;
      std::vector<SolveStats> stats(done);
      for (int k = 0; k < done; ++k) stats[k] = queued_stats(log_.steps[k]);
      if (overflow) finish_on_host(1 - cur_, stats[done - 1], (log_.steps[done - 1].launches - 1) % 2);
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / done;
      int most = 1;  // launches a step took
      for (SolveStats& st : stats) {
        most = std::max(most, launches_for(st.iterations));
        st.seconds = seconds;
        ++totals_.one_launch;
        record(st);
      }
      extra_ = std::min(most, ThetaQueue::max_launches) - 1;
      batch_ = overflow ? min_batch : std::min(2 * batch_, ThetaQueue::max_steps);
      return done;
    }
    return n;
  }

  // Sweeps of a step's l-th launch.
  int sweeps_of(int l) const {
    const SolverSettings& s = solver().settings();
    return std::min(s.check_every, s.max_iter - l * s.check_every);
  }
  int launches_for(int iterations) const {
    const int every = solver().settings().check_every;
    return (iterations + every - 1) / every;
  }

  // Queues step k of the queue, from state_[cur_] into state_[1 - cur_].
  void queue_step(int k) {
    const int next = 1 - cur_;
    const FieldView<T> buf[2] = {b_.view(), state_[next].view()};
    ThetaQueue* q = queue_.data();
    for (int l = 0; l <= extra_ && sweeps_of(l) > 0; ++l) {
      const bool last = l == extra_ || sweeps_of(l + 1) <= 0;
      theta_tiles_queued(ex_, rhs_, state_[cur_].cview(), l == 0 ? state_[next].cview() : as_const(buf[1 - l % 2]),
                         buf[l % 2], solver().op().refreshed(), dt_, theta_, T(solver().omega()), sweeps_of(l), q, k,
                         l, last, solver().settings().tol);
    }
    limit_queued(ex_, rhs_.clamp, as_const(buf[0]), as_const(buf[1]), state_[next].view(), bc_, q);
  }

  SolveStats queued_stats(const ThetaQueue::Step& r) const {
    SolveStats st;
    for (int l = 0; l < r.launches; ++l) {
      st.iterations += sweeps_of(l);
      st.history.push_back(r.residual[l]);
    }
    st.residual = st.history.back();
    st.converged = st.residual <= solver().settings().tol;
    return st;
  }

  // Goes on with the solve of the step from state_[cur] into state_[1 - cur] where its queued launches
  // left it (the last wrote buffer `to`), testing each launch on the host, then clamps.
  void finish_on_host(int cur, SolveStats& st, int to) {
    const SolverSettings& s = solver().settings();
    const FieldView<T> buf[2] = {b_.view(), state_[1 - cur].view()};
    while (!st.converged && st.iterations < s.max_iter) {
      const int sweeps = std::min(s.check_every, s.max_iter - st.iterations);
      to = 1 - to;
      const Pair rb = theta_tiles(ex_, rhs_, state_[cur].cview(), as_const(buf[1 - to]), buf[to],
                                  solver().op().refreshed(), dt_, theta_, T(solver().omega()), sweeps, false);
      st.iterations += sweeps;
      st.residual = relative_residual(rb);
      st.history.push_back(st.residual);
      st.converged = st.residual <= s.tol;
    }
    limit_state(ex_, rhs_.clamp, as_const(buf[to]), state_[1 - cur].view(), bc_);
  }

  // The tiled steps' solver: two species, one group.
  Solver& solver() { return *solvers_[0]; }
  const Solver& solver() const { return *solvers_[0]; }

  void record(const SolveStats& st) {
    const SolverMethod method = solvers3_.empty() ? solver().settings().method : solvers3_[0]->settings().method;
    record_solve(totals_, st, method, "reduce time.dt");
  }

  T theta_;
  bool has_previous_ = false;
  Field<T> b_;
  std::vector<std::unique_ptr<Solver>> solvers_;    // one a group of species (2D grids)
  std::vector<std::unique_ptr<Solver3>> solvers3_;  // the same on a 3D grid
  bool tiled_ = false;  // the one-launch device step (cuda/theta_tiles.cuh)
  Buffer<ThetaQueue> queue_;  // the device's record of queued steps
  ThetaQueue log_{};          // its copy on the host
  int extra_ = 0;             // launches queued per step after the first: what the last queue's steps took
  static constexpr int min_batch = 16;
  int batch_ = min_batch;     // steps queued at once
  SolverTotals totals_;
};

}  // namespace pdex::ard_detail
