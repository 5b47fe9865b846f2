// ArdRhs::at(o), the right-hand side with every parameter read once at a cell (what the temporally
// blocked CUDA schedule keeps in registers), evaluates exactly what the right-hand side reading its
// parameters per cell does, for every reaction and advection scheme. Each parameter gets values of its
// own in every cell, so a reaction whose map() dropped, swapped or repeated a parameter would differ.
#include <gtest/gtest.h>

#include <string>
#include <type_traits>
#include <vector>

#include "pdex/models/ard/ard_base.hpp"
#include "pdex/models/ard/ard_rhs.hpp"
#include "pdex/models/ard/kinetics/all.hpp"

namespace pdex::test {
namespace {

constexpr int cells = 7;

// Distinct per-cell values for each parameter, kept alive for the Params that point at them.
class ParamFields {
 public:
  ParamFields() { fields_.reserve(16); }  // Params keep pointers into the fields: no reallocation

  Param<double> next() {
    const int n = int(fields_.size());
    std::vector<double> v(cells);
    for (int o = 0; o < cells; ++o) v[o] = 0.3 + 0.17 * n + 0.011 * o * (1 + n);
    fields_.push_back(std::move(v));
    return Param<double>{0.0, fields_.back().data(), 1};
  }

 private:
  std::vector<std::vector<double>> fields_;
};

// A right-hand side whose parameters take the values params hands out, in the same order every time.
template <class Rhs>
Rhs make_rhs(ParamFields& params) {
  Rhs rhs;
  rhs.reaction = make_reaction<double>(std::type_identity<typename Rhs::reaction_type>{},
                                                   [&](const char*) { return params.next(); });
  rhs.D[0] = params.next();
  rhs.D[1] = params.next();
  rhs.ax = params.next();
  rhs.ay = params.next();
  rhs.h = Spacing<double>::make(0.5, 0.25, 16);
  return rhs;
}

const Star<double> u{1.3, 0.9, 1.7, 1.1, 0.6}, v{0.4, 0.8, 0.2, 0.5, 0.9};

template <class Reaction, Advection Adv>
void expect_frozen_matches_per_cell(Advection scheme = Adv) {
  ParamFields params;
  auto rhs = make_rhs<ArdRhs<double, Reaction, Adv>>(params);
  rhs.advection = scheme;
  for (int o = 0; o < cells; ++o) {
    double per_cell[2], frozen[2];
    rhs.eval_star(u, v, rhs.h, o, per_cell);
    rhs.at(o).eval_star(u, v, rhs.h, 0, frozen);
    for (int c = 0; c < 2; ++c) EXPECT_EQ(frozen[c], per_cell[c]) << "cell " << o << ", component " << c;
  }
}

// Runs with advection or a tensor share kernels that read the scheme at run time (Advection::runtime):
// they must evaluate exactly what the kernels compiled for the scheme do.
template <Advection Adv>
void expect_runtime_scheme_matches() {
  ParamFields a, b;
  const auto compiled = make_rhs<ArdRhs<double, GrayScott<double>, Adv>>(a);
  auto runtime = make_rhs<ArdRhs<double, GrayScott<double>, Advection::runtime>>(b);
  runtime.advection = Adv;
  for (int o = 0; o < cells; ++o) {
    double want[2], got[2];
    compiled.eval_star(u, v, compiled.h, o, want);
    runtime.eval_star(u, v, runtime.h, o, got);
    for (int c = 0; c < 2; ++c) EXPECT_EQ(got[c], want[c]) << "cell " << o << ", component " << c;
  }
  expect_frozen_matches_per_cell<GrayScott<double>, Advection::runtime>(Adv);
}

template <Advection Adv>
void expect_for_every_reaction() {
  expect_frozen_matches_per_cell<Turing<double>, Adv>();
  expect_frozen_matches_per_cell<GrayScott<double>, Adv>();
  expect_frozen_matches_per_cell<FitzHughNagumo<double>, Adv>();
  expect_frozen_matches_per_cell<Brusselator<double>, Adv>();
  expect_frozen_matches_per_cell<Schnakenberg<double>, Adv>();
}

TEST(ArdRhsTest, ParametersReadOnceAtACellGiveTheSameRightHandSide) {
  expect_for_every_reaction<Advection::none>();
  expect_for_every_reaction<Advection::centered>();
  expect_for_every_reaction<Advection::upwind>();
}

TEST(ArdRhsTest, TheSchemeReadAtRunTimeGivesTheCompiledSchemesRightHandSide) {
  expect_runtime_scheme_matches<Advection::none>();
  expect_runtime_scheme_matches<Advection::centered>();
  expect_runtime_scheme_matches<Advection::upwind>();
}

}  // namespace
}  // namespace pdex::test
