#pragma once
// The templated engine behind time_linalg_on(); included by the executor translation units.
#include <algorithm>
#include <chrono>
#include <limits>
#include <vector>

#include "pdex/grid/field.hpp"
#include "pdex/linalg/grid_assembly.hpp"
#include "pdex/linalg/linalg_timing.hpp"
#include "pdex/linalg/device_relaxation.hpp"
#include "pdex/linalg/linear_solver.hpp"
#include "pdex/linalg/matrix_system.hpp"
#include "pdex/linalg/stored_matrix.hpp"
#include "pdex/linalg/vector_ops.hpp"

namespace pdex {
namespace timing_detail {

// Median seconds per call of f (`calls` calls per sample, after one warm-up sample).
template <class Exec, class F>
double median_seconds(const Exec& ex, int repeats, int calls, F&& f) {
  std::vector<double> t;
  for (int r = 0; r <= repeats; ++r) {
    finish(ex);
    const auto t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < calls; ++k) f();
    finish(ex);
    if (r > 0) t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / calls);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// q = A u matrix-free (nvcc wants the device lambda in a named function, not in the timing lambda).
template <class Exec, class T>
void apply_stencil(const Exec& ex, const Helmholtz<T>& op, FieldView<const T> u, FieldView<T> q) {
  for_each_cell(ex, u.interior(), [=] PDEX_HD(int i, int j) { q(0, i, j) = op.apply(u, i, j, 0); });
}

template <class Exec, class T>
LinalgTimings run(const Exec& ex, Extents2 n, int repeats) {
  LinalgTimings out;
  Vector<T> x = make_vector(std::vector<T>(std::size_t(n.cells()), T(1)), Exec::space), y = x.like(Exec::space);
  volatile double sink = 0;  // keeps the compiler from dropping a reduce whose result is unused
  out.reduce = median_seconds(ex, repeats, 20, [&] { sink = sink + sum(ex, x); });
  out.axpy = median_seconds(ex, repeats, 20, [&] { axpy(ex, T(0.5), x, y); });

  const Grid2 g{n.nx, n.ny};
  const FieldBoundary bc = FieldBoundary::all(BcKind::dirichlet);
  Field<T> u(g, 1, 1, Exec::space), q = u.like(Exec::space);
  const double beta = 1;
  const Helmholtz<T> op = make_helmholtz<T>(g, u.view().pitch, 0.0, &beta, 1, bc);
  FieldView<const T> uv = u.cview();
  FieldView<T> qv = q.view();
  out.stencil = median_seconds(ex, repeats, 20, [&] { apply_stencil(ex, op, uv, qv); });
  const CsrMatrix<T> a = assemble_csr(op);
  CsrOn<Exec, T> m(ex, a);
  out.csr = median_seconds(ex, repeats, 20, [&] { m.apply(x.cview(), y.view()); });

  // CG at a fixed iteration count (tol 0 never stops early): the cost of one iteration.
  const int iters = 20;
  SolverSettings s;
  s.method = SolverMethod::cg;
  s.tol = 0;
  s.max_iter = iters;
  LinearSolver<Exec, T> grid_cg(ex, u, op, bc, s);
  Field<T> b = u.like(Exec::space), sol = u.like(Exec::space);
  fill_all(ex, b.view(), T(1));
  out.cg_grid = median_seconds(ex, repeats, 1, [&] { grid_cg.solve(sol.view(), b.cview()); }) / iters;
  Vector<T> w[8];
  for (auto& v : w) v = x.like(Exec::space);
  const KrylovVectors<T> kv{w[0].view(), w[1].view(), w[2].view(), w[3].view(),
                            w[4].view(), w[5].view(), w[6].view(), w[7].view()};
  MatrixSystem<Exec, T, CsrOn<Exec, T>> sys{ex, &m, {}};
  out.cg_csr = median_seconds(ex, repeats, 1, [&] { cg(ex, sys, y.view(), x.cview(), kv, KrylovGoal{0, iters, 1}); }) / iters;
  return out;
}

// One sweep as the solvers take it (linear_solver.hpp's relax): Jacobi from `from` into `to`; red-black
// SOR into `to` where the solvers sweep out of place, else of `from` in place.
template <class Exec, class T>
T sweep_once(const Exec& ex, const Helmholtz<T>& op, bool jacobi, Field<T>& from, Field<T>& to, const Field<T>& b,
             const FieldBoundary& bc, bool measure) {
  if (jacobi) return jacobi_sweep(ex, op, from.cview(), b.cview(), to.view(), bc, T(1), measure);
  if (!sweeps_into<Exec>(from)) return rb_sweep(ex, op, from.view(), b.cview(), bc, T(1.5), false, measure);
  return rb_sweep_into(ex, op, from.cview(), b.cview(), to.view(), bc, T(1.5), false, measure);
}

// Seconds per sweep of a queue of sweeps as a long relaxation solve on the GPU queues them
// (DeviceRelaxation::queued, queue_sweeps): SweepLog::max_tests change tests, one after every `every`-th
// sweep, with a threshold that no sweep reaches, the log read at the end.
template <class Exec, class T>
double queued_sweeps(const Exec& ex, const Helmholtz<T>& op, bool jacobi, int every, Field<T>& x, Field<T>& y,
                     const Field<T>& b, const FieldBoundary& bc, int repeats) {
  Buffer<SweepLog> log(1, Exec::space);
  SweepLog got{};
  volatile double sink = 0;
  int sweeps = 1;
  auto queue = [&] {
    const SweepQueue q = queue_sweeps(ex, op, jacobi, x.view(), y.view(), b.cview(), bc, T(jacobi ? 1 : 1.5),
                                      log.data(), every, SweepLog::max_tests, std::numeric_limits<int>::max(), 0.0);
    read_sweep_log(ex, log.data(), q.tests, got);
    sink = sink + got.change(q.tests - 1);
    sweeps = q.sweeps;
  };
  return median_seconds(ex, repeats, 1, queue) / sweeps;
}

template <class Exec, class T>
SweepTimings sweeps(const Exec& ex, int n, int repeats) {
  const Grid2 g{n, n};
  const FieldBoundary bc = FieldBoundary::all(BcKind::dirichlet);
  Field<T> x(g, 1, 1, Exec::space), y = x.like(Exec::space), b = x.like(Exec::space);
  fill_all(ex, b.view(), T(1));
  fill_all(ex, x.view(), T(0));
  fill_all(ex, y.view(), T(0));
  const double beta = 1;
  const Helmholtz<T> op = make_helmholtz<T>(g, x.view().pitch, 0.0, &beta, 1, bc);
  volatile double sink = 0;
  // Sweeps there and back, every `every`-th measured (0: none).
  auto per_sweep = [&](bool jacobi, int every) {
    const int count = std::max(2, 2 * every);
    auto run = [&] {
      for (int k = 0; k < count; ++k)
        sink = sink + double(sweep_once(ex, op, jacobi, k % 2 ? y : x, k % 2 ? x : y, b, bc,
                                        every > 0 && (k + 1) % every == 0));
    };
    return median_seconds(ex, repeats, std::max(1, 20 / count), run) / count;
  };
  const int every = SolverSettings{}.check_every;
  SweepTimings t;
  t.jacobi = per_sweep(true, 0);
  t.red_black = per_sweep(false, 0);
  if constexpr (LinalgSchedules<Exec>::queued_sweeps) {
    t.jacobi_tested = queued_sweeps(ex, op, true, 1, x, y, b, bc, repeats);
    t.red_black_tested = queued_sweeps(ex, op, false, 1, x, y, b, bc, repeats);
    t.jacobi_solve = queued_sweeps(ex, op, true, every, x, y, b, bc, repeats);
    t.red_black_solve = queued_sweeps(ex, op, false, every, x, y, b, bc, repeats);
  } else {
    t.jacobi_tested = per_sweep(true, 1);
    t.red_black_tested = per_sweep(false, 1);
    t.jacobi_solve = per_sweep(true, every);
    t.red_black_solve = per_sweep(false, every);
  }
  return t;
}

}  // namespace timing_detail

template <class Exec>
SweepTimings time_sweeps_on(const Exec& ex, Precision precision, int n, int repeats) {
  if (precision == Precision::f32) return timing_detail::sweeps<Exec, float>(ex, n, repeats);
  return timing_detail::sweeps<Exec, double>(ex, n, repeats);
}

template <class Exec>
LinalgTimings time_linalg_on(const Exec& ex, Precision precision, Extents2 n, int repeats) {
  if (precision == Precision::f32) return timing_detail::run<Exec, float>(ex, n, repeats);
  return timing_detail::run<Exec, double>(ex, n, repeats);
}

}  // namespace pdex
