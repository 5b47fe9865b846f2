#pragma once
// The advection-reaction-diffusion model by the method of lines (time.scheme = "merson" | "rk4"): the
// right-hand side of seed 000 eqs. (5)-(6) as a System for the Runge-Kutta driver (time/rk), so that the
// models of seed 000 run with seed 003's Runge-Kutta-Merson step control. Clamping, where the model asks
// for it, limits each accepted state, fused into the last stage's kernel.
#include <cstdint>
#include <utility>

#include "pdex/models/ard/ard_base.hpp"
#include "pdex/time/rk/mol_integrator.hpp"

namespace pdex::ard_detail {

// On a 3D grid row j is a stacked row and the terms across the planes are added (ArdRhs3D).
template <class T, class Rhs>
struct ArdCell {
  static constexpr int ncomp = Rhs::ncomp;
  static constexpr bool takes_volumes = true;
  Rhs rhs;
  FieldView<const T> u;
  PDEX_HD PDEX_FORCEINLINE void operator()(int i, int j, T* k) const {
    if (u.nz > 1) return ArdRhs3D<Rhs>{rhs}(u, i, j, k);
    rhs(u, i, j, k);
  }
};

template <class T, class Rhs>
struct ArdSystem {
  Rhs rhs;
  template <class Exec>
  void prepare(const Exec&, double, FieldView<const T>) const {}
  ArdCell<T, Rhs> cell(double, FieldView<const T> u) const { return {rhs, u}; }
  ClampBelow<T, Rhs::ncomp> limiter() const { return rhs.clamp; }
};

template <class Exec, class T, class Rhs>
class ArdMol final : public ArdBase<Exec, T, Rhs, MolStepper> {
  using Base = ArdBase<Exec, T, Rhs, MolStepper>;
  using System = ArdSystem<T, Rhs>;

 public:
  // The state moves into the integrator; the base's second state buffer is not needed.
  ArdMol(const Exec& ex, const ArdSpec& spec)
      : Base(ex, spec),
        tableau_(mol_tableau(spec.mol_scheme)),
        mol_(RungeKutta<Exec, T, System>(ex, tableau_, System{this->rhs_}, std::move(this->state_[0]), this->bc_),
             spec.dt, spec.tol) {
    this->state_[1] = Field<T>();
    mol_.rk().exchange_with(this->halo_);
  }

  void advance(int64_t steps) override { mol_.advance_steps(steps); }
  void advance_to(double t, int64_t max_steps) override { mol_.advance_to(t, max_steps); }
  double time() const override { return mol_.time(); }
  const StepStats& step_stats() const override { return mol_.stats(); }

  void save() override {
    Base::save();
    saved_t_ = mol_.time();
  }
  void set_time(double t) override { mol_.set_time(t); }
  std::vector<NamedArray> extra_state() override { return {{"clock", mol_.clock_state()}}; }
  void set_extra_state(const std::vector<NamedArray>& s) override {
    mol_.set_clock_state(find_array(s, "clock"));
    set_time(mol_.time());
  }
  void restore() override {
    Base::restore();
    mol_.set_time(saved_t_);
  }

  // Per stage the right-hand side reads every species; the combinations move what runge_kutta.hpp counts.
  double bytes_per_step() const override {
    const double values = Rhs::ncomp * (tableau_.stages + combine_values_per_step(tableau_));
    return values * sizeof(T) * double(this->state_[0].grid().cells());
  }

 protected:
  Field<T>& current() override { return mol_.rk().state(); }

 private:
  const Tableau& tableau_;
  MolIntegrator<Exec, T, System> mol_;
  double saved_t_ = 0;
};

}  // namespace pdex::ard_detail
