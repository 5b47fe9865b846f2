#pragma once
// A Runge-Kutta method is its Butcher tableau: data for one driver (runge_kutta.hpp), as in TNL.
// Device-light: kernels never see a Tableau, only the weights the driver scales by tau.

namespace pdex {

constexpr int max_stages = 5;

struct Tableau {
  const char* name;
  int stages;
  int order;
  double c[max_stages];              // stage times t + c_s tau
  double a[max_stages][max_stages];  // stage arguments u + tau sum_m a[s][m] k_m
  double b[max_stages];              // the new state u + tau sum_s b[s] k_s
  double e[max_stages];              // local error estimate tau sum_s e[s] k_s; all zero: fixed step
  bool adaptive() const {
    for (double w : e)
      if (w != 0) return true;
    return false;
  }
};

// Forward Euler as a one-stage method (a text model's explicit scheme, run by the same driver).
inline constexpr Tableau euler_tableau{"euler", 1, 1, {0}, {{0}}, {1}, {0}};

// The classic fourth-order method, fixed step.
inline constexpr Tableau rk4_tableau{
    "rk4", 4, 4, {0, 0.5, 0.5, 1, 0}, {{0}, {0.5}, {0, 0.5}, {0, 0, 1}, {0}}, {1. / 6, 1. / 3, 1. / 3, 1. / 6, 0}, {0}};

// Runge-Kutta-Merson, seed 003 Algorithm 4.1 (eq. 27 stages, eq. 29 update). The error estimate of
// eq. 28, (1/3)(0.2 k1 - 0.9 k3 + 0.8 k4 - 0.1 k5), is the difference of a third-order and the
// fourth-order combination.
inline constexpr Tableau merson_tableau{"merson",
                                        5,
                                        4,
                                        {0, 1. / 3, 1. / 3, 0.5, 1},
                                        {{0}, {1. / 3}, {1. / 6, 1. / 6}, {0.125, 0, 0.375}, {0.5, 0, -1.5, 2}},
                                        {1. / 6, 0, 0, 2. / 3, 1. / 6},
                                        {0.2 / 3, 0, -0.9 / 3, 0.8 / 3, -0.1 / 3}};

}  // namespace pdex
