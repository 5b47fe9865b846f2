#pragma once
// Numbers in messages and listings: six significant digits, as printf's %g.
#include <sstream>
#include <string>

namespace pdex {

inline std::string format_number(double x) {
  std::ostringstream s;
  s.precision(6);
  s << x;
  return s.str();
}

}  // namespace pdex
