#pragma once
// Shared by the suites of `pdex bench` and `pdex verify`: their options arrive as the remainder of a
// prefix command, which CLI11 hands over reversed.
#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

#include "pdex/core/executor.hpp"

namespace pdex {

// Parses a suite's arguments; returns the exit status when parsing ends the command (--help, an
// error), nothing when the suite should run.
inline std::optional<int> parse_suite_args(CLI::App& app, const std::vector<std::string>& args) {
  std::vector<std::string> argv_rev(args.rbegin(), args.rend());
  try {
    app.parse(argv_rev);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  return std::nullopt;
}

// The backends this build and machine can run, by name.
inline std::vector<std::string> available_backend_names() {
  std::vector<std::string> names;
  for (Backend b : {Backend::serial, Backend::openmp, Backend::cuda})
    if (backend_available(b)) names.emplace_back(backend_name(b));
  return names;
}

}  // namespace pdex
