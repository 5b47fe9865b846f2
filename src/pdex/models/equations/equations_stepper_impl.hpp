#pragma once
// The templated stepper of a text model, forward Euler, behind make_equations_stepper_on(); included by
// the host executors' translation unit (equations_host.cpp) and the CUDA one (cuda/equations_cuda.cuh).
#include <algorithm>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "pdex/grid/field.hpp"
#include "pdex/grid/field_reductions.hpp"
#include "pdex/grid/fill_ghosts.hpp"
#include "pdex/models/equations/equations_stepper.hpp"
#include "pdex/models/equations/text_step.hpp"
#include "pdex/time/field_stats.hpp"

namespace pdex {

namespace equations_detail {

// A parameter's ghosts: periodic across the sides where the first species is periodic, mirrored
// (Neumann) elsewhere, so that an operator of a varying parameter reads sensible values beyond a side.
inline FieldBoundary parameter_boundary(const FieldBoundary& species) {
  FieldBoundary b = FieldBoundary::all(BcKind::neumann);
  for (int s = 0; s < 4; ++s)
    if (species.side[s][0].kind == BcKind::periodic) b.side[s][0] = SideBc{BcKind::periodic, 0.0};
  return b;
}

template <class Exec, class T>
class EquationsEuler final : public Stepper {
 public:
  EquationsEuler(const Exec& ex, const EquationsSpec& spec)
      : ex_(ex), spec_(spec), step_(text_step<T>(ex, spec_.program)), names_(spec.text.species),
        ghost_(std::max(1, spec.program.reach)), nspecies_(int(spec.text.species.size())) {
    Field<T> host(spec.grid, nspecies_, ghost_, MemorySpace::host);
    for (int s = 0; s < nspecies_; ++s)
      host.set_interior(s, std::vector<T>(spec.initial[std::size_t(s)].begin(), spec.initial[std::size_t(s)].end()));
    state_[0] = to_space(host, Exec::space);
    state_[1] = state_[0].like(Exec::space);
    saved_ = state_[0].like(Exec::space);
    params_ = parameters(spec);
    fixed_ = fixed_args(spec);
  }

  const std::vector<std::string>& field_names() const override { return names_; }

  void advance(int64_t steps) override {
    for (int64_t k = 0; k < steps; ++k) {
      fill_ghosts(ex_, state_[cur_].view(), spec_.bc);
      eq::EulerArgs<T> a = fixed_;
      a.u = state_[cur_].cview(), a.params = params_.cview(), a.out = state_[1 - cur_].view(), a.t = t_;
      step_(a);
      cur_ = 1 - cur_;
      t_ += spec_.dt;
    }
    finish(ex_);  // a device's steps are done when advance returns: the driver times them
  }

  std::vector<double> values(int field) override { return interior_values(state_[cur_], field); }
  FieldStats stats(int field) override { return field_stats(ex_, state_[cur_].cview(), field); }
  int64_t first_nonfinite(int field) override { return pdex::first_nonfinite(ex_, state_[cur_].cview(), field); }
  void save() override {
    copy(saved_, state_[cur_]);
    saved_t_ = t_;
  }
  void restore() override {
    copy(state_[cur_], saved_);
    t_ = saved_t_;
  }
  double bytes_per_step() const override { return 2.0 * nspecies_ * sizeof(T) * double(spec_.grid.cells()); }

 private:
  // What every step's arguments share: the grid, the step, the species' floors ([model.clamp]).
  static eq::EulerArgs<T> fixed_args(const EquationsSpec& spec) {
    eq::EulerArgs<T> a;
    a.grid = spec.grid, a.dt = spec.dt, a.species = int(spec.text.species.size());
    for (int s = 0; s < a.species; ++s) {
      const double f = s < int(spec.floor.size()) ? spec.floor[std::size_t(s)] : -std::numeric_limits<double>::infinity();
      a.clamped = a.clamped || f > -std::numeric_limits<double>::infinity();
      a.floor[s] = f > -std::numeric_limits<double>::infinity() ? T(f) : std::numeric_limits<T>::lowest();
    }
    return a;
  }

  // Every parameter as a component (constants filled), ghosts filled once: parameters do not change.
  Field<T> parameters(const EquationsSpec& spec) const {
    const int n = std::max<int>(1, int(spec.params.size()));
    Field<T> host(spec.grid, n, ghost_, MemorySpace::host);
    const FieldBoundary bc = parameter_boundary(spec.bc);
    for (std::size_t k = 0; k < spec.params.size(); ++k) {
      const std::vector<double> v = spec.params[k].per_cell(std::size_t(spec.grid.cells()));
      host.set_interior(int(k), std::vector<T>(v.begin(), v.end()));
      fill_ghosts(Serial{}, host.view().components(int(k), 1), bc);
    }
    return to_space(host, Exec::space);
  }

  Exec ex_;
  EquationsSpec spec_;
  TextStep<T> step_;
  std::vector<std::string> names_;
  int ghost_, nspecies_;
  Field<T> state_[2], saved_, params_;
  eq::EulerArgs<T> fixed_;
  int cur_ = 0;
  double t_ = 0, saved_t_ = 0;
};

}  // namespace equations_detail

template <class Exec>
std::unique_ptr<Stepper> make_equations_stepper_on(const Exec& ex, const EquationsSpec& spec, Precision precision) {
  if (precision == Precision::f32) return std::make_unique<equations_detail::EquationsEuler<Exec, float>>(ex, spec);
  return std::make_unique<equations_detail::EquationsEuler<Exec, double>>(ex, spec);
}

}  // namespace pdex
