#pragma once
// Seed 002's Theorem 2 for the configured grid and step: forward Euler on W' = G W + F(W) is stable when
//   ||I + h_t G||_inf + h_t F_max <= 1,
// evaluated with G the stiff linear part (the five-point Laplacians with their boundary rows) and F the
// rest (couplings and nonlinear terms), F_max = ||grad F||_inf at the initial state.
// F_max > 0 makes the left side 1 + h_t F_max at best, so the bound is met to first order in h_t only;
// pdex admits a step when ||I + h_t G||_inf <= 1 and h_t F_max <= 1 (docs/seeds.md). Keller-Segel (not
// the seed's system) is bounded the same way with F's cross-diffusion through c left out: its F_max is
// the chemotactic drift's rate |chi grad c| / h.
#include <string>

#include "pdex/models/chemotaxis/chemotaxis_spec.hpp"

namespace pdex {

struct Theorem2Bound {
  double norm_linear = 0;   // ||I + h_t G||_inf
  double f_max = 0;         // ||grad F||_inf at the initial state
  double rho = 0;           // norm_linear + h_t f_max, Theorem 2's left side
  double dt_linear = 0;     // largest h_t with ||I + h_t G||_inf <= 1
  double dt_nonlinear = 0;  // 1 / f_max
  double dt_max = 0;        // the smaller of the two
  std::string limit;        // which one, in words
};

Theorem2Bound chemotaxis_theorem2(const ChemotaxisSpec& spec);

}  // namespace pdex
