#pragma once
// ODE systems with known solutions for the time-integration tests: every cell of a small field carries
// one independent equation, so the same driver and kernels as a PDE run are exercised on every executor.
#include <cmath>
#include <vector>

#include "core/executor_types.hpp"
#include "pdex/grid/fill_ghosts.hpp"
#include "pdex/time/rk/mol_integrator.hpp"

namespace pdex::test {

// u' = u cos(t) + s(t): with s = 0 the solution is u0 exp(sin t). s(t) = amp sin(omega (t - t_on)) for
// t > t_on is a sudden fast forcing that the step control must notice.
struct OdeCase {
  double amp = 0, omega = 0, t_on = 1e300;
};

template <class T>
struct OdeCell {
  static constexpr int ncomp = 1;
  FieldView<const T> u;
  double t;
  OdeCase c;
  PDEX_HD void operator()(int i, int j, T* k) const {
    const double s = t > c.t_on ? c.amp * sin(c.omega * (t - c.t_on)) : 0.0;
    k[0] = T(double(u(0, i, j)) * cos(t) + s);
  }
};

struct OdeSystem {
  OdeCase c;
  template <class Exec, class T>
  void prepare(const Exec&, double, FieldView<const T>) const {}
  template <class T>
  OdeCell<T> cell(double t, FieldView<const T> u) const {
    return {u, t, c};
  }
};

inline double ode_initial(int i, int j) { return 1.0 + 0.1 * i + 0.05 * j; }
inline double ode_exact(int i, int j, double t) { return ode_initial(i, j) * std::exp(std::sin(t)); }

constexpr int ode_n = 4;

template <class Exec>
RungeKutta<Exec, double, OdeSystem> make_ode_rk(const Exec& ex, const Tableau& tab, OdeCase c = {}) {
  const FieldBoundary bc = FieldBoundary::all(BcKind::neumann);
  Field<double> host(Grid2{ode_n, ode_n}, 1, 1, MemorySpace::host);
  for (int j = 0; j < ode_n; ++j)
    for (int i = 0; i < ode_n; ++i) host.view()(0, i, j) = ode_initial(i, j);
  fill_ghosts(Serial{}, host, bc);
  return RungeKutta<Exec, double, OdeSystem>(ex, tab, OdeSystem{c}, to_space(host, Exec::space), bc);
}

// max over cells of |u - exact(t)|.
inline double ode_error(const Field<double>& state, double t) {
  const Field<double> host = to_space(state, MemorySpace::host);
  double e = 0;
  for (int j = 0; j < ode_n; ++j)
    for (int i = 0; i < ode_n; ++i) e = std::max(e, std::abs(host.view()(0, i, j) - ode_exact(i, j, t)));
  return e;
}

}  // namespace pdex::test
