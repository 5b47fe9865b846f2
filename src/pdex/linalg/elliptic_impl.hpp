#pragma once
// The templated engine behind make_elliptic_solver_on(); included once per executor translation unit.
#include <memory>
#include <vector>

#include "pdex/linalg/elliptic.hpp"
#include "pdex/linalg/helmholtz3.hpp"
#include "pdex/linalg/linear_solver.hpp"
#include "pdex/linalg/make_on_grid.hpp"

namespace pdex {

namespace elliptic_detail {

// Op: Helmholtz<T> on a 2D grid, Helmholtz3<T> on a 3D one.
template <class Exec, class T, class Op>
class Elliptic final : public EllipticSolver {
 public:
  Elliptic(const Exec& ex, const EllipticSpec& spec)
      : ex_(ex), bc_(spec.bc), u_(spec.grid, 1, 1, Exec::space), f_(u_.like(Exec::space)),
        op_(make_grid_operator<Op>(spec.grid, u_.view(), spec.alpha, &spec.beta, 1, spec.bc)),
        solver_(ex, u_, op_, bc_, spec.solver), r_(u_.like(Exec::space)) {}

  void set(const std::vector<double>& u, const std::vector<double>& f) override {
    upload(u, u_);
    upload(f, f_);
  }
  SolveStats solve() override { return solver_.solve(u_.view(), f_.cview()); }
  std::vector<double> solution() override {
    Field<T> host = to_space(u_, MemorySpace::host);
    std::vector<T> v = host.interior(0);
    return std::vector<double>(v.begin(), v.end());
  }
  double relative_residual() override {
    fill_ghosts(ex_, u_, bc_);
    const double fn = std::sqrt(dot(ex_, f_.cview(), f_.cview()));
    return std::sqrt(residual(ex_, op_, u_.cview(), f_.cview(), r_.view())) / (fn > 0 ? fn : 1.0);
  }
  int multigrid_levels() const override { return solver_.multigrid_levels(); }
  double omega() const override { return solver_.omega(); }

 private:
  void upload(const std::vector<double>& values, Field<T>& dst) {
    Field<T> host = dst.like(MemorySpace::host);
    host.set_interior(0, values);
    copy(dst, host);
  }

  Exec ex_;
  FieldBoundary bc_;
  Field<T> u_, f_;
  Op op_;
  LinearSolver<Exec, T, Op> solver_;
  Field<T> r_;
};

}  // namespace elliptic_detail

template <class Exec>
std::unique_ptr<EllipticSolver> make_elliptic_solver_on(const Exec& ex, const EllipticSpec& spec, Precision precision) {
  return make_on_grid<EllipticSolver, elliptic_detail::Elliptic>(ex, spec, precision);
}

}  // namespace pdex
