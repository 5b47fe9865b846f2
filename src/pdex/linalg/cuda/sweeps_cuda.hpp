#pragma once
// The CUDA executor's relaxation schedules (LinalgSchedules<Cuda>), declared for the generic solvers
// that call them; the kernels are in this folder, instantiated in engine_cuda.cu. Declarations only, so
// host-only builds include them too: no host executor's code calls them.
#include "pdex/core/executor.hpp"
#include "pdex/grid/boundary.hpp"
#include "pdex/grid/field_view.hpp"
#include "pdex/linalg/helmholtz.hpp"
#include "pdex/linalg/helmholtz3.hpp"
#include "pdex/linalg/sweep_queue.hpp"

namespace pdex {

// On CUDA the run is one cooperative launch, its colours a grid barrier apart, with one host wait where
// it measures (cuda/sweep_runs.cuh): rb_sweep takes a launch a colour and, measuring, a wait a colour.
template <class T, bool Tensor>
T rb_sweeps(const Cuda& ex, const Helmholtz<T, Tensor>& op, FieldView<T> x, FieldView<const T> b,
            const FieldBoundary& bc, T omega, bool reverse, int sweeps, bool measure);

// On CUDA both sweeps are one launch over shared-memory tiles (cuda/tile_sweep.cuh, instantiated in
// engine_cuda.cu), for five-point operators; a tensor's take the generic templates (relaxation.hpp).
template <class T>
T rb_sweep_into(const Cuda& ex, const Helmholtz<T>& op, FieldView<const T> in, FieldView<const T> b, FieldView<T> out,
                const FieldBoundary& bc, T omega, bool reverse, bool measure);
template <class T>
void rb_sweep_pair_into(const Cuda& ex, const Helmholtz<T>& op, FieldView<const T> in, FieldView<const T> b,
                        FieldView<T> out, const FieldBoundary& bc, T omega, bool reverse);
// On a 3D grid one launch that walks planes of shared-memory tiles (cuda/tile_sweep3.cu), for
// seven-point operators whose colours close (colours_close).
template <class T>
void rb_sweep3_into(const Cuda& ex, const Helmholtz3<T>& op, FieldView<const T> in, FieldView<const T> b,
                    FieldView<T> out, const FieldBoundary& bc, T omega, bool reverse);
template <class T>
T jacobi_sweep(const Cuda& ex, const Helmholtz<T>& op, FieldView<const T> in, FieldView<const T> b, FieldView<T> out,
               const FieldBoundary& bc, T omega, bool measure);

// `sweeps` (1 or fused_sweeps) Jacobi sweeps, or red-black ones (red first) as rb_sweep_into, queued, from
// `in` into `out`: one launch, no host wait (cuda/tile_sweep.cuh, cuda/fused_sweep.cuh); only the last
// is tested. Red-black needs colours that close.
template <class T>
void queued_sweep(const Cuda& ex, const Helmholtz<T>& op, bool jacobi, int sweeps, FieldView<const T> in,
                  FieldView<const T> b, FieldView<T> out, const FieldBoundary& bc, T omega, const QueuedTest& test);
// Change tests after every sweep in a queue of launches (cuda/fused_sweep.cuh's tested_sweeps_kernel):
// test.tests (0 to tested_sweeps<T>(jacobi)) sweeps from `in` into `out`, each tested. Where a test of a launch but
// its last passes, the launch after it (queued with the same `in` and `out` as one more launch would take;
// test.tests 0 where the queue ends there) makes the sweeps up to that test again, from the launch's input
// into its output, so that the queue leaves the field that single tested launches leave.
template <class T>
void queued_tested_sweeps(const Cuda& ex, const Helmholtz<T>& op, bool jacobi, FieldView<const T> in,
                          FieldView<const T> b, FieldView<T> out, const FieldBoundary& bc, T omega,
                          const QueuedTest& test);
// The residual test `test.test` of a queue: |b - A x|^2 into the test's row, nothing where a test before
// it passed (cuda/tile_sweep.cuh).
template <class T>
void queued_residual(const Cuda& ex, const Helmholtz<T>& op, FieldView<const T> x, FieldView<const T> b,
                     const QueuedTest& test);
// Clears the log's stop word and first `tests` rows behind everything queued; reads them into `to`,
// waiting.
void clear_sweep_log(const Cuda& ex, SweepLog* log, int tests);
void read_sweep_log(const Cuda& ex, const SweepLog* log, int tests, SweepLog& to);

// The whole queue in one launch, on grids of up to a tile a multiprocessor (cuda/resident_sweep.cuh);
// false, with nothing queued, elsewhere.
template <class T>
bool resident_sweeps(const Cuda& ex, const Helmholtz<T>& op, bool jacobi, FieldView<T> x, FieldView<T> other,
                     FieldView<const T> b, const FieldBoundary& bc, T omega, SweepLog* log, const QueuePlan& plan,
                     double below, bool residual, SweepQueue& q);

// A relaxation solve's in-place red-black sweeps (four colours for a tensor: rb_sweep's) and its tests in
// one cooperative launch (cuda/sweep_runs.cuh), for the operators and grids the queued sweeps do not
// take (DeviceRelaxation::one_launch): a test after every `every`-th sweep and after sweep `max_sweeps`, up
// to `tests` tests (QueuePlan). Each test is LinearSolver::relax's: the last sweep's largest change
// passes below `below` (+infinity: no change test); then, where tol > 0, |b - A x| <= tol |b|. The log
// holds each test's change and |b - A x|^2, |b|^2 and the test that passed (stop). False, with nothing
// launched, where the GPU takes no cooperative launch.
template <class T, bool Tensor>
bool relax_in_one_launch(const Cuda& ex, const Helmholtz<T, Tensor>& op, FieldView<T> x, FieldView<const T> b,
                         const FieldBoundary& bc, T omega, SweepLog* log, const QueuePlan& plan, double below,
                         double tol);

}  // namespace pdex
