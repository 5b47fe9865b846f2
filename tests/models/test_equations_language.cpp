// The language of text models: precedence, the errors a scientist reads (caret, names, closest match),
// the checks made before anything runs, and the interpreter's arithmetic and stencils.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <unistd.h>

#include "pdex/grid/field.hpp"
#include "pdex/grid/stencil.hpp"
#include "pdex/models/ard/param.hpp"
#include "pdex/models/equations/codegen.hpp"
#include "pdex/models/equations/host_kernel.hpp"
#include "pdex/models/equations/interpreter.hpp"
#include "pdex/models/equations/program.hpp"
#include "pdex/models/equations/text_step.hpp"

namespace pdex::eq {
namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The value of one expression of u (1 species) at cell (1, 1) of a 3 x 3 grid, u = `u` everywhere,
// with parameter a = 2.
double value_of(const std::string& text, double u = 0.5) {
  const TextModel m{{"u"}, {text}, {"a"}, {}};
  const Program p = compile(m);
  const Grid2 g{3, 3};
  Field<double> s(g, 1, std::max(1, p.reach), MemorySpace::host), k(g, 1, std::max(1, p.reach), MemorySpace::host);
  for (int j = -s.ghost(); j < 3 + s.ghost(); ++j)
    for (int i = -s.ghost(); i < 3 + s.ghost(); ++i) s.view()(0, i, j) = u, k.view()(0, i, j) = 2.0;
  double out[8];
  const Interpreter<double> run(p);
  run(TextCell<double>(reading(s.cview(), k.cview(), g)), 1, 1, 0, out);
  return out[0];
}

std::string error_of(const TextModel& m) {
  try {
    compile(m);
  } catch (const TextModelError& e) {
    return e.key + ": " + e.what();
  }
  return "";
}

TEST(EquationsLanguage, PowersBindTighterThanAMinusAndGroupToTheRight) {
  EXPECT_DOUBLE_EQ(value_of("-u^2", 3.0), -9.0);
  EXPECT_DOUBLE_EQ(value_of("2^3^2"), 512.0);
  EXPECT_DOUBLE_EQ(value_of("u^3", -2.0), -8.0);     // an exact product, not exp(3 log u)
  EXPECT_DOUBLE_EQ(value_of("u^-2", -2.0), 0.25);
  EXPECT_DOUBLE_EQ(value_of("pow(u, 3)", -2.0), -8.0);
  EXPECT_DOUBLE_EQ(value_of("1 - 2 - 3"), -4.0);
  EXPECT_DOUBLE_EQ(value_of("12 / 3 / 2"), 2.0);
  EXPECT_DOUBLE_EQ(value_of("a*(1 + u)", 0.5), 3.0);
  EXPECT_DOUBLE_EQ(value_of("2.5e-1 + .5"), 0.75);
}

TEST(EquationsLanguage, ComparisonsConditionsAndFunctions) {
  EXPECT_DOUBLE_EQ(value_of("if(u < a, 1, 2)"), 1.0);
  EXPECT_DOUBLE_EQ(value_of("if(u >= a, 1, 2)"), 2.0);
  EXPECT_DOUBLE_EQ(value_of("(u == 0.5) + (u != 0.5)"), 1.0);
  EXPECT_DOUBLE_EQ(value_of("max(u, a) + min(u, a)"), 2.5);
  EXPECT_DOUBLE_EQ(value_of("heaviside(u - 1) + sign(-u)"), -1.0);
  EXPECT_DOUBLE_EQ(value_of("mod(-1, 3)"), 2.0);
  EXPECT_NEAR(value_of("atan2(1, 1) * 4"), std::acos(-1.0), 1e-15);
  EXPECT_NEAR(value_of("exp(log(a)) + sqrt(4) + abs(-1) + cosh(0) + tanh(0)"), 6.0, 1e-15);
}

TEST(EquationsLanguage, OperatorsOfAConstantFieldVanish) {
  for (const char* e : {"lap(u)", "grad_x(u)", "grad_y(u*u)", "grad_xf(u)", "grad_xb(u)", "grad_yf(u)", "grad_yb(u)", "lap(lap(u))", "div(a*grad(u))", "advect(u, 1, -1)", "lap(u*a)", "div(tensor(a, 0.5*a, u)*grad(u))"})
    EXPECT_DOUBLE_EQ(value_of(e, 0.7), 0.0) << e;
}

TEST(EquationsLanguage, ReachAddsUpThroughNestedOperatorsAndDefines) {
  EXPECT_EQ(compile(TextModel{{"u"}, {"u*(1 - u)"}, {}, {}}).reach, 0);
  EXPECT_EQ(compile(TextModel{{"u"}, {"lap(u)"}, {}, {}}).reach, 1);
  EXPECT_EQ(compile(TextModel{{"u"}, {"lap(lap(u))"}, {}, {}}).reach, 2);
  EXPECT_EQ(compile(TextModel{{"u"}, {"lap(r)"}, {}, {{"r", "grad_x(u)"}}}).reach, 2);
}

TEST(EquationsLanguage, AParseErrorShowsTheEquationWithACaret) {
  const std::string e = error_of(TextModel{{"u"}, {"Du*lap(u) - u*v^^2"}, {"Du"}, {}});
  EXPECT_TRUE(contains(e, "model.equations.u")) << e;
  EXPECT_TRUE(contains(e, "    Du*lap(u) - u*v^^2\n    " + std::string(16, ' ') + "^ expected a number, a name or '('")) << e;
  EXPECT_TRUE(contains(error_of(TextModel{{"u"}, {"(u + 1"}, {}, {}}), "where ')' closes the '(' at column 1"));
  EXPECT_TRUE(contains(error_of(TextModel{{"u"}, {"2u"}, {}, {}}), "write a '*' between them"));
  EXPECT_TRUE(contains(error_of(TextModel{{"u"}, {"a < u < 1"}, {"a"}, {}}), "comparisons do not chain"));
  EXPECT_TRUE(contains(error_of(TextModel{{"u"}, {""}, {}, {}}), "empty"));
  EXPECT_TRUE(contains(error_of(TextModel{{"u"}, {"u $ 2"}, {}, {}}), "unexpected character '$'"));
}

TEST(EquationsLanguage, AnUnknownNameListsWhatExistsAndTheClosest) {
  const std::string e = error_of(TextModel{{"u", "v"}, {"Dw*lap(u)", "0"}, {"Du", "Dv"}, {}});
  EXPECT_TRUE(contains(e, "unknown name 'Dw'; did you mean 'Du'?")) << e;
  EXPECT_TRUE(contains(e, "species: u, v")) << e;
  EXPECT_TRUE(contains(e, "parameters: Du, Dv")) << e;
  const std::string f = error_of(TextModel{{"u"}, {"lapl(u)"}, {}, {}});
  EXPECT_TRUE(contains(f, "unknown function 'lapl'; did you mean 'lap'?")) << f;
  EXPECT_TRUE(contains(error_of(TextModel{{"u"}, {"exp"}, {}, {}}), "'exp' is a function"));
  EXPECT_TRUE(contains(error_of(TextModel{{"u"}, {"u(1 + u)"}, {}, {}}), "a '*' may be missing"));
  EXPECT_TRUE(contains(error_of(TextModel{{"u"}, {"max(u)"}, {}, {}}), "max takes 2 arguments, given 1"));
}

TEST(EquationsLanguage, ChecksBeforeRunning) {
  EXPECT_TRUE(contains(error_of(TextModel{{"u"}, {"u / 0"}, {}, {}}), "division by zero"));
  EXPECT_TRUE(contains(error_of(TextModel{{"u", "u"}, {"0", "0"}, {}, {}}), "declared twice"));
  EXPECT_TRUE(contains(error_of(TextModel{{"u"}, {"0"}, {"x"}, {}}), "predefined"));
  EXPECT_TRUE(contains(error_of(TextModel{{"u"}, {"div(u)"}, {}, {}}), "div takes K*grad(u)"));
  EXPECT_TRUE(contains(error_of(TextModel{{"u"}, {"r"}, {}, {{"r", "s"}, {"s", "r + 1"}}}), "defined in terms of itself"));
  EXPECT_TRUE(contains(error_of(TextModel{{}, {}, {}, {}}), "1 to 8 species"));
  const Program p = compile(TextModel{{"u"}, {"u*used"}, {"unused", "used"}, {}});
  EXPECT_EQ(p.params_used, (std::vector<bool>{false, true}));
}

TEST(EquationsLanguage, NoiseIsForValuesAndAlgebraicSpeciesAreDefines) {
  EXPECT_TRUE(contains(error_of(TextModel{{"u"}, {"u + randn()"}, {}, {}}), "rand"));
  TextModel value{{"value_"}, {"rand() + randn()"}, {}, {}};
  value.random = true;
  EXPECT_NO_THROW(compile(value));
  EXPECT_TRUE(contains(error_of(TextModel{{"u"}, {"rand(u)"}, {}, {}}), "rand takes 0 arguments, given 1"));
  TextModel ch{{"u"}, {"lap(mu)"}, {"g"}, {{"f", "u^3 - u"}}};
  ch.algebraic = {{"mu", "f - g*lap(u)"}};
  const Program p = compile(ch);
  EXPECT_EQ(p.reach, 2) << "lap of an algebraic species reads what it reads";
  ASSERT_EQ(p.algebraic.size(), 1u);
  EXPECT_EQ(p.define_names[std::size_t(p.algebraic[0])], "mu");
  ch.algebraic = {{"mu", "lap(mu)"}};
  EXPECT_TRUE(contains(error_of(ch), "model.algebraic.mu: 'mu' is defined in terms of itself")) << error_of(ch);
  ch.algebraic = {{"f", "u"}};
  EXPECT_TRUE(contains(error_of(ch), "declared twice")) << error_of(ch);
}

TEST(EquationsLanguage, DefinesMayComeInAnyOrder) {
  EXPECT_DOUBLE_EQ(value_of("u"), 0.5);
  const TextModel m{{"u"}, {"s + r"}, {}, {{"s", "r*2"}, {"r", "u + 1"}}};
  EXPECT_NO_THROW(compile(m));
}

TEST(EquationsLanguage, TheStencilsAreSecondOrderOnASmoothField) {
  // lap(sin x sin y) = -2 sin x sin y, grad_x = cos x sin y; errors fall fourfold when h halves.
  auto error = [](int n, const char* text, auto exact) {
    const double h = 1.0 / n;
    const Grid2 g{n, n, h, h};
    const Program p = compile(TextModel{{"u"}, {text}, {}, {}});
    Field<double> s(g, 1, 2, MemorySpace::host), k(g, 1, 2, MemorySpace::host);
    for (int j = -2; j < n + 2; ++j)
      for (int i = -2; i < n + 2; ++i) s.view()(0, i, j) = std::sin(g.x(i)) * std::sin(g.y(j));
    const TextCell<double> cell(reading(s.cview(), k.cview(), g));
    double out[8], e = 0;
    const Interpreter<double> run(p);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        run(cell, i, j, 0, out);
        e = std::max(e, std::abs(out[0] - exact(g.x(i), g.y(j))));
      }
    return e;
  };
  auto lap = [](double x, double y) { return -2 * std::sin(x) * std::sin(y); };
  auto gx = [](double x, double y) { return std::cos(x) * std::sin(y); };
  EXPECT_NEAR(error(16, "lap(u)", lap) / error(32, "lap(u)", lap), 4.0, 0.2);
  EXPECT_NEAR(error(16, "grad_x(u)", gx) / error(32, "grad_x(u)", gx), 4.0, 0.2);
  EXPECT_NEAR(error(16, "div(1*grad(u))", lap) / error(32, "div(1*grad(u))", lap), 4.0, 0.2);
}

// ---- 3D grids ----

// Expression `text` of u and the parameters `params` at every cell of a 3D grid, u and the parameters
// (components 0 and 1.. of `value(c, x, y, z)`) set in every cell, ghosts too; with the fields.
struct Volume {
  Grid2 g;
  Field<double> u, k;
  std::vector<double> out;
};
template <class Value>
Volume evaluate_3d(const Grid2& g, const std::string& text, const std::vector<std::string>& params, Value value) {
  TextModel m{{"u"}, {text}, params, {}};
  m.volume = true;
  const Program p = compile(m);
  const int ghost = std::max(1, p.reach), np = std::max<int>(1, int(params.size()));
  Volume v{g, Field<double>(g, 1, ghost, MemorySpace::host), Field<double>(g, np, ghost, MemorySpace::host), {}};
  for (int k = -ghost; k < g.nz + ghost; ++k)
    for (int j = -ghost; j < g.ny + ghost; ++j)
      for (int i = -ghost; i < g.nx + ghost; ++i) {
        v.u.view()(0, i, j, k) = value(0, g.x(i), g.y(j), g.z(k));
        for (std::size_t c = 0; c < params.size(); ++c) v.k.view()(int(c), i, j, k) = value(int(c) + 1, g.x(i), g.y(j), g.z(k));
      }
  v.out = cells_of(p, p.equations[0], v.u.cview(), v.k.cview(), g);
  return v;
}

Grid2 cube(int n, double h) {
  Grid2 g{n, n, h, h};
  g.nz = n, g.dz = h;
  return g;
}

// The largest |v - exact(x, y, z)| over the cells of v's grid.
template <class Exact>
double largest_error(const Volume& v, Exact exact) {
  double e = 0;
  for (int k = 0; k < v.g.nz; ++k)
    for (int j = 0; j < v.g.ny; ++j)
      for (int i = 0; i < v.g.nx; ++i)
        e = std::max(e, std::abs(v.out[std::size_t(v.g.extents().index(i, j, k))] - exact(v.g.x(i), v.g.y(j), v.g.z(k))));
  return e;
}

// A symmetric positive definite M with every entry not 0: xx, xy, yy, xz, yz, zz.
constexpr double tensor_m[6] = {1.0, 0.3, 0.8, -0.2, 0.25, 0.6};

// u = sin x sin y sin z and the tensor K = s M, s = 1 + 0.3 sin(x + y + z): components u, xx, ..., zz.
double tensor_field(int c, double x, double y, double z) {
  if (c == 0) return std::sin(x) * std::sin(y) * std::sin(z);
  return tensor_m[c - 1] * (1 + 0.3 * std::sin(x + y + z));
}
const std::vector<std::string> entries = {"kxx", "kxy", "kyy", "kxz", "kyz", "kzz"};
const std::string tensor_text = "div(tensor(kxx, kxy, kyy, kxz, kyz, kzz)*grad(u))";

TEST(EquationsLanguage, OnA3dGridATensorIsTheBuiltInStencilToTheBit) {
  Grid2 g{7, 6, 0.5, 0.4};
  g.nz = 5, g.dz = 0.3;
  const auto field = [](int c, double x, double y, double z) {
    return tensor_field(c, x, y, z) + 0.1 * std::cos(3 * x * (c + 1) - y + 2 * z);
  };
  const Volume v = evaluate_3d(g, tensor_text, entries, field);
  const FieldView<const double> u = v.u.cview(), m = v.k.cview();
  const Spacing<double> h = Spacing<double>::make(g.dx, g.dy, u.pitch, g.dz, u.plane);
  const ConstParam<double> d(1.0);
  for (int k = 0; k < g.nz; ++k)
    for (int j = 0; j < g.ny; ++j)
      for (int i = 0; i < g.nx; ++i) {
        const int64_t o = u.offset(i, j, k);
        const double builtin = pdex::div_tensor(u.comp(0), o, d, m.comp(0), m.comp(1), m.comp(2), h) +
                               pdex::div_tensor_z(u.comp(0), o, d, m.comp(0), m.comp_stride, h);
        ASSERT_EQ(v.out[std::size_t(g.extents().index(i, j, k))], builtin) << i << " " << j << " " << k;
      }
}

TEST(EquationsLanguage, OnA3dGridATensorIsSecondOrderAndADiagonalOneIsDivKGrad) {
  // div(K grad u) = s div(M grad u) + grad s . M grad u for tensor_field's K = s M.
  const auto exact = [](double x, double y, double z) {
    const double* m = tensor_m;
    const double sx = std::sin(x), sy = std::sin(y), sz = std::sin(z), cx = std::cos(x), cy = std::cos(y), cz = std::cos(z);
    const double s = 1 + 0.3 * std::sin(x + y + z), ds = 0.3 * std::cos(x + y + z);
    const double gx = cx * sy * sz, gy = sx * cy * sz, gz = sx * sy * cz, u = sx * sy * sz;
    const double mhm = -(m[0] + m[2] + m[5]) * u + 2 * (m[1] * cx * cy * sz + m[3] * cx * sy * cz + m[4] * sx * cy * cz);
    const double mg[3] = {m[0] * gx + m[1] * gy + m[3] * gz, m[1] * gx + m[2] * gy + m[4] * gz, m[3] * gx + m[4] * gy + m[5] * gz};
    return s * mhm + ds * (mg[0] + mg[1] + mg[2]);
  };
  auto error = [&](int n) { return largest_error(evaluate_3d(cube(n, 2.0 / n), tensor_text, entries, tensor_field), exact); };
  EXPECT_NEAR(error(16) / error(32), 4.0, 0.3);
  const Grid2 g = cube(8, 0.25);
  const auto scalar = [](int c, double x, double y, double z) { return tensor_field(c == 0 ? 0 : 1, x, y, z); };
  const Volume diagonal = evaluate_3d(g, "div(tensor(K, 0, K, 0, 0, K)*grad(u))", {"K"}, scalar);
  const Volume isotropic = evaluate_3d(g, "div(K*grad(u))", {"K"}, scalar);
  double most = 0;
  for (std::size_t c = 0; c < diagonal.out.size(); ++c) {
    EXPECT_NEAR(diagonal.out[c], isotropic.out[c], 1e-12 * (1 + std::abs(isotropic.out[c])));
    most = std::max(most, std::abs(isotropic.out[c]));
  }
  EXPECT_GT(most, 0.5) << "a flux to compare";
}

// (a . grad) u with velocities that change sign across the domain: first order, the error halving with
// h; the z term reads the cell below where a_z > 0 and the cell above where a_z < 0.
TEST(EquationsLanguage, OnA3dGridAdvectIsFirstOrderUpwind) {
  const auto field = [](int c, double x, double y, double z) {
    switch (c) {
      case 0: return std::sin(x) * std::cos(y) * std::sin(z);
      case 1: return std::cos(x + z);
      case 2: return 0.5 - std::sin(y);
      default: return std::sin(x - y + 2 * z);
    }
  };
  const auto exact = [&](double x, double y, double z) {
    return field(1, x, y, z) * std::cos(x) * std::cos(y) * std::sin(z) - field(2, x, y, z) * std::sin(x) * std::sin(y) * std::sin(z) +
           field(3, x, y, z) * std::sin(x) * std::cos(y) * std::cos(z);
  };
  auto error = [&](int n) { return largest_error(evaluate_3d(cube(n, 2.0 / n), "advect(u, ax, ay, az)", {"ax", "ay", "az"}, field), exact); };
  EXPECT_NEAR(error(16) / error(32), 2.0, 0.2);
  // u = z^2, a_z = 2 below z = 1 and -3 above: the backward difference 2z - dz where a_z > 0, else the
  // forward one 2z + dz (exact here).
  const auto column = [](int c, double, double, double z) { return c == 0 ? z * z : c == 3 ? (z < 1 ? 2.0 : -3.0) : 0.0; };
  const Volume v = evaluate_3d(cube(4, 0.5), "advect(u, ax, ay, az)", {"ax", "ay", "az"}, column);
  for (int k = 0; k < 4; ++k) {
    const double z = v.g.z(k);
    EXPECT_EQ(v.out[std::size_t(v.g.extents().index(1, 2, k))], z < 1 ? 2 * (2 * z - 0.5) : -3 * (2 * z + 0.5)) << "plane " << k;
  }
}

TEST(EquationsLanguage, OnA3dGridTensorAndAdvectTakeTheirThreeDArguments) {
  TextModel deep{{"u"}, {""}, {"a"}, {}};
  deep.volume = true;
  TextModel flat = deep;
  flat.volume = false;
  auto refused = [](TextModel m, const std::string& text) {
    m.equations = {text};
    return error_of(m);
  };
  EXPECT_TRUE(contains(refused(deep, "div(tensor(1, 0, 1)*grad(u))"),
                       "tensor takes 6 entries on a 3D grid, given 3: tensor(kxx, kxy, kyy, kxz, kyz, kzz)"));
  EXPECT_TRUE(contains(refused(flat, "div(tensor(1, 0, 1, 0, 0, 1)*grad(u))"),
                       "tensor takes 3 entries on a 2D grid, given 6: tensor(kxx, kxy, kyy)"));
  EXPECT_TRUE(contains(refused(deep, "advect(u, 1, 0)"), "advect takes 4 arguments on a 3D grid, given 3: advect(u, ax, ay, az)"));
  EXPECT_TRUE(contains(refused(flat, "advect(u, 1, 0, a)"), "advect takes 3 arguments on a 2D grid, given 4: advect(u, ax, ay)"));
  EXPECT_TRUE(contains(refused(deep, "tensor(1, 0, 1, 0, 0, 1)"), "div(tensor(kxx, kxy, kyy, kxz, kyz, kzz)*grad(u))"));
  EXPECT_EQ(refused(deep, "div(tensor(a, 0, a, 0, 0, a)*grad(u)) - advect(u, 1, 0, a)"), "");
  EXPECT_EQ(refused(flat, "div(tensor(a, 0, a)*grad(u)) - advect(u, 1, 0)"), "");
}

// Parameter a varies, b is a number: the generated code takes b from the stage's constants.
Program with_b_constant(Program p) {
  p.constant_params = {false, true};
  return p;
}

// One forward-Euler stage of `m` on a 12 x 10 grid of smooth, varied values, by `step`.
template <class T, class Step>
std::vector<T> one_step(const TextModel& m, Step step) {
  const Program p = with_b_constant(compile(m));
  const Grid2 g{12, 10, 0.1, 0.2, -0.3, 0.1};
  const int n = int(m.species.size()), ghost = std::max(1, p.reach);
  Field<T> u(g, n, ghost, MemorySpace::host), out(g, n, ghost, MemorySpace::host), k(g, 2, ghost, MemorySpace::host);
  for (int c = 0; c < n; ++c)
    for (int j = -ghost; j < g.ny + ghost; ++j)
      for (int i = -ghost; i < g.nx + ghost; ++i) u.view()(c, i, j) = T(0.5 + 0.3 * std::sin(0.7 * i + 1.3 * j + c));
  for (int j = -ghost; j < g.ny + ghost; ++j)
    for (int i = -ghost; i < g.nx + ghost; ++i) k.view()(0, i, j) = T(1 + 0.1 * i), k.view()(1, i, j) = T(-0.4);
  StageArgs<T> a = reading(u.cview(), k.cview(), g, 0.25);
  a.constants.v[1] = T(-0.4);
  a.st = RkStores<T, FloorLimit<T>>{u.cview(), {}, out.view(), FieldBoundary::all(BcKind::periodic), {}, {}, T(0.01), T(0), {}, false};
  step(p, a);
  return out.interior(n - 1);
}

// The GPU's kernels of text models, 2D and 3D, with every operator, compiled by NVRTC for an H200
// (sm_90) without a device: where no GPU is present (CI), the check that codegen writes source NVRTC
// takes. Builds without CUDA, or without NVRTC's library, skip saying so.
TEST(EquationsLanguage, TheGeneratedGpuSourceCompilesWithNvrtc) {
#if PDEX_HAVE_CUDA
  TextModel flat{{"u", "v"},
                 {"a*lap(u) - r + exp(-u)*sin(x) - advect(u, a, b) + if(u > 0.6, tanh(v), cosh(y*t))",
                  "div(a*grad(v)) + div(tensor(1 + u, b*v, 2)*grad(u)) + grad_x(r) - grad_y(v^3) + grad_xf(u) - grad_xb(v) + "
                  "grad_yf(r) - grad_yb(u) + atan2(u, v) + max(u, v)^2.5 + mod(u, 0.3) + heaviside(u - v) + L_x/dx + pi"},
                 {"a", "b"},
                 {{"r", "u*v^2 - s"}, {"s", "lap(v)"}}};
  TextModel deep{{"u"},
                 {"lap(u) + div(tensor(1 + u, 0.1, a, 0.2*z, 0, 1)*grad(u)) - advect(u, a, 1, -a) + grad_z(u) + grad_zf(u*u) - "
                  "grad_zb(u) + div(a*grad(u)) + L_z/dz"},
                 {"a"},
                 {}};
  deep.volume = true;
  // Streamable (their streaming kernels compile too): a parameter field read at the cell, x, y and t, a
  // number's gradient; one species and two.
  const TextModel one{{"u"}, {"a*lap(u) - advect(u, 0.3, b) + grad_xf(u) - grad_yb(u) + div(b*grad(u)) + sin(x*y + t)*u"}, {"a", "b"}, {}};
  const TextModel two{{"u", "v"}, {"a*lap(u) - u*v^2 + b*(1 - u)", "lap(v) + div(u*grad(v)) + u*v^2 - (a + b)*v + grad_x(u)"}, {"a", "b"}, {}};
  for (const TextModel& m : {flat, deep, one, two}) {
    SCOPED_TRACE(m.volume ? "3D" : m.equations[0]);
    try {
      compile_device_kernels(with_b_constant(compile(m)), "90");
    } catch (const Error& e) {
      if (std::string(e.what()).find("cannot load") != std::string::npos) GTEST_SKIP() << e.what();
      ADD_FAILURE() << e.what();
    }
  }
#else
  GTEST_SKIP() << "pdex was built without CUDA: no NVRTC";
#endif
}

// A program streams (its species' stars in registers, several steps a pass on the GPU) where every
// spatial operator reads a species or a number; an expression, a define, a parameter field or a tensor
// under an operator, or a 3D grid, keeps it one pass a step.
TEST(EquationsLanguage, StreamableProgramsReadOnlySpeciesStarsOrNumbers) {
  auto streams = [](const std::string& u, bool b_constant = true, bool volume = false) {
    TextModel m{{"u", "v"}, {u, "lap(v)"}, {"a", "b"}, {{"r", "u*v"}}};
    m.volume = volume;
    const Program p = compile(m);
    return streamable(b_constant ? with_b_constant(p) : p);
  };
  EXPECT_TRUE(streams("a*lap(u) - r + b*(1 - u)"));
  EXPECT_TRUE(streams("grad_x(u) + grad_yf(v) - advect(u, a, 2*b) + div(b*grad(u)) + div(v*grad(u)) + x*y*t + r"));
  EXPECT_TRUE(streams("lap(u) + div(0.5*grad(v))"));
  EXPECT_FALSE(streams("lap(u*v)"));
  EXPECT_FALSE(streams("grad_x(r)"));
  EXPECT_FALSE(streams("div(a*grad(u))")) << "a is a parameter field";
  EXPECT_FALSE(streams("div(b*grad(u))", false)) << "b is a parameter field here";
  EXPECT_FALSE(streams("div(tensor(1, 0.1, 1)*grad(u))"));
  EXPECT_FALSE(streams("lap(u)", true, true)) << "a 3D grid";
}

TEST(EquationsLanguage, CompiledAndInterpretedStepsAgreeToTheBit) {
  const std::filesystem::path cache = std::filesystem::temp_directory_path() / ("pdex-test-cache-" + std::to_string(::getpid()));
  ::setenv("PDEX_CACHE_DIR", cache.c_str(), 1);
  const TextModel m{{"u", "v"},
                    {"a*lap(u) - r + exp(-u)*sin(x) - advect(u, a, b) + if(u > 0.6, tanh(v), cosh(y*t))",
                     "div(a*grad(v)) + div(tensor(1 + u, b*v, 2)*grad(u)) + lap(u*v) + grad_x(r) - grad_y(v^3) + grad_xf(u) - grad_xb(v) + grad_yf(r) - grad_yb(u) + atan2(u, v) + max(u, v)^2.5 + mod(u, 0.3) + "
                     "heaviside(u - v) + sign(b) + sqrt(abs(v)) + log(1 + u) + pow(u, -2) + L_x/dx + L_y*dy + pi"},
                    {"a", "b"},
                    {{"r", "u*v^2 - s"}, {"s", "lap(v)"}}};
  auto interpreted = []<class T>(const Program& p, const StageArgs<T>& a) {
    stage_rows<max_components>(a, 0, a.grid.ny, Interpreter<T>(p), int(p.equations.size()));
  };
  auto compiled = []<class T>(const Program& p, const StageArgs<T>& a) {
    std::string why;
    const auto k = host_kernel<T>(p, why);
    ASSERT_TRUE(k.has_value()) << why;
    k->stage(&a, 0, a.grid.ny);
  };
  EXPECT_EQ(one_step<double>(m, compiled), one_step<double>(m, interpreted));
  EXPECT_EQ(one_step<float>(m, compiled), one_step<float>(m, interpreted));
  std::string why;
  const auto again = host_kernel<double>(with_b_constant(compile(m)), why);
  ASSERT_TRUE(again.has_value()) << why;
  EXPECT_TRUE(again->cached) << "the second request finds the library in the cache";
  const auto single = host_kernel<float>(with_b_constant(compile(m)), why);
  ASSERT_TRUE(single.has_value()) << why;
  EXPECT_NE(single->library, again->library) << "each precision has a library of its own";
  TextModel changed = m;
  changed.equations[0] += " + 1";
  const auto other = host_kernel<double>(with_b_constant(compile(changed)), why);
  ASSERT_TRUE(other.has_value()) << why;
  EXPECT_FALSE(other->cached) << "a changed text is compiled anew";
  EXPECT_NE(other->library, again->library);
  std::filesystem::remove_all(cache);
  ::unsetenv("PDEX_CACHE_DIR");
}

TEST(EquationsLanguage, FuzzedTextNeverCrashesTheParser) {
  const std::string alphabet = "uvaDx y0123456789.e+-*/^(),<>=!_ $lapexpif";
  std::mt19937 rng(45);
  int refused = 0;
  for (int k = 0; k < 20000; ++k) {
    std::string s(std::size_t(rng() % 24), ' ');
    for (char& c : s) c = alphabet[rng() % alphabet.size()];
    try {
      compile(TextModel{{"u", "v"}, {s, "u"}, {"a", "D"}, {}});
    } catch (const TextModelError&) {
      ++refused;
    }
  }
  EXPECT_GT(refused, 10000);  // most random text is not an expression, and says so without crashing
}

}  // namespace
}  // namespace pdex::eq
