#pragma once
// What the benchmark suites share: the seed 000 workload spec, argument parsing in the suites' style,
// the default backend list, medians; and the suites' entry points other than cmd_bench itself.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "pdex/app/field_specs.hpp"
#include "pdex/core/executor.hpp"
#include "pdex/models/ard/ard_catalog.hpp"
#include "pdex/models/ard/ard_spec.hpp"

namespace pdex::bench {

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// A run of `model` at its defaults on an n x n grid, noisy start; Turing's alpha noisy around 12 as in
// seed 000's spot pattern.
inline ArdSpec bench_spec(const std::string& model, int n, bool tiled = true) {
  const ReactionInfo& info = ard_reaction(model);
  ArdSpec s;
  s.reaction = model;
  s.grid = Grid2{n, n};
  for (const auto& p : info.params) s.params[p.name] = ScalarSpec{p.default_value, {}};
  if (model == "turing") s.params["alpha"].cells = uniform_noise(std::size_t(n) * n, 0.1, 7);
  if (model == "turing") for (double& a : s.params["alpha"].cells) a += 12.0;
  s.u0 = uniform_noise(std::size_t(n) * n, 0.01, 1);
  s.v0 = uniform_noise(std::size_t(n) * n, 0.01, 2);
  for (double& u : s.u0) u += info.u0;
  for (double& v : s.v0) v += info.v0 + 0.25;
  s.dt = info.dt;
  s.temporal_blocking = tiled;
  return s;
}

// Parses a suite's arguments (those after SUITE); an exit status when the suite must stop (--help, errors).
inline std::optional<int> parse_suite_args(CLI::App& app, const std::vector<std::string>& args) {
  std::vector<std::string> argv_rev(args.rbegin(), args.rend());
  try {
    app.parse(argv_rev);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  return std::nullopt;
}

// Every backend this build and machine can run, when the user named none.
inline void default_to_available(std::vector<std::string>& backends) {
  if (!backends.empty()) return;
  for (Backend b : {Backend::serial, Backend::openmp, Backend::cuda})
    if (backend_available(b)) backends.emplace_back(backend_name(b));
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace pdex::bench

namespace pdex {
// pdex bench implicit (implicit_bench.cpp).
int cmd_bench_implicit(const std::vector<std::string>& args);
}  // namespace pdex
