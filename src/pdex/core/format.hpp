#pragma once
// Numbers in messages and listings: six significant digits, as printf's %g; pieces of text joined.
#include <initializer_list>
#include <sstream>
#include <string>
#include <string_view>

namespace pdex {

inline std::string format_number(double x) {
  std::ostringstream s;
  s.precision(6);
  s << x;
  return s.str();
}

// The pieces joined (not by a chain of +, on which GCC 12 warns falsely: -Wrestrict, bug 105651).
inline std::string cat(std::initializer_list<std::string_view> pieces) {
  std::string s;
  for (std::string_view p : pieces) s += p;
  return s;
}

}  // namespace pdex
