#pragma once
// The templated engine behind make_curvature_stepper_on(); included once per executor translation unit.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "pdex/core/error.hpp"
#include "pdex/grid/field.hpp"
#include "pdex/grid/field_reductions.hpp"
#include "pdex/grid/fill_ghosts.hpp"
#include "pdex/models/curvature/curvature_rhs.hpp"
#include "pdex/models/curvature/curvature_stepper.hpp"
#include "pdex/time/rk/mol_integrator.hpp"
#include "pdex/time/field_stats.hpp"
#include "pdex/time/save_copy.hpp"

namespace pdex::curvature_detail {

constexpr int ghost_width = 1;  // the 9-point stencils of eqs. 36-47 reach one cell, corners included

// w = 0 where phi is prescribed (eq. 13), mirrored where phi is (eqs. 24-25); periodic stays periodic.
inline FieldBoundary w_boundary(const FieldBoundary& bc) {
  FieldBoundary w = bc;
  for (auto& side : w.side)
    if (side[0].kind == BcKind::dirichlet) side[0].value = 0.0;
  return w;
}

// One time level of the space-time error (seed 003 eqs. 31-33) at a cell, in double.
template <class T>
struct ErrorCell {
  FieldView<const T> phi;
  Manufactured<double> m;
  Grid2 g;
  double t;
  bool squared;
  PDEX_HD double operator()(int i, int j) const {
    const double e = double(phi(0, i, j)) - m.phi(t, g.x(i), g.y(j));
    return squared ? e * e : (e < 0 ? -e : e);
  }
};

template <class Exec, class T, class System>
class CurvatureEngine final : public CurvatureStepper {
 public:
  // `make_system(w_view)` builds the right-hand side; w is scratch the engine owns (Willmore flow).
  template <class MakeSystem>
  CurvatureEngine(const Exec& ex, const CurvatureSpec& spec, MakeSystem&& make_system)
      : ex_(ex), spec_(spec), w_(spec.grid, 1, ghost_width, Exec::space),
        mol_(RungeKutta<Exec, T, System>(ex, mol_tableau(spec.scheme), make_system(w_.view()), initial_state(spec),
                                         spec.bc),
             spec.dt, spec.tol) {
    mol_.rk().exchange_with(spec.halo);
    exchange_halo(spec.halo, phi().view(), spec.bc, Exec::space);
  }

  const std::vector<std::string>& field_names() const override { return names_; }
  void advance(int64_t steps) override { mol_.advance_steps(steps); }
  void advance_to(double t, int64_t max_steps) override { mol_.advance_to(t, max_steps); }
  double time() const override { return mol_.time(); }
  const StepStats& step_stats() const override { return mol_.stats(); }

  std::vector<double> values(int) override {
    const std::vector<T> v = to_space(phi(), MemorySpace::host).interior(0);
    return std::vector<double>(v.begin(), v.end());
  }
  FieldMemory rows(int) override { return field_memory(phi(), 0); }
  FieldStats stats(int) override {
    const auto v = phi().cview();
    return field_stats(ex_, v, 0);
  }
  QuantizedField quantized(int) override { return quantize(ex_, phi(), 0, frame_scratch_); }
  int64_t first_nonfinite(int) override { return pdex::first_nonfinite(ex_, phi().cview(), 0); }
  bool settable(int field) const override { return field == 0; }
  void set_values(int, const std::vector<double>& v) override {
    set_interior_values(phi(), 0, v, spec_.bc);
    exchange_halo(spec_.halo, phi().view(), spec_.bc, Exec::space);
  }
  void set_time(double t) override { mol_.set_time(t); }
  std::vector<NamedArray> extra_state() override { return {{"clock", mol_.clock_state()}}; }
  void set_extra_state(const std::vector<NamedArray>& s) override {
    mol_.set_clock_state(find_array(s, "clock"));
    set_time(mol_.time());
  }
  void save() override {
    save_copy(saved_, phi());
    saved_t_ = mol_.time();
  }
  void restore() override {
    copy(phi(), saved_);
    mol_.set_time(saved_t_);
  }

  double bytes_per_step() const override {
    const Tableau& tab = mol_tableau(spec_.scheme);
    const double values = tab.stages * rhs_values_per_cell(spec_.flow) + combine_values_per_step(tab);
    return values * sizeof(T) * double(spec_.grid.cells());
  }
  double flops_per_step() const override {
    return double(rhs_per_step()) * seed_flops_per_cell(spec_.flow) * double(spec_.grid.cells());
  }
  int rhs_per_step() const override { return mol_tableau(spec_.scheme).stages; }

  void rhs_only(int64_t n) override {
    for (int64_t r = 0; r < n; ++r) mol_.rk().evaluate(mol_.time());
    // A one-cell reduction returns to the host only after the queued kernels: the wait, on every executor.
    const auto v = phi().cview();
    (void)reduce<T>(ex_, Range2{0, 1, 0, 1}, [=] PDEX_HD(int i, int j) { return v(0, i, j); }, Max<T>{});
  }
  double rhs_bytes() const override {
    return (rhs_values_per_cell(spec_.flow) + 1) * sizeof(T) * double(spec_.grid.cells());  // + k written
  }

  ErrorSample error_vs_exact() override {
    if (!spec_.manufactured) throw Error("the error against the exact solution needs the manufactured solution");
    const Manufactured<double> m = manufactured_solution(spec_);
    const auto v = phi().cview();
    const double area = spec_.grid.dx * spec_.grid.dy, t = mol_.time();
    const ErrorCell<T> abs_e{v, m, spec_.grid, t, false}, sq_e{v, m, spec_.grid, t, true};
    return {area * reduce<double>(ex_, v.interior(), abs_e, Sum<double>{}),
            area * reduce<double>(ex_, v.interior(), sq_e, Sum<double>{}),
            reduce<double>(ex_, v.interior(), abs_e, Max<double>{})};
  }

 private:
  Field<T>& phi() { return mol_.rk().state(); }

  static Field<T> initial_state(const CurvatureSpec& spec) {
    Field<T> host(spec.grid, 1, ghost_width, MemorySpace::host);
    if (spec.manufactured) {
      const Manufactured<double> m = manufactured_solution(spec);
      const Grid2& g = spec.grid;
      for_each_cell(g.extents(), [&](int i, int j) { host.view()(0, i, j) = T(m.phi(0.0, g.x(i), g.y(j))); });
    } else {
      if (spec.phi0.size() != std::size_t(spec.grid.cells())) throw InputError("the initial phi has the wrong size");
      host.set_interior(0, spec.phi0);
    }
    fill_ghosts(Serial{}, host, spec.bc);
    return into_space(std::move(host), Exec::space);
  }

  Exec ex_;
  CurvatureSpec spec_;
  Field<T> w_, saved_;
  Buffer<uint16_t> frame_scratch_;
  double saved_t_ = 0;
  MolIntegrator<Exec, T, System> mol_;
  std::vector<std::string> names_{"phi"};
};

template <class T>
Manufactured<T> manufactured_as(const CurvatureSpec& spec) {
  const Manufactured<double> m = manufactured_solution(spec);
  return {T(m.amp), T(m.kx), T(m.ky), T(m.xc), T(m.yc)};
}

template <class Exec, class T, class Forcing>
std::unique_ptr<CurvatureStepper> make_with(const Exec& ex, const CurvatureSpec& spec, const Forcing& force) {
  // w shares phi's layout, so its pitch is the one the stencils step by.
  auto faces = [&](FieldView<T> w) { return CellFaces<T>::make(Spacing<T>::make(spec.grid.dx, spec.grid.dy, w.pitch)); };
  if (spec.flow == Flow::mean_curvature) {
    using System = MeanCurvatureSystem<T, Forcing>;
    return std::make_unique<CurvatureEngine<Exec, T, System>>(
        ex, spec, [&](FieldView<T> w) { return System{faces(w), force}; });
  }
  using System = WillmoreSystem<T, Forcing>;
  return std::make_unique<CurvatureEngine<Exec, T, System>>(
      ex, spec, [&](FieldView<T> w) { return System{faces(w), force, w, w_boundary(spec.bc), spec.halo}; });
}

template <class Exec, class T>
std::unique_ptr<CurvatureStepper> make_typed(const Exec& ex, const CurvatureSpec& spec) {
  if (!spec.manufactured) return make_with<Exec, T>(ex, spec, NoForcing<T>{});
  const Grid2& g = spec.grid;
  const Manufactured<T> m = manufactured_as<T>(spec);
  const T x0 = T(g.x0), y0 = T(g.y0), dx = T(g.dx), dy = T(g.dy);
  if (spec.flow == Flow::mean_curvature)
    return make_with<Exec, T>(ex, spec, ManufacturedForcing<T, Flow::mean_curvature>{m, x0, y0, dx, dy});
  return make_with<Exec, T>(ex, spec, ManufacturedForcing<T, Flow::willmore>{m, x0, y0, dx, dy});
}

}  // namespace pdex::curvature_detail

namespace pdex {

template <class Exec>
std::unique_ptr<CurvatureStepper> make_curvature_stepper_on(const Exec& ex, const CurvatureSpec& spec,
                                                            Precision precision) {
  if (precision == Precision::f32) return curvature_detail::make_typed<Exec, float>(ex, spec);
  return curvature_detail::make_typed<Exec, double>(ex, spec);
}

}  // namespace pdex
