#pragma once
// A text model checked and flattened: every name resolved to a slot, every call to a known function or
// spatial operator, ready for the interpreter (interpreter.hpp) and, later, for generated source.
// Building one reports, before anything runs, what a scientist needs to fix: the key, the equation
// with a caret, the names that exist and the closest one.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "pdex/core/error.hpp"
#include "pdex/models/equations/expression.hpp"
#include "pdex/models/equations/functions.hpp"

namespace pdex::eq {

// The model as its configuration writes it (model.species, model.equations, model.params, model.define).
struct TextModel {
  std::vector<std::string> species;
  std::vector<std::string> equations;                          // one per species, in species order
  std::vector<std::string> params;                             // parameter names
  std::vector<std::pair<std::string, std::string>> defines;   // name, expression; each may use those before it
  std::vector<std::pair<std::string, std::string>> algebraic = {};  // [model.algebraic]: defines that are also output fields
  bool random = false;  // rand() and randn() allowed: an initial value's or a parameter's expression
  bool volume = false;  // on a 3D grid: z, dz, L_z and grad_z (grad_zf, grad_zb) exist, lap and div take z
};

enum class Op : std::uint8_t {
  constant, species, param, define, x, y, z, t, dx, dy, dz, length_x, length_y, length_z,
  negate, add, sub, mul, div, pow, powi, less, less_equal, greater, greater_equal, equal, not_equal, choose,
  func1, func2,
  lap, grad_x, grad_y, grad_z, grad_xf, grad_xb, grad_yf, grad_yb, grad_zf, grad_zb, advect, div_grad,
  advect_z,  // a 3D grid's advect(u, ax, ay, az) is advect(u, ax, ay) + advect_z(u, az): a = u, b = az
  tensor, div_tensor,  // div(tensor(xx, xy, yy)*grad(u)): a = the tensor node (a, b, c its entries), b = u
  // A 3D grid's div(tensor(xx, xy, yy, xz, yz, zz)*grad(u)) is that div_tensor + div_tensor_z, whose a is
  // the tensor node of xz, yz, zz and b = u.
  div_tensor_z,
  rand, randn,  // noise: initial values and parameters only (TextModel::random)
};

// One node; a, b, c index its operands in Program::nodes.
struct Node {
  Op op = Op::constant;
  Fn fn = Fn::exp;
  int a = -1, b = -1, c = -1;
  int slot = 0;      // species, parameter or define index; powi's exponent; rand's call site
  double value = 0;  // a constant's
};

constexpr int max_defines = 64;

// A term D*lap(u) in species u's equation, D a constant times at most one parameter: the part the theta
// scheme takes implicitly. The equation holds sign * (the term's node); D = coefficient * the parameter.
struct ImplicitTerm {
  int term = -1;  // its node; -1: the species has none (everything explicit)
  double sign = 1, coefficient = 0;
  int param = -1;  // the parameter D holds, -1: none (D constant)
};

struct Program {
  std::vector<Node> nodes;
  std::vector<int> defines;    // the root of each define, in order
  std::vector<std::string> define_names;  // in that order
  std::vector<int> algebraic;  // per TextModel::algebraic, its index in defines
  std::vector<int> equations;  // the root of each species' right-hand side
  std::vector<ImplicitTerm> implicit;  // per species
  int reach = 0;               // how many cells beyond a cell its right-hand side reads (nested operators add up)
  bool volume = false;         // a 3D grid's (TextModel::volume): lap and div read the z neighbours too
  std::vector<bool> params_used;  // per parameter: whether the equations or defines use it
  // Per parameter (set by the run, not by compile()): a number rather than a value per cell, which the
  // generated code takes from the stage's arguments (text_cell.hpp's Constants) instead of a field.
  std::vector<bool> constant_params;
};

// An error in one key of the model's configuration (ConfigReader::fail adds the file and line).
class TextModelError : public InputError {
 public:
  TextModelError(std::string where, const std::string& what) : InputError(what), key(std::move(where)) {}
  std::string key;
};

// Whether parameter `slot` is a number, which the stages read from their Constants (text_cell.hpp), and
// else its component in the parameter field, which holds the parameters that vary alone (in order).
bool is_constant_param(const Program& p, int slot);
int param_component(const Program& p, int slot);

// Checks and flattens a model; throws TextModelError naming the key (model.equations.u, ...).
Program compile(const TextModel& model);

// The built-in functions and operators, for messages and documentation: name and argument count.
const std::vector<std::pair<std::string, int>>& functions();

}  // namespace pdex::eq
