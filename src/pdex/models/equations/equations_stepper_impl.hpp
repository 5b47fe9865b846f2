#pragma once
// The templated steppers of a text model behind make_equations_stepper_on(): forward Euler, RK4 and
// Runge-Kutta-Merson by the built-in models' Runge-Kutta driver (time/rk), whose stages the compiled
// right-hand sides run; the theta scheme with the D*lap(u) terms solved by the linear solvers. Included
// by the host executors' translation unit (equations_host.cpp) and the CUDA one (cuda/equations_cuda.cuh).
#include <algorithm>
#include <limits>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "pdex/core/error.hpp"
#include "pdex/grid/field.hpp"
#include "pdex/grid/field_reductions.hpp"
#include "pdex/grid/fill_ghosts.hpp"
#include "pdex/linalg/helmholtz3.hpp"
#include "pdex/linalg/linear_solver.hpp"
#include "pdex/models/equations/equations_fields.hpp"
#include "pdex/models/equations/equations_plan.hpp"
#include "pdex/models/equations/equations_stepper.hpp"
#include "pdex/models/equations/text_step.hpp"
#include "pdex/time/field_stats.hpp"
#include "pdex/time/save_copy.hpp"
#include "pdex/time/rk/mol_integrator.hpp"
#include "pdex/time/solver_totals.hpp"

namespace pdex {

namespace equations_detail {

// [model.clamp]'s floors; the lowest number for a species without one.
template <class T>
eq::FloorLimit<T> floor_limit(const EquationsSpec& spec) {
  eq::FloorLimit<T> lim;
  for (std::size_t s = 0; s < spec.text.species.size(); ++s) {
    const double f = s < spec.floor.size() ? spec.floor[s] : -std::numeric_limits<double>::infinity();
    lim.floor[s] = f > -std::numeric_limits<double>::infinity() ? T(f) : std::numeric_limits<T>::lowest();
  }
  return lim;
}

// A text model as a System of the Runge-Kutta driver that runs its own stages (runge_kutta.hpp).
template <class Exec, class T>
struct TextSystem {
  static constexpr bool runs_stages = true;
  TextStage<T> run;
  FieldView<const T> params;
  Grid2 grid;
  eq::FloorLimit<T> floor;
  T theta = T(0);
  std::shared_ptr<BoundaryValues<Exec, T>> sides;  // the sides whose values are expressions
  eq::Constants<T> constants;                      // the parameters that are numbers

  eq::FloorLimit<T> limiter() const { return floor; }
  // The stage on the cells of box b.
  double stage(const Exec&, double t, FieldView<const T> u, const RkStores<T, eq::FloorLimit<T>>& st, bool reduce,
               const CellBox& b) const {
    // The generated code reads the species and the parameters at one offset (text_cell.hpp).
    if (u.pitch != params.pitch || u.xoff != params.xoff || u.ghost != params.ghost)
      throw Error("internal: a text model's species and parameters differ in layout");
    eq::StageArgs<T> a = eq::reading(u, params, grid, t);
    a.st = st, a.theta = theta, a.constants = constants;
    std::copy(b.lo, b.lo + 3, a.lo), std::copy(b.hi, b.hi + 3, a.hi);
    return run(a, reduce);
  }
  // Sides whose values are expressions take their ghosts from the cells beside them once all are done.
  void finish_stage(FieldView<T> out, double t_out) const { sides->apply(out, t_out); }
  bool splits() const { return sides->empty(); }
  // The stage on every cell, finished.
  void whole_stage(const Exec& ex, double t, FieldView<const T> u, const RkStores<T, eq::FloorLimit<T>>& st, double t_out) const {
    stage(ex, t, u, st, false, whole_box(grid.extents()));
    finish_stage(st.out, t_out);
  }
};

// What every text stepper does alike: names, values, statistics, the saved state. Base: Stepper or
// MolStepper; current() is the state. The algebraic species are computed on the host when asked for.
template <class Exec, class T, class Base>
class TextStepper : public Base {
 public:
  const std::vector<std::string>& field_names() const override { return fields_; }
  std::vector<double> values(int field) override {
    return field < species() ? interior_values(current(), field) : algebraic(field - species());
  }
  FieldStats stats(int field) override {
    if (field < species()) return field_stats(ex_, current().cview(), field);
    const std::vector<double> v = algebraic(field - species());
    double sum = 0;
    for (double x : v) sum += x;
    return {*std::min_element(v.begin(), v.end()), *std::max_element(v.begin(), v.end()), sum / double(v.size())};
  }
  QuantizedField quantized(int field) override {
    return field < species() ? quantize(ex_, current(), field, frame_scratch_) : Base::quantized(field);
  }
  // The guard against blow-up watches the stepped species: an algebraic species follows from them (and
  // may be infinite where they are not, log(0) for one, without any blow-up).
  int64_t first_nonfinite(int field) override {
    return field < species() ? pdex::first_nonfinite(ex_, current().cview(), field) : -1;
  }
  bool settable(int field) const override { return field >= 0 && field < species(); }
  void set_values(int field, const std::vector<double>& v) override {
    set_interior_values(current(), field, v, spec_.bc);
    sides_->apply(current().view(), now());
    exchange_halo(spec_.halo, current().view(), spec_.bc, Exec::space);
  }
  FieldMemory memory(int field) override { return settable(field) ? field_memory(current(), field) : FieldMemory{}; }
  void refresh_ghosts() override {
    fill_ghosts(ex_, current(), spec_.bc);
    sides_->apply(current().view(), now());
    exchange_halo(spec_.halo, current().view(), spec_.bc, Exec::space);
  }
  void save() override {
    save_copy(saved_, current());
    saved_t_ = now();
  }
  void restore() override {
    copy(current(), saved_);
    this->set_time(saved_t_);
  }

 protected:
  TextStepper(const Exec& ex, const EquationsSpec& spec)
      : ex_(ex), spec_(spec), fields_(output_fields(spec.text)), params_(parameter_field<T>(spec, Exec::space)),
        stage_(text_stage<T>(ex, spec_.program)), sides_(std::make_shared<BoundaryValues<Exec, T>>(ex, spec_, ghost_of(spec_))) {
    spec_.initial.clear();  // the schemes build their state from the caller's spec
  }
  virtual Field<T>& current() = 0;
  virtual double now() const = 0;
  int species() const { return int(spec_.text.species.size()); }
  std::vector<double> algebraic(int a) {
    std::vector<std::vector<double>> u;
    for (int s = 0; s < species(); ++s) u.push_back(interior_values(current(), s));
    return algebraic_values(spec_, a, u, now());
  }
  TextSystem<Exec, T> system(double theta) const {
    return {stage_, params_.cview(), spec_.grid, floor_limit<T>(spec_), T(theta), sides_, constants_of<T>(spec_)};
  }

  Exec ex_;
  EquationsSpec spec_;
  std::vector<std::string> fields_;
  Field<T> params_, saved_;
  TextStage<T> stage_;
  std::shared_ptr<BoundaryValues<Exec, T>> sides_;
  double saved_t_ = 0;
  Buffer<uint16_t> frame_scratch_;
};

// Forward Euler, RK4, Merson: the Runge-Kutta driver with the text model's stages.
template <class Exec, class T>
class EquationsRk final : public TextStepper<Exec, T, MolStepper> {
  using Base = TextStepper<Exec, T, MolStepper>;

 public:
  EquationsRk(const Exec& ex, const EquationsSpec& spec)
      : Base(ex, spec), tableau_(spec.scheme == "euler" ? euler_tableau : mol_tableau(spec.scheme)),
        mol_(RungeKutta<Exec, T, TextSystem<Exec, T>>(ex, tableau_, this->system(0.0), initial_state<T>(spec, Exec::space), spec.bc),
             spec.dt, spec.tol),
        plan_(spec.scheme == "euler" ? text_euler_plan<T>(spec, Exec::space == MemorySpace::device) : EulerPlan{}) {
    mol_.rk().exchange_with(spec.halo);
    exchange_halo(spec.halo, current().view(), spec.bc, Exec::space);
    if constexpr (std::is_same_v<Exec, Cuda>)
      if (plan_.kind == EulerPlan::stream) stream_ = text_pass<T>(ex, spec.program);
    if constexpr (Exec::space == MemorySpace::host)
      if (plan_.kind == EulerPlan::rows) rows_ = text_blocked<T>(ex, spec.program);
  }

  void advance(int64_t steps) override {
    const int64_t k = passes(steps, std::numeric_limits<double>::infinity());
    mol_.advance_steps(steps - k);
    finish(this->ex_);  // a device's steps are done when advance returns: the driver times them
  }
  void advance_to(double t, int64_t max_steps) override {
    const int64_t k = passes(max_steps, t);
    mol_.advance_to(t, max_steps - k);
    finish(this->ex_);
  }
  double time() const override { return mol_.time(); }
  const StepStats& step_stats() const override { return mol_.stats(); }
  // Per stage the right-hand side reads every species; the combinations move what runge_kutta.hpp counts.
  double bytes_per_step() const override {
    const double values = double(this->spec_.text.species.size()) * (tableau_.stages + combine_values_per_step(tableau_));
    return values * sizeof(T) * double(this->spec_.grid.cells());
  }
  // A state set from outside (set_values, then this) takes its sides' values at its time.
  void set_time(double t) override {
    mol_.set_time(t);
    this->sides_->apply(current().view(), t);
    exchange_halo(this->spec_.halo, current().view(), this->spec_.bc, Exec::space);
  }
  std::vector<NamedArray> extra_state() override { return {{"clock", mol_.clock_state()}}; }
  void set_extra_state(const std::vector<NamedArray>& s) override {
    mol_.set_clock_state(find_array(s, "clock"));
    this->set_time(mol_.time());
  }

 protected:
  Field<T>& current() override { return mol_.rk().state(); }
  double now() const override { return mol_.time(); }

 private:
  // Whole passes of the plan's several steps, at most `most` steps, toward t_end; the steps taken. The
  // rest go one step at a time.
  int64_t passes(int64_t most, double t_end) {
    int64_t k = 0;
    const int n = plan_.steps_per_pass;
    while ((stream_ || rows_) && k + n <= most && mol_.advance_pass(n, t_end, [&](const double* t) { pass(t, n); })) k += n;
    return k;
  }
  // n steps from the state into the candidate, t[i] step i's time: streamed on the GPU, over cache-blocked
  // rows on the host, each step's stage the one RungeKutta runs for forward Euler (its stores: the state
  // plus dt times the right-hand side, clamped).
  void pass(const double* t, int n) {
    const EquationsSpec& s = this->spec_;
    eq::StageArgs<T> base = eq::reading(current().cview(), this->params_.cview(), s.grid);
    base.constants = constants_of<T>(s);
    if (rows_) {
      base.st = {current().cview(), {}, mol_.rk().candidate().view(), s.bc, {}, {}, T(s.dt), T(0), floor_limit<T>(s), true};
      return rows_(base, current().cview(), t, n);
    }
    StreamArgs<T, eq::TextStreamCell<T>> a = stream_args<T>(eq::TextStreamCell<T>{eq::TextCell<T>(base), floor_limit<T>(s), {}},
                                                            current().cview(), mol_.rk().candidate().view(), s.bc, T(s.dt),
                                                            int(s.text.species.size()));
    for (int i = 0; i < n; ++i) a.cell.t[i] = T(t[i]);
    stream_(a);
  }

  const Tableau& tableau_;
  MolIntegrator<Exec, T, TextSystem<Exec, T>> mol_;
  EulerPlan plan_;      // forward Euler's schedule (equations_plan.hpp)
  TextPass<T> stream_;  // its several steps a pass: streaming on the GPU
  TextBlocked<T> rows_;  // or cache-blocked rows on the host
};

// The state clamped to the floors in place, with its boundary images (after a theta step's solve).
template <class Exec, class T>
void limit_in_place(const Exec& ex, const eq::FloorLimit<T>& lim, FieldView<T> u, const FieldBoundary& bc) {
  for_each_cell(ex, u.interior_rows(), [=] PDEX_HD(int i, int r) {
    const int64_t o = u.row_offset(i, r);
    for (int c = 0; c < u.ncomp; ++c) {
      const T v = lim.limit(c, u.comp(c)[o]);
      u.comp(c)[o] = v;
      push_row_images(u, bc, c, i, r, v);
    }
  });
}

// The theta scheme: per step
//   (I - theta dt D lap) u^{n+1} = u^n + dt (f(u^n) - theta D lap u^n)
// for the terms D*lap(u) the program found (program.hpp's ImplicitTerm); a species without one is
// explicit (its row is the identity). Species are solved in groups of max_solver_components. Op: the
// solves' operator, Helmholtz<T, false> on a 2D grid, Helmholtz3<T> on a 3D one.
template <class Exec, class T, class Op>
class EquationsTheta final : public TextStepper<Exec, T, Stepper> {
  using Base = TextStepper<Exec, T, Stepper>;

 public:
  EquationsTheta(const Exec& ex, const EquationsSpec& spec)
      : Base(ex, spec), u_(initial_state<T>(spec, Exec::space)), b_(u_.like(Exec::space)), sys_(this->system(spec.theta)) {
    const int n = u_.components();
    for (int first = 0; first < n; first += max_solver_components) {
      const int count = std::min(max_solver_components, n - first);
      const Field<T> layout = count == n ? Field<T>() : Field<T>(spec.grid, count, u_.ghost(), MemorySpace::host);
      solvers_.push_back(std::make_unique<Solver>(ex, count == n ? u_ : layout, implicit_operator(first, count),
                                                  spec.bc.components(first, count), spec.solver, spec.halo));
    }
    exchange_halo(spec.halo, u_.view(), spec.bc, Exec::space);
  }

  void advance(int64_t steps) override {
    const EquationsSpec& s = this->spec_;
    for (int64_t k = 0; k < steps; ++k) {
      const RkStores<T, eq::FloorLimit<T>> st{u_.cview(), {}, b_.view(), s.bc, {}, {}, T(s.dt), T(0), sys_.floor, false};
      sys_.whole_stage(this->ex_, t_, u_.cview(), st, t_ + s.dt);  // b
      add_boundary_values(t_ + s.dt);
      for (std::size_t g = 0; g < solvers_.size(); ++g) {
        const int first = int(g) * max_solver_components, count = std::min(max_solver_components, u_.components() - first);
        record_solve(totals_, solvers_[g]->solve(u_.view().components(first, count), b_.cview().components(first, count), k + 1 == steps),
                     s.solver.method, "reduce time.dt");
      }
      limit_in_place(this->ex_, sys_.floor, u_.view(), s.bc);
      this->sides_->apply(u_.view(), t_ + s.dt);
      exchange_halo(s.halo, u_.view(), s.bc, Exec::space);
      t_ += s.dt;
    }
    finish(this->ex_);
  }
  double bytes_per_step() const override { return 2.0 * u_.components() * sizeof(T) * double(this->spec_.grid.cells()); }
  const SolverTotals* solver_totals() const override { return &totals_; }
  void set_time(double t) override {
    t_ = t;
    this->sides_->apply(u_.view(), t);
    exchange_halo(this->spec_.halo, u_.view(), this->spec_.bc, Exec::space);
  }
  // The clock adds dt a step: its sum, not step * dt, continues bitwise.
  std::vector<NamedArray> extra_state() override { return {{"t", {t_}}}; }
  void set_extra_state(const std::vector<NamedArray>& s) override { set_time(find_array(s, "t").at(0)); }

 protected:
  Field<T>& current() override { return u_; }
  double now() const override { return t_; }

 private:
  using Solver = LinearSolver<Exec, T, Op>;

  // Species c's theta dt D as a number times a per-cell factor (null: none); a parameter that is a number
  // is folded into the number (program.hpp's is_constant_param).
  std::pair<double, const T*> implicit_coefficient(int c) const {
    const EquationsSpec& s = this->spec_;
    const eq::ImplicitTerm& d = s.program.implicit[std::size_t(c)];
    const double beta = s.theta * s.dt * d.coefficient;
    if (d.param < 0) return {beta, nullptr};
    if (eq::is_constant_param(s.program, d.param)) return {beta * s.params[std::size_t(d.param)].value, nullptr};
    return {beta, this->params_.cview().comp(eq::param_component(s.program, d.param))};
  }

  // The sides whose values are expressions, at time t, on the solves' right-hand sides.
  void add_boundary_values(double t) {
    for (int c = 0; c < u_.components(); ++c) {
      if (this->spec_.program.implicit[std::size_t(c)].term < 0) continue;
      const auto [beta, factor] = implicit_coefficient(c);
      this->sides_->add_implicit(b_.view().components(c, 1), c, T(beta), factor, t);
    }
  }

  // I - theta dt D lap for species first .. first + count - 1: D a constant, or a parameter's field.
  Op implicit_operator(int first, int count) const {
    const EquationsSpec& s = this->spec_;
    double beta[max_solver_components] = {};
    const T* factor[max_solver_components] = {};
    for (int c = 0; c < count; ++c)
      if (s.program.implicit[std::size_t(first + c)].term >= 0) std::tie(beta[c], factor[c]) = implicit_coefficient(first + c);
    Op op = make_grid_operator<Op>(s.grid, u_.cview(), 1.0, beta, count, s.bc.components(first, count));
    for (int c = 0; c < count; ++c) op.d[c] = factor[c];
    return op;
  }

  Field<T> u_, b_;
  TextSystem<Exec, T> sys_;
  std::vector<std::unique_ptr<Solver>> solvers_;
  SolverTotals totals_;
  double t_ = 0;
};

}  // namespace equations_detail

template <class Exec>
std::unique_ptr<Stepper> make_equations_stepper_on(const Exec& ex, const EquationsSpec& spec, Precision precision) {
  using namespace equations_detail;
  auto make = [&]<class T>(T) -> std::unique_ptr<Stepper> {
    if (spec.scheme == "theta")
      return with_grid_operator<T>(spec.grid, [&]<class Op>(Op) -> std::unique_ptr<Stepper> {
        return std::make_unique<EquationsTheta<Exec, T, Op>>(ex, spec);
      });
    return std::make_unique<EquationsRk<Exec, T>>(ex, spec);
  };
  return precision == Precision::f32 ? make(float{}) : make(double{});
}

}  // namespace pdex
