#pragma once
// The templated engine behind make_chemotaxis_stepper_on(); included once per executor translation unit.
// Forward Euler in time (seed 002 eq. (15)); the pressure, or Keller-Segel's elliptic c, is solved
// after every step so that it always belongs to the current state.
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "pdex/core/error.hpp"
#include "pdex/grid/block_step.hpp"
#include "pdex/grid/field.hpp"
#include "pdex/grid/field_reductions.hpp"
#include "pdex/grid/fill_ghosts.hpp"
#include "pdex/linalg/helmholtz3.hpp"
#include "pdex/linalg/linear_solver.hpp"
#include "pdex/linalg/make_on_grid.hpp"
#include "pdex/models/chemotaxis/chemotaxis_kernels.hpp"
#include "pdex/models/chemotaxis/chemotaxis_stepper.hpp"
#include "pdex/time/solver_totals.hpp"
#include "pdex/time/field_stats.hpp"
#include "pdex/time/save_copy.hpp"

namespace pdex {
namespace chemotaxis_detail {

// One component of a field as a one-component view (the solvers' unknown or right-hand side).
template <class T>
FieldView<T> component(FieldView<T> f, int c) {
  f.data = f.comp(c);
  f.ncomp = 1;
  return f;
}

// Seed 002 eqs. (11)-(13) with the five-point Laplacian of eq. (8) (1/h^2: see docs/seeds.md), the
// chemotactic term in conservative form; `src` (may be empty) is a manufactured forcing.
template <class Exec, class T>
void stokes_step(const Exec& ex, FieldView<const T> w, FieldView<const T> P, FieldView<const T> phi,
                 TensorParam<T> s, FieldView<const T> src, FieldView<T> out, const FieldBoundary& bc, Spacing<T> h,
                 T dt, const CellBox& box) {
  for_each_cell(ex, Range2{box.lo[0], box.hi[0], box.lo[1], box.hi[1]}, [=] PDEX_HD(int i, int j) {
    const int64_t o = w.offset(i, j);
    const T *n = w.comp(comp_n), *c = w.comp(comp_c), *u1 = w.comp(comp_u1), *u2 = w.comp(comp_u2);
    const T *p = P.comp(0), *f = phi.comp(0);
    const T a = u1[o], b = u2[o];
    T v[4];
    v[comp_n] = n[o] + dt * (div_cell_flux(n, c, o, s, h) - advect_centered(n, o, a, b, h));            // eq. (1)_1
    v[comp_c] = c[o] + dt * (lap(c, o, h) - n[o] * c[o] - advect_centered(c, o, a, b, h));              // eq. (11)
    v[comp_u1] = a + dt * (lap(u1, o, h) + ddx(p, o, h) + n[o] * ddx(f, o, h));                          // eq. (12)
    v[comp_u2] = b + dt * (lap(u2, o, h) + ddy(p, o, h) + n[o] * ddy(f, o, h));
    for (int k = 0; k < 4; ++k) {
      if (src.data) v[k] += dt * src.comp(k)[o];
      out.comp(k)[o] = v[k];
    }
    if (near_boundary(out, i, j))
      for (int k = 0; k < 4; ++k) push_ghosts(out, bc, k, i, j, v[k]);
  });
}

// Keller-Segel: n_t = div(grad n - chi n grad c); c_t = lap c + n - c, or (elliptic) c kept for the solve.
// A 3D field's cells by interior rows, its z faces' fluxes added.
template <class Exec, class T>
void keller_segel_step(const Exec& ex, FieldView<const T> w, FieldView<T> out, const FieldBoundary& bc, Spacing<T> h,
                       T dt, T chi, bool elliptic, const CellBox& b) {
  const TensorParam<T> s{nullptr, 0, {chi, T(0), T(0), chi}};
  const bool volume = w.nz > 1;
  for_each_box_cell(ex, b, w.ny, [=] PDEX_HD(int i, int r) {
    const int64_t o = w.row_offset(i, r);
    const T *n = w.comp(comp_n), *c = w.comp(comp_c);
    const T div = volume ? div_cell_flux(n, c, o, s, h) + div_z_flux(n, c, o, chi, h) : div_cell_flux(n, c, o, s, h);
    const T vn = n[o] + dt * div;
    const T vc = elliptic ? c[o] : c[o] + dt * (lap_any(c, o, h, volume) + n[o] - c[o]);
    out.comp(comp_n)[o] = vn;
    out.comp(comp_c)[o] = vc;
    push_row_images(out, bc, comp_n, i, r, vn);
    push_row_images(out, bc, comp_c, i, r, vc);
  });
}

// b = div(n grad phi) (+ g): the right-hand side of -lap P = b.
template <class Exec, class T>
void pressure_source(const Exec& ex, FieldView<const T> w, FieldView<const T> phi, FieldView<const T> g,
                     FieldView<T> b, Spacing<T> h) {
  for_each_cell(ex, w.interior(), [=] PDEX_HD(int i, int j) {
    const int64_t o = w.offset(i, j);
    b.comp(0)[o] = pressure_rhs(w.comp(comp_n), phi.comp(0), o, h) + (g.data ? g.comp(0)[o] : T(0));
  });
}

// A host field whose component k holds *comps[k]: interior values (row-major), or, on a 2D grid, interior
// and ghost values when given with the ring ((ny+2) x (nx+2)); an empty vector leaves the component 0.
template <class T>
Field<T> host_field(const Grid2& g, const std::vector<const std::vector<double>*>& comps) {
  Field<T> f(g, int(comps.size()), 1, MemorySpace::host);
  auto v = f.view();
  for (std::size_t k = 0; k < comps.size(); ++k) {
    const std::vector<double>& src = *comps[k];
    if (src.empty()) continue;
    const int ring = int64_t(src.size()) == g.extents().grown(1).cells() ? 1 : 0;
    if (!ring) {
      f.set_interior(int(k), src);
      continue;
    }
    const Extents2 given = g.extents().grown(ring);
    for_each_cell(given, [&](int i, int j) { v(int(k), i - ring, j - ring) = T(src[std::size_t(given.index(i, j))]); });
  }
  return f;
}

// Op: the solves' operator, Helmholtz<T> on a 2D grid, Helmholtz3<T> on a 3D one (Keller-Segel's alone).
template <class Exec, class T, class Op>
class ChemotaxisStepper final : public Stepper {
 public:
  ChemotaxisStepper(const Exec& ex, const ChemotaxisSpec& spec) : ex_(ex), spec_(spec), dt_(T(spec.dt)) {
    const Grid2& g = spec.grid;
    stokes_ = spec.kind == ChemotaxisKind::stokes;
    elliptic_ = spec.kind == ChemotaxisKind::keller_segel_elliptic;
    names_ = stokes_ ? std::vector<std::string>{"n", "c", "u1", "u2", "P"} : std::vector<std::string>{"n", "c"};
    Field<T> host = stokes_ ? host_field<T>(g, {&spec.n0, &spec.c0, &spec.u10, &spec.u20})
                            : host_field<T>(g, {&spec.n0, &spec.c0});
    fill_ghosts(Serial{}, host, spec.bc);
    exchange_halo(spec.halo, host.view(), spec.bc, MemorySpace::host);
    h_ = g.is_3d() ? Spacing<T>::make(g.dx, g.dy, host.view().pitch, g.dz, host.view().plane)
                   : Spacing<T>::make(g.dx, g.dy, host.view().pitch);
    w_[1] = host.like(Exec::space);
    parts_ = block_parts(spec.halo, g.extents(), host.view().ghost);
    w_[0] = into_space(std::move(host), Exec::space);
    n_max0_ = max_over_ranks(*std::max_element(spec.n0.begin(), spec.n0.end()));
    const Field<T> layout(g, 1, 1, MemorySpace::host);
    if (stokes_) set_up_stokes(layout);
    if (elliptic_) set_up_elliptic(layout);
  }

  const std::vector<std::string>& field_names() const override { return names_; }

  void advance(int64_t steps) override {
    for (int64_t k = 0; k < steps; ++k) {
      FieldView<const T> w = w_[cur_].cview();
      FieldView<T> out = w_[1 - cur_].view();
      step_and_exchange(spec_.halo, parts_, out, spec_.bc, Exec::space, [&](const CellBox& b) {
        if (stokes_) stokes_step(ex_, w, P_.cview(), phi_.cview(), s_, src_.cview(), out, spec_.bc, h_, dt_, b);
        else keller_segel_step(ex_, w, out, spec_.bc, h_, dt_, T(spec_.chi), elliptic_, b);
      });
      cur_ = 1 - cur_;
      solve();
    }
  }

  std::vector<double> values(int f) override {
    const auto [field, c] = home(f);
    const std::vector<T> v = to_space(field, MemorySpace::host).interior(c);
    return std::vector<double>(v.begin(), v.end());
  }
  FieldMemory rows(int f) override {
    const auto [field, c] = home(f);
    return field_memory(field, c);
  }
  FieldStats stats(int f) override {
    const auto [field, c] = home(f);
    return field_stats(ex_, field.cview(), c);
  }
  QuantizedField quantized(int f) override {
    const auto [field, c] = home(f);
    return quantize(ex_, field, c, frame_scratch_);
  }
  int64_t first_nonfinite(int f) override {
    const auto [field, c] = home(f);
    return pdex::first_nonfinite(ex_, field.cview(), c);
  }
  // The stepped fields (n, c; u1, u2 for Stokes; n alone where c solves an elliptic equation); the solve
  // then brings the computed ones up to date.
  bool settable(int field) const override {
    return field == comp_n || (!elliptic_ && field > comp_n && field < w_[cur_].components());
  }
  void set_values(int field, const std::vector<double>& v) override {
    set_interior_values(w_[cur_], field, v, spec_.bc);
    exchange_halo(spec_.halo, w_[cur_].view(), spec_.bc, Exec::space);
    solve();
  }
  void save() override { save_copy(saved_, w_[cur_]); }
  void restore() override {
    copy(w_[cur_], saved_);
    solve();
  }
  // The computed fields are where their next solves start: set_values solved them afresh, from another start.
  std::vector<NamedArray> extra_state() override {
    if (stokes_) return {cells_array("P", P_)};
    if (elliptic_) return {cells_array("state", w_[cur_])};
    return {};
  }
  void set_extra_state(const std::vector<NamedArray>& s) override {
    if (stokes_) {
      set_cells_array(P_, s, "P", p_bc_);
      exchange_halo(spec_.halo, P_.view(), p_bc_, Exec::space);
    }
    if (!elliptic_) return;
    set_cells_array(w_[cur_], s, "state", spec_.bc);
    exchange_halo(spec_.halo, w_[cur_].view(), spec_.bc, Exec::space);
  }
  double bytes_per_step() const override {
    return double(2 * w_[0].components() + (stokes_ ? 3 : 0)) * sizeof(T) * double(spec_.grid.cells());
  }
  const SolverTotals* solver_totals() const override { return solver_ ? &totals_ : nullptr; }

  // Keller-Segel's blow-up in finite time shows first as a growing peak of n (over every rank's block:
  // each rank asks, and all decide alike).
  std::string warning() override {
    const double m = max_over_ranks(double(field_max(ex_, w_[cur_].cview(), comp_n)));
    if (warned_ || !(m > spec_.growth_warning * n_max0_)) return {};
    warned_ = true;
    return "max n = " + std::to_string(m) + " exceeds " + std::to_string(spec_.growth_warning) +
           " times its initial maximum " + std::to_string(n_max0_) +
           ": the solution concentrates toward blow-up; refine the grid (grid.nx, grid.ny) to resolve the peak, "
           "or raise model.growth_warning to silence this";
  }

 private:
  double max_over_ranks(double x) const { return spec_.halo ? spec_.halo->max_over_ranks(x) : x; }

  // Where field f lies: a component of the stepped state, or the Stokes pressure (the last field).
  std::pair<Field<T>&, int> home(int f) {
    if (f < w_[cur_].components()) return {w_[cur_], f};
    return {P_, 0};
  }

  void set_up_stokes(const Field<T>& layout) {
    const ChemotaxisSpec& s = spec_;
    const Grid2& g = s.grid;
    phi_ = into_space(host_field<T>(g, {&s.phi}), Exec::space);
    const bool varies = s.s[0].varies() || s.s[1].varies() || s.s[2].varies() || s.s[3].varies();
    s_.value = {T(s.s[0].value), T(s.s[1].value), T(s.s[2].value), T(s.s[3].value)};
    if (varies) {
      // A block's varying entries come with their ring (the neighbouring blocks' cells).
      const auto ringed = [&](const std::vector<double>& v) {
        return int64_t(v.size()) == g.extents().grown(1).cells() ? v : with_ghost_ring(v, g.extents());
      };
      std::vector<double> comps[4];
      for (int k = 0; k < 4; ++k)
        comps[k] = ringed(s.s[k].varies() ? s.s[k].cells : std::vector<double>(std::size_t(g.cells()), s.s[k].value));
      s_field_ = into_space(host_field<T>(g, {&comps[0], &comps[1], &comps[2], &comps[3]}), Exec::space);
      s_.cells = s_field_.cview().data;
      s_.comp_stride = s_field_.cview().comp_stride;
    }
    if (!s.sources[0].empty() || !s.sources[1].empty() || !s.sources[2].empty() || !s.sources[3].empty())
      src_ = into_space(host_field<T>(g, {&s.sources[0], &s.sources[1], &s.sources[2], &s.sources[3]}), Exec::space);
    if (!s.pressure_source.empty()) g_ = into_space(host_field<T>(g, {&s.pressure_source}), Exec::space);
    P_ = layout.like(Exec::space);
    b_ = layout.like(Exec::space);
    // P = 0 on the sides: the seed's Dirichlet conditions (its "P = n" at t = 0 is overridden by the
    // first solve, which makes P belong to n_0; docs/seeds.md). A block's shared sides stay the exchange's.
    p_bc_ = FieldBoundary::all(BcKind::dirichlet, 0.0);
    for (int side = 0; side < side_count; ++side)
      if (s.bc.side[side][comp_n].kind == BcKind::periodic) p_bc_.side[side][0] = SideBc{BcKind::periodic};
    make_solver(layout, 0.0, p_bc_);
    solve();
  }

  // c - lap c = n with c's zero-flux conditions.
  void set_up_elliptic(const Field<T>& layout) {
    FieldBoundary cbc = FieldBoundary::all(BcKind::neumann);
    for (int side = 0; side < side_count; ++side) cbc.side[side][0] = spec_.bc.side[side][comp_c];
    make_solver(layout, 1.0, cbc);
    solve();
  }

  void make_solver(const Field<T>& layout, double alpha, const FieldBoundary& bc) {
    const Grid2& g = spec_.grid;
    const double beta = 1.0;
    const Op op = make_grid_operator<Op>(g, layout.view(), alpha, &beta, 1, bc);
    solver_ = std::make_unique<LinearSolver<Exec, T, Op>>(ex_, layout, op, bc, spec_.solver, spec_.halo);
  }

  // The pressure of the current n (seed 002's Poisson equation), or Keller-Segel's elliptic c.
  void solve() {
    if (stokes_) {
      pressure_source(ex_, w_[cur_].cview(), phi_.cview(), g_.cview(), b_.view(), h_);
      record(solver_->solve(P_.view(), b_.cview()));
    } else if (elliptic_) {
      FieldView<T> w = w_[cur_].view();
      record(solver_->solve(component(w, comp_c), component(FieldView<const T>(w_[cur_].cview()), comp_n)));
    }
  }

  // A non-finite residual means the state already holds NaN/Inf: left to the run's guard, which names
  // the step, field and cell.
  void record(const SolveStats& st) {
    if (std::isfinite(st.residual)) record_solve(totals_, st, spec_.solver.method);
  }

  Exec ex_;
  ChemotaxisSpec spec_;
  T dt_;
  bool stokes_ = false, elliptic_ = false, warned_ = false;
  double n_max0_ = 0;
  Spacing<T> h_{};
  Field<T> w_[2], saved_, P_, b_, phi_, s_field_, src_, g_;
  FieldBoundary p_bc_;  // the pressure's sides (Stokes)
  Buffer<uint16_t> frame_scratch_;
  TensorParam<T> s_;
  int cur_ = 0;
  BorderSplit parts_;  // the step's cells: beside the sent sides, then the rest (block_step.hpp)
  std::unique_ptr<LinearSolver<Exec, T, Op>> solver_;
  SolverTotals totals_;
  std::vector<std::string> names_;
};

}  // namespace chemotaxis_detail

template <class Exec>
std::unique_ptr<Stepper> make_chemotaxis_stepper_on(const Exec& ex, const ChemotaxisSpec& spec, Precision precision) {
  if (spec.grid.is_3d() && spec.kind == ChemotaxisKind::stokes)
    throw InputError("chemotaxis-Stokes (seed 002) is 2D; Keller-Segel takes 3D grids");
  return make_on_grid<Stepper, chemotaxis_detail::ChemotaxisStepper>(ex, spec, precision);
}

}  // namespace pdex
