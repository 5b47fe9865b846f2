#pragma once
// What the benchmark suites share: the seed 000 workload spec, medians; and the suites' entry points other than cmd_bench itself.
#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "pdex/app/suite_args.hpp"
#include "pdex/core/executor.hpp"
#include "pdex/grid/cell_source.hpp"
#include "pdex/models/ard/ard_catalog.hpp"
#include "pdex/models/ard/ard_spec.hpp"

namespace pdex::bench {

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// A run of `model` at its defaults on an n x n grid (n x n x n where dims is 3), noisy start; Turing's
// alpha noisy around 12 as in seed 000's spot pattern.
inline ArdSpec bench_spec(const std::string& model, int n, bool blocked = true, int dims = 2) {
  const ReactionInfo& info = ard_reaction(model);
  ArdSpec s;
  s.reaction = model;
  s.grid = Grid2{n, n};
  if (dims == 3) s.grid.nz = n;
  const auto noisy = [&](double value, double noise, uint64_t seed) {
    CellRecipe r;
    r.grid = s.grid, r.value = value, r.noise = noise, r.seed = seed;
    return CellSource(r);
  };
  for (const auto& p : info.params) s.params[p.name] = ScalarSpec{p.default_value, {}};
  if (model == "turing") s.params["alpha"].cells = noisy(12.0, 0.1, 7).cells(s.grid.cells());
  // Every species a little noise about its steady state, the second and later ones raised by 0.25 (Gray-Scott's
  // v: the autocatalyst present everywhere, so that the kinetics are busy).
  s.species = info.species;
  s.initial.clear();
  for (std::size_t c = 0; c < info.species.size(); ++c) s.initial.push_back(noisy(info.initial[c] + (c > 0 ? 0.25 : 0.0), 0.01, c + 1));
  s.dt = info.dt;
  s.temporal_blocking = blocked;
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
// pdex bench serve-client URL (serve_client.cpp): bench/serve_bench.py's client where there is no browser.
int cmd_bench_serve_client(const std::vector<std::string>& args);
}  // namespace pdex
