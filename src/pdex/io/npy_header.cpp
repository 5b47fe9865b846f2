#include "pdex/io/npy_header.hpp"

#include <limits>
#include <optional>
#include <utility>

#include "pdex/core/error.hpp"

namespace pdex::io {

namespace {

constexpr const char* supported_dtypes = "expected little-endian float32/float64/int32/int64/uint8/bool";

std::optional<NpyDtype> dtype_from_descr(std::string_view descr) {
  if (descr == "<f4") return NpyDtype::f4;
  if (descr == "<f8") return NpyDtype::f8;
  if (descr == "<i4") return NpyDtype::i4;
  if (descr == "<i8") return NpyDtype::i8;
  if (descr == "|u1") return NpyDtype::u1;
  if (descr == "|b1") return NpyDtype::b1;
  return std::nullopt;
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// A cursor over the header text; every failure names the file and shows the header so a user
// can see what their writer produced.
class HeaderReader {
 public:
  HeaderReader(std::string_view text, const std::string& where) : text_(text), where_(where) {}

  NpyHeader parse() {
    std::optional<std::string> descr;
    std::optional<bool> fortran_order;
    std::optional<std::vector<std::size_t>> shape;
    skip_space();
    expect('{');
    skip_space();
    while (!accept('}')) {
      const std::string key = read_string();
      skip_space();
      expect(':');
      skip_space();
      if (key == "descr") {
        if (descr) fail("key 'descr' appears twice");
        if (at_end() || (peek() != '\'' && peek() != '"')) {
          throw InputError(where_ + ": unsupported dtype (structured arrays are not supported); " + supported_dtypes);
        }
        descr = read_string();
      } else if (key == "fortran_order") {
        if (fortran_order) fail("key 'fortran_order' appears twice");
        fortran_order = read_bool();
      } else if (key == "shape") {
        if (shape) fail("key 'shape' appears twice");
        shape = read_shape();
      } else {
        fail("unexpected key '" + key + "'; expected only 'descr', 'fortran_order' and 'shape'");
      }
      skip_space();
      if (!accept(',')) {
        expect('}');
        break;
      }
      skip_space();
    }
    skip_space();
    if (!at_end()) fail("unexpected text after the closing '}'");
    if (!descr) fail("missing key 'descr'");
    if (!fortran_order) fail("missing key 'fortran_order'");
    if (!shape) fail("missing key 'shape'");

    const std::optional<NpyDtype> dtype = dtype_from_descr(*descr);
    if (!dtype) throw InputError(where_ + ": unsupported dtype '" + *descr + "'; " + supported_dtypes);
    return NpyHeader{*dtype, *fortran_order, std::move(*shape)};
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    std::string shown(text_.substr(0, 160));
    while (!shown.empty() && is_space(shown.back())) shown.pop_back();
    for (char& c : shown) {
      if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7E) c = '?';
    }
    throw InputError(where_ + ": malformed .npy header (" + why + " at offset " + std::to_string(pos_) +
                     "): \"" + shown + (text_.size() > 160 ? "..." : "") + "\"");
  }

  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return text_[pos_]; }

  void skip_space() {
    while (!at_end() && is_space(peek())) ++pos_;
  }

  bool accept(char c) {
    if (at_end() || peek() != c) return false;
    ++pos_;
    return true;
  }

  void expect(char c) {
    if (!accept(c)) fail(std::string("expected '") + c + "'");
  }

  std::string read_string() {
    if (at_end() || (peek() != '\'' && peek() != '"')) fail("expected a quoted string");
    const char quote = text_[pos_++];
    std::string out;
    while (!at_end() && peek() != quote) out += text_[pos_++];
    expect(quote);
    return out;
  }

  bool read_bool() {
    for (const auto& [word, value] : {std::pair{std::string_view("True"), true}, std::pair{std::string_view("False"), false}}) {
      if (text_.substr(pos_, word.size()) == word) {
        pos_ += word.size();
        return value;
      }
    }
    fail("expected True or False");
  }

  std::size_t read_extent() {
    if (at_end() || peek() < '0' || peek() > '9') fail("expected a non-negative integer");
    std::size_t v = 0;
    while (!at_end() && peek() >= '0' && peek() <= '9') {
      const std::size_t digit = static_cast<std::size_t>(peek() - '0');
      if (v > (std::numeric_limits<std::size_t>::max() - digit) / 10) fail("shape extent overflows");
      v = v * 10 + digit;
      ++pos_;
    }
    accept('L');  // Python 2 long literals, as in headers written by NumPy under Python 2: (3L, 4L)
    return v;
  }

  std::vector<std::size_t> read_shape() {
    std::vector<std::size_t> shape;
    expect('(');
    skip_space();
    while (!accept(')')) {
      shape.push_back(read_extent());
      skip_space();
      if (!accept(',')) {
        expect(')');
        break;
      }
      skip_space();
    }
    return shape;
  }

  std::string_view text_;
  const std::string& where_;
  std::size_t pos_ = 0;
};

}  // namespace

std::size_t npy_dtype_size(NpyDtype dtype) {
  switch (dtype) {
    case NpyDtype::f4: return 4;
    case NpyDtype::f8: return 8;
    case NpyDtype::i4: return 4;
    case NpyDtype::i8: return 8;
    case NpyDtype::u1: return 1;
    case NpyDtype::b1: return 1;
  }
  return 1;
}

NpyHeader parse_npy_header(std::string_view text, const std::string& where) {
  return HeaderReader(text, where).parse();
}

}  // namespace pdex::io
