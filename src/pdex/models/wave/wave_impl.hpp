#pragma once
// The templated engine behind make_wave_stepper_on(); included once per executor translation unit.
#include <cstdint>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "pdex/core/error.hpp"
#include "pdex/grid/cell_source.hpp"
#include "pdex/grid/field.hpp"
#include "pdex/grid/field_reductions.hpp"
#include "pdex/grid/fill_ghosts.hpp"
#include "pdex/linalg/helmholtz3.hpp"
#include "pdex/linalg/linear_solver.hpp"
#include "pdex/linalg/make_on_grid.hpp"
#include "pdex/models/wave/wave_kernels.hpp"
#include "pdex/models/wave/wave_stepper.hpp"
#include "pdex/time/field_stats.hpp"
#include "pdex/time/save_copy.hpp"
#include "pdex/time/solver_totals.hpp"

namespace pdex {
namespace wave_detail {

// Op: Helmholtz<T> on a 2D grid, Helmholtz3<T> on a 3D one (the Crank-Nicolson solve's operator).
template <class Exec, class T, class Op>
class WaveStepper final : public Stepper {
 public:
  WaveStepper(const Exec& ex, const WaveModelSpec& spec)
      : ex_(ex), spec_(spec), s2_(T(spec.c * spec.dt * spec.c * spec.dt)), rng_(spec.drops.seed) {
    // The displacement in u_[0] and, until the first step writes that level over, the velocity in u_[1]:
    // made in T a row at a time, so that the run holds its three levels and no more.
    u_[0] = into_space(field_of<T>(spec.grid, spec.u0), Exec::space);
    u_[1] = into_space(field_of<T>(spec.grid, spec.v0), Exec::space);
    u_[2] = u_[0].like(Exec::space);
    const FieldView<const T> layout = u_[0].cview();
    h_ = Spacing<T>::make(spec.grid.dx, spec.grid.dy, layout.pitch, spec.grid.dz, layout.plane);
    parts_ = block_parts(spec.halo, spec.grid.extents(), layout.ghost);
    fill_ghosts(ex, u_[0], spec.bc);
    exchange_halo(spec.halo, u_[0].view(), spec.bc, Exec::space);
    wave_start(ex, u_[0].cview(), u_[1].cview(), u_[2].view(), h_, T(spec.dt), s2_);
    fill_ghosts(ex, u_[2], spec.bc);
    exchange_halo(spec.halo, u_[2].view(), spec.bc, Exec::space);
    if (spec.scheme == WaveScheme::crank_nicolson) {
      b_ = u_[0].like(Exec::space);
      const double k = spec.c * spec.dt * spec.c * spec.dt / 4;
      const Op op = make_grid_operator<Op>(spec.grid, layout, 1.0, &k, 1, spec.bc);
      solver_ = std::make_unique<LinearSolver<Exec, T, Op>>(ex, u_[0], op, spec.bc, spec.solver, spec.halo);
    }
  }

  const std::vector<std::string>& field_names() const override { return names_; }

  void advance(int64_t steps) override {
    for (int64_t k = 0; k < steps; ++k) {
      if (spec_.drops.every > 0 && step_ % spec_.drops.every == 0) drop();
      Field<T>&u = u_[cur_], &prev = u_[(cur_ + 2) % 3], &next = u_[(cur_ + 1) % 3];
      if (solver_) {
        wave_cn_rhs(ex_, u.cview(), prev.cview(), b_.view(), next.view(), h_, T(0.25) * s2_);
        record(solver_->solve(next.view(), b_.cview()));
      } else {
        step_and_exchange(spec_.halo, parts_, next.view(), spec_.bc, Exec::space, [&](const CellBox& b) {
          wave_explicit_step(ex_, u.cview(), prev.cview(), next.view(), spec_.bc, h_, s2_, b);
        });
      }
      cur_ = (cur_ + 1) % 3;
      ++step_;
    }
  }

  std::vector<double> values(int) override { return interior_values(u_[cur_], 0); }
  FieldMemory rows(int) override { return field_memory(u_[cur_], 0); }
  FieldStats stats(int) override { return field_stats(ex_, u_[cur_].cview(), 0); }
  QuantizedField quantized(int) override { return quantize(ex_, u_[cur_], 0, frame_scratch_); }
  int64_t first_nonfinite(int) override { return pdex::first_nonfinite(ex_, u_[cur_].cview(), 0); }
  // The previous level moves by as much as the current one: the velocity is kept.
  bool settable(int field) const override { return field == 0; }
  void set_values(int, const std::vector<double>& v) override {
    const std::vector<double> now = values(0);
    std::vector<double> prev = interior_values(u_[(cur_ + 2) % 3], 0);
    for (std::size_t k = 0; k < prev.size() && k < v.size(); ++k) prev[k] += v[k] - now[k];
    set_interior_values(u_[cur_], 0, v, spec_.bc);
    set_interior_values(u_[(cur_ + 2) % 3], 0, prev, spec_.bc);
    for (int s : {cur_, (cur_ + 2) % 3}) exchange_halo(spec_.halo, u_[s].view(), spec_.bc, Exec::space);
  }
  void save() override {
    save_copy(saved_[0], u_[cur_]);
    save_copy(saved_[1], u_[(cur_ + 2) % 3]);
  }
  void restore() override {
    copy(u_[cur_], saved_[0]);
    copy(u_[(cur_ + 2) % 3], saved_[1]);
  }
  // The previous level, the step count that times the drops, and the engine that places them.
  std::vector<NamedArray> extra_state() override {
    std::stringstream engine;
    engine << rng_;
    std::vector<double> words;
    for (uint64_t w; engine >> w;) words.push_back(double(w));  // 32-bit words: exact as doubles
    return {cells_array("previous", u_[(cur_ + 2) % 3]), {"step", {double(step_)}}, {"random_engine", words}};
  }
  void set_extra_state(const std::vector<NamedArray>& s) override {
    set_cells_array(u_[(cur_ + 2) % 3], s, "previous", spec_.bc);
    exchange_halo(spec_.halo, u_[(cur_ + 2) % 3].view(), spec_.bc, Exec::space);
    step_ = int64_t(find_array(s, "step").at(0));
    std::stringstream engine;
    for (double w : find_array(s, "random_engine")) engine << uint64_t(w) << ' ';
    engine >> rng_;
  }
  // Explicit: u and u_prev read, u_next written. Crank-Nicolson: the right-hand side pass alone.
  double bytes_per_step() const override { return 3.0 * sizeof(T) * double(spec_.grid.cells()); }
  const SolverTotals* solver_totals() const override { return solver_ ? &totals_ : nullptr; }

 private:
  // The dent goes into u and u_prev alike: the surface is pushed down at rest, then rings. A 3D grid's
  // drop also draws its plane (after x and y: a 2D grid's drops fall where they always did). A block
  // draws on the whole grid, as every rank does, and places the dent relative to its first cell.
  void drop() {
    const Extents2 w = spec_.whole.nx > 0 ? spec_.whole : spec_.grid.extents();
    std::uniform_int_distribution<int> x(0, w.nx - 1), y(0, w.ny - 1), z(0, w.nz - 1);
    const int ci = x(rng_), cj = y(rng_), ck = w.is_3d() ? z(rng_) : 0;
    for (int s : {cur_, (cur_ + 2) % 3}) {
      wave_drop(ex_, u_[s].view(), ci - spec_.first[0], cj - spec_.first[1], ck - spec_.first[2], T(spec_.drops.radius),
                T(spec_.drops.amplitude));
      fill_ghosts(ex_, u_[s], spec_.bc);
      exchange_halo(spec_.halo, u_[s].view(), spec_.bc, Exec::space);
    }
  }

  void record(const SolveStats& st) {
    add_solve(totals_, st);
    if (!st.converged)
      throw NumericalError("the Crank-Nicolson solve did not converge in " + std::to_string(st.iterations) +
                           " iterations (relative residual " + std::to_string(st.residual) +
                           "); raise solver.max_iter or loosen solver.tol");
  }

  Exec ex_;
  WaveModelSpec spec_;
  T s2_;
  Spacing<T> h_{};
  Field<T> u_[3], saved_[2], b_;
  Buffer<uint16_t> frame_scratch_;
  int cur_ = 0;
  int64_t step_ = 0;
  std::mt19937 rng_;
  BorderSplit parts_;  // the explicit step's cells: beside the sent sides, then the rest (block_step.hpp)
  std::unique_ptr<LinearSolver<Exec, T, Op>> solver_;
  SolverTotals totals_;
  std::vector<std::string> names_{"u"};
};

}  // namespace wave_detail

template <class Exec>
std::unique_ptr<Stepper> make_wave_stepper_on(const Exec& ex, const WaveModelSpec& spec, Precision precision) {
  return make_on_grid<Stepper, wave_detail::WaveStepper>(ex, spec, precision);
}

}  // namespace pdex
