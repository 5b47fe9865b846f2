#pragma once
// A string as one word of a POSIX shell command line (std::system): single-quoted, inner quotes escaped.
#include <string>

namespace pdex {

inline std::string shell_quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

}  // namespace pdex
