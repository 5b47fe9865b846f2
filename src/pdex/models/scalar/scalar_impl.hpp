#pragma once
// The templated engine behind make_scalar_stepper_on(); included once per executor translation unit.
#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "pdex/core/error.hpp"
#include "pdex/grid/block_step.hpp"
#include "pdex/grid/cell_source.hpp"
#include "pdex/grid/field.hpp"
#include "pdex/grid/field_reductions.hpp"
#include "pdex/grid/fill_ghosts.hpp"
#include "pdex/linalg/helmholtz3.hpp"
#include "pdex/linalg/linear_solver.hpp"
#include "pdex/linalg/make_on_grid.hpp"
#include "pdex/models/scalar/scalar_stepper.hpp"
#include "pdex/time/field_stats.hpp"
#include "pdex/time/save_copy.hpp"
#include "pdex/time/solver_totals.hpp"

namespace pdex {
namespace scalar_detail {

// out = in + dt (D lap in + f) at the cells of box b, with boundary images: the explicit heat step.
template <class Exec, class T>
void heat_euler_step(const Exec& ex, FieldView<const T> in, FieldView<const T> f, FieldView<T> out,
                     const FieldBoundary& bc, Spacing<T> h, T dt, T D, const CellBox& b) {
  const bool volume = in.nz > 1;
  for_each_box_cell(ex, b, in.ny, [=] PDEX_HD(int i, int r) {
    const int64_t o = in.row_offset(i, r);
    const T v = in.comp(0)[o] + dt * (D * lap_any(in.comp(0), o, h, volume) + f.comp(0)[o]);
    out.comp(0)[o] = v;
    push_row_images(out, bc, 0, i, r, v);
  });
}

// b = u + dt ((1 - theta) D lap u + f): the theta step's right-hand side (seed 000 eq. 13 without reaction).
template <class Exec, class T>
void heat_theta_rhs(const Exec& ex, FieldView<const T> u, FieldView<const T> f, FieldView<T> b, Spacing<T> h, T dt,
                    T explicit_D) {
  const bool volume = u.nz > 1;
  for_each_cell(ex, u.interior_rows(), [=] PDEX_HD(int i, int r) {
    const int64_t o = u.row_offset(i, r);
    b.comp(0)[o] = u.comp(0)[o] + dt * (explicit_D * lap_any(u.comp(0), o, h, volume) + f.comp(0)[o]);
  });
}

// Op: Helmholtz<T> on a 2D grid, Helmholtz3<T> on a 3D one.
template <class Exec, class T, class Op>
class ScalarStepper final : public Stepper {
 public:
  ScalarStepper(const Exec& ex, const ScalarModelSpec& spec)
      : ex_(ex), spec_(spec), dt_(T(spec.dt)) {
    // u made in T a row at a time, with its ghosts, where the run keeps it.
    Field<T> host = field_of<T>(spec.grid, spec.u0);
    fill_ghosts(Serial{}, host, spec.bc);
    u_[0] = into_space(std::move(host), Exec::space);
    const FieldView<const T> layout = u_[0].cview();
    h_ = Spacing<T>::make(spec.grid.dx, spec.grid.dy, layout.pitch, spec.grid.dz, layout.plane);
    parts_ = block_parts(spec.halo, spec.grid.extents(), layout.ghost);
    exchange_halo(spec.halo, u_[0].view(), spec.bc, Exec::space);
    const bool solves = spec.steady || spec.theta > 0;
    if (!solves) u_[1] = u_[0].like(Exec::space);  // forward Euler's next level; a solve updates u in place
    Field<T> f = u_[0].like(MemorySpace::host);
    if (!spec.source.empty()) f.set_interior(0, spec.source);
    f_ = into_space(std::move(f), Exec::space);
    if (solves) {
      if (!spec.steady) b_ = u_[0].like(Exec::space);  // the theta step's right-hand side (steady: f_)
      // Steady: -D lap u = f. Theta: (I - theta dt D lap) u = b.
      const double alpha = spec.steady ? 0.0 : 1.0, beta = spec.steady ? spec.D : spec.theta * spec.dt * spec.D;
      const Op op = make_grid_operator<Op>(spec.grid, layout, alpha, &beta, 1, spec.bc);
      solver_ = std::make_unique<LinearSolver<Exec, T, Op>>(ex, u_[0], op, spec.bc, spec.solver, spec.halo);
    }
  }

  const std::vector<std::string>& field_names() const override { return names_; }

  void advance(int64_t steps) override {
    for (int64_t k = 0; k < steps; ++k) {
      if (spec_.steady) {
        record(solver_->solve(u_[cur_].view(), f_.cview()));
      } else if (spec_.theta > 0) {
        heat_theta_rhs(ex_, u_[cur_].cview(), f_.cview(), b_.view(), h_, dt_, T((1 - spec_.theta) * spec_.D));
        record(solver_->solve(u_[cur_].view(), b_.cview()));
      } else {
        const FieldView<const T> in = u_[cur_].cview();
        const FieldView<T> out = u_[1 - cur_].view();
        step_and_exchange(spec_.halo, parts_, out, spec_.bc, Exec::space,
                          [&](const CellBox& b) { heat_euler_step(ex_, in, f_.cview(), out, spec_.bc, h_, dt_, T(spec_.D), b); });
        cur_ = 1 - cur_;
      }
    }
  }

  std::vector<double> values(int) override { return interior_values(u_[cur_], 0); }
  FieldStats stats(int) override { return field_stats(ex_, u_[cur_].cview(), 0); }
  QuantizedField quantized(int) override { return quantize(ex_, u_[cur_], 0, frame_scratch_); }
  int64_t first_nonfinite(int) override { return pdex::first_nonfinite(ex_, u_[cur_].cview(), 0); }
  bool settable(int field) const override { return field == 0; }
  void set_values(int, const std::vector<double>& v) override {
    set_interior_values(u_[cur_], 0, v, spec_.bc);
    exchange_halo(spec_.halo, u_[cur_].view(), spec_.bc, Exec::space);
  }
  FieldMemory memory(int) override { return field_memory(u_[cur_], 0); }
  void refresh_ghosts() override {
    fill_ghosts(ex_, u_[cur_], spec_.bc);
    exchange_halo(spec_.halo, u_[cur_].view(), spec_.bc, Exec::space);
  }
  void save() override { save_copy(saved_, u_[cur_]); }
  void restore() override { copy(u_[cur_], saved_); }
  double bytes_per_step() const override { return 2.0 * sizeof(T) * double(spec_.grid.cells()); }
  const SolverTotals* solver_totals() const override { return solver_ ? &totals_ : nullptr; }

 private:
  void record(const SolveStats& st) { record_solve(totals_, st, spec_.solver.method); }

  Exec ex_;
  ScalarModelSpec spec_;
  T dt_;
  Spacing<T> h_{};
  Field<T> u_[2], saved_, f_, b_;
  Buffer<uint16_t> frame_scratch_;
  int cur_ = 0;
  BorderSplit parts_;  // the explicit step's cells: beside the sent sides, then the rest (block_step.hpp)
  std::unique_ptr<LinearSolver<Exec, T, Op>> solver_;
  SolverTotals totals_;
  std::vector<std::string> names_{"u"};
};

}  // namespace scalar_detail

template <class Exec>
std::unique_ptr<Stepper> make_scalar_stepper_on(const Exec& ex, const ScalarModelSpec& spec, Precision precision) {
  return make_on_grid<Stepper, scalar_detail::ScalarStepper>(ex, spec, precision);
}

}  // namespace pdex
