#pragma once
// What the benchmark suites share: the seed 000 workload spec, medians; and the suites' entry points other than cmd_bench itself.
#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "pdex/config/field_specs.hpp"
#include "pdex/app/suite_args.hpp"
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
  s.initial[0] = uniform_noise(std::size_t(n) * n, 0.01, 1);
  s.initial[1] = uniform_noise(std::size_t(n) * n, 0.01, 2);
  for (double& u : s.initial[0]) u += info.initial[0];
  for (double& v : s.initial[1]) v += info.initial[1] + 0.25;
  s.dt = info.dt;
  s.temporal_blocking = tiled;
  return s;
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace pdex::bench

namespace pdex {
// pdex bench implicit (implicit_bench.cpp).
int cmd_bench_implicit(const std::vector<std::string>& args);
// pdex bench linalg (linalg_bench.cpp).
int cmd_bench_linalg(const std::vector<std::string>& args);
}  // namespace pdex
