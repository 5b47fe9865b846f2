#include "pdex/models/equations/expression.hpp"

#include <cctype>
#include <cstdlib>

namespace pdex::eq {

namespace {

struct Token {
  enum Type { number, name, symbol, end } type = end;
  std::string text;
  double value = 0;
  int column = 0;
};

class Lexer {
 public:
  explicit Lexer(const std::string& s) : s_(s) { advance(); }
  const Token& peek() const { return tok_; }
  Token take() {
    Token t = tok_;
    advance();
    return t;
  }
  bool accept(const char* sym) {
    if (tok_.type != Token::symbol || tok_.text != sym) return false;
    advance();
    return true;
  }

 private:
  void advance() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
    tok_ = Token{};
    tok_.column = int(pos_);
    if (pos_ >= s_.size()) return;
    const char c = s_[pos_];
    if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && pos_ + 1 < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_ + 1]))))
      return number();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      std::size_t e = pos_;
      while (e < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[e])) || s_[e] == '_')) ++e;
      tok_ = {Token::name, s_.substr(pos_, e - pos_), 0, int(pos_)};
      pos_ = e;
      return;
    }
    for (const char* two : {"<=", ">=", "==", "!="})
      if (s_.compare(pos_, 2, two) == 0) {
        tok_ = {Token::symbol, two, 0, int(pos_)};
        pos_ += 2;
        return;
      }
    if (std::string("+-*/^(),<>").find(c) == std::string::npos)
      throw ExprError(int(pos_), std::string("unexpected character '") + c + "'");
    tok_ = {Token::symbol, std::string(1, c), 0, int(pos_)};
    ++pos_;
  }

  void number() {
    const char* start = s_.c_str() + pos_;
    char* end = nullptr;
    const double v = std::strtod(start, &end);
    std::size_t e = pos_ + std::size_t(end - start);
    if (e < s_.size() && (std::isalpha(static_cast<unsigned char>(s_[e])) || s_[e] == '_'))
      throw ExprError(int(e), "a number runs into a name: write a '*' between them");
    tok_ = {Token::number, s_.substr(pos_, e - pos_), v, int(pos_)};
    pos_ = e;
  }

  const std::string& s_;
  std::size_t pos_ = 0;
  Token tok_;
};

class Parser {
 public:
  explicit Parser(const std::string& s) : lex_(s) {}

  Expr all() {
    if (lex_.peek().type == Token::end) throw ExprError(0, "the expression is empty");
    Expr e = comparison();
    if (lex_.peek().type != Token::end) throw ExprError(lex_.peek().column, "expected an operator or the end, found '" + lex_.peek().text + "'");
    return e;
  }

 private:
  static Expr node(Kind k, int column, std::vector<Expr> args) {
    Expr e;
    e.kind = k;
    e.column = column;
    e.args = std::move(args);
    return e;
  }

  Expr comparison() {
    Expr left = sum();
    static const std::pair<const char*, Kind> ops[] = {{"<=", Kind::less_equal}, {">=", Kind::greater_equal}, {"==", Kind::equal},
                                                      {"!=", Kind::not_equal},   {"<", Kind::less},            {">", Kind::greater}};
    for (const auto& [sym, kind] : ops) {
      const int column = lex_.peek().column;
      if (!lex_.accept(sym)) continue;
      Expr e = node(kind, column, {std::move(left), sum()});
      for (const auto& [other, unused] : ops)
        if (lex_.peek().type == Token::symbol && lex_.peek().text == other)
          throw ExprError(lex_.peek().column, "comparisons do not chain: write if(a < b, ...) with one comparison, or use parentheses");
      return e;
    }
    return left;
  }

  Expr sum() {
    Expr e = product();
    for (;;) {
      const int column = lex_.peek().column;
      if (lex_.accept("+")) e = node(Kind::add, column, {std::move(e), product()});
      else if (lex_.accept("-")) e = node(Kind::sub, column, {std::move(e), product()});
      else return e;
    }
  }

  Expr product() {
    Expr e = unary();
    for (;;) {
      const int column = lex_.peek().column;
      if (lex_.accept("*")) e = node(Kind::mul, column, {std::move(e), unary()});
      else if (lex_.accept("/")) e = node(Kind::div, column, {std::move(e), unary()});
      else return e;
    }
  }

  Expr unary() {
    const int column = lex_.peek().column;
    if (lex_.accept("-")) return node(Kind::negate, column, {unary()});
    if (lex_.accept("+")) return unary();
    return power();
  }

  Expr power() {
    Expr base = primary();
    const int column = lex_.peek().column;
    if (lex_.accept("^")) return node(Kind::pow, column, {std::move(base), unary()});
    return base;
  }

  Expr primary() {
    const Token t = lex_.take();
    if (t.type == Token::number) {
      Expr e;
      e.value = t.value;
      e.column = t.column;
      return e;
    }
    if (t.type == Token::name) {
      Expr e;
      e.kind = Kind::name;
      e.name = t.text;
      e.column = t.column;
      if (lex_.accept("(")) {
        e.kind = Kind::call;
        if (!lex_.accept(")")) {
          do e.args.push_back(comparison());
          while (lex_.accept(","));
          expect_close(t.column);
        }
      }
      return e;
    }
    if (t.type == Token::symbol && t.text == "(") {
      Expr e = comparison();
      expect_close(t.column);
      return e;
    }
    if (t.type == Token::end) throw ExprError(t.column, "the expression ends early: expected a number, a name or '('");
    throw ExprError(t.column, "expected a number, a name or '(', found '" + t.text + "'");
  }

  void expect_close(int open) {
    if (lex_.accept(")")) return;
    const Token& t = lex_.peek();
    throw ExprError(t.column, (t.type == Token::end ? std::string("the expression ends") : "found '" + t.text + "'") +
                                  " where ')' closes the '(' at column " + std::to_string(open + 1));
  }

  Lexer lex_;
};

}  // namespace

Expr parse_expression(const std::string& text) { return Parser(text).all(); }

std::string with_caret(const std::string& text, int column, const std::string& what) {
  return "    " + text + "\n    " + std::string(std::size_t(column < 0 ? 0 : column), ' ') + "^ " + what;
}

}  // namespace pdex::eq
