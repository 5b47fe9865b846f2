#pragma once
// The expression language of text models (docs/config.md, "Models as equations"): numbers, names,
// + - * / ^, comparisons, parentheses and calls. `^` binds tighter than a unary minus and groups to
// the right (-u^2 is -(u^2), 2^3^2 is 2^9); comparisons bind loosest and do not chain. The parser
// builds a syntax tree and knows no names: model_text.hpp checks them.
#include <string>
#include <vector>

#include "pdex/core/error.hpp"

namespace pdex::eq {

enum class Kind { number, name, negate, add, sub, mul, div, pow, less, less_equal, greater, greater_equal, equal, not_equal, call };

struct Expr {
  Kind kind = Kind::number;
  double value = 0;        // a number's
  std::string name;        // a name's, or the function a call calls
  std::vector<Expr> args;  // operands, or a call's arguments
  int column = 0;          // where its token starts in the text, from 0
};

// A syntax or name error at a column of an expression's text.
class ExprError : public InputError {
 public:
  ExprError(int at, const std::string& what) : InputError(what), column(at) {}
  int column;
};

// Parses one expression; throws ExprError at the first column that does not fit.
Expr parse_expression(const std::string& text);

// The text, a caret under `column` and the message: what a person reads to fix an equation.
std::string with_caret(const std::string& text, int column, const std::string& what);

}  // namespace pdex::eq
