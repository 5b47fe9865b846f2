// pdex bench chemotaxis: seed 002's Table 1 and Fig. 2 workload, the chemotaxis-Stokes system with the
// seed's data (sec. 5), per backend, precision and grid: seconds per forward-Euler step including the
// pressure's multigrid solve (to solver.tol, 1e-8 by default in f64), the share of the step spent in
// that solve, multigrid cycles per solve and cell updates per second. The seed's single-precision times
// are printed beside the table in docs/performance.md.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "pdex/models/chemotaxis/chemotaxis_config.hpp"
#include "pdex/app/commands.hpp"
#include "pdex/app/suite_args.hpp"
#include "pdex/core/error.hpp"
#include "pdex/models/chemotaxis/chemotaxis_stability.hpp"
#include "pdex/models/chemotaxis/chemotaxis_stepper.hpp"

namespace pdex {

namespace {
using bench::Clock;
using bench::seconds_since;

struct StepTiming {
  double step_s = 0, solve_share = 0, cycles_per_solve = 0;
};

// Median over 3 runs of k steps, k grown until a run lasts min_time / 4 or more.
StepTiming time_steps(Stepper& s, double min_time) {
  s.advance(2);  // warm-up: first touch, CUDA module load
  int64_t k = 1;
  for (;;) {
    const auto t0 = Clock::now();
    s.advance(k);
    const double t = seconds_since(t0);
    if (t >= min_time / 4 || k >= (int64_t(1) << 16)) {
      k = std::max<int64_t>(1, int64_t(double(k) * min_time / 4 / std::max(t, 1e-9)));
      break;
    }
    k *= 4;
  }
  std::vector<StepTiming> runs;
  for (int r = 0; r < 3; ++r) {
    const SolverTotals before = *s.solver_totals();
    const auto t0 = Clock::now();
    s.advance(k);
    const double t = seconds_since(t0);
    const SolverTotals& after = *s.solver_totals();
    runs.push_back({t / double(k), (after.seconds - before.seconds) / t,
                    double(after.iterations - before.iterations) / double(after.solves - before.solves)});
  }
  std::sort(runs.begin(), runs.end(), [](const StepTiming& a, const StepTiming& b) { return a.step_s < b.step_s; });
  return runs[1];
}
}  // namespace

int cmd_bench_chemotaxis(const std::vector<std::string>& args) {
  CLI::App app{"seed 002's chemotaxis-Stokes workload: forward-Euler steps with the pressure solve",
               "pdex bench chemotaxis"};
  std::vector<int> sizes{32, 64, 128, 256, 512, 1024, 2048, 4096};
  std::vector<std::string> backends, precisions{"f32", "f64"};
  std::string json_file = "bench-chemotaxis.json";
  double min_time = 0.5, tol = 0, max_serial_cells = 1 << 22;
  app.add_option("--sizes", sizes, "grid widths (the seed's and up to 4096)")->delimiter(',');
  app.add_option("--backends", backends, "backends (default: all available)")->delimiter(',');
  app.add_option("--precisions", precisions, "f32,f64")->delimiter(',');
  app.add_option("--tol", tol, "pressure solve's relative residual (default 1e-8 in f64, 1e-5 in f32)");
  app.add_option("--max-serial-cells", max_serial_cells, "skip serial runs on larger grids");
  app.add_option("--min-time", min_time, "seconds per timed run");
  app.add_option("--json", json_file, "output JSON file");
  if (const auto status = parse_suite_args(app, args)) return *status;
  if (backends.empty()) backends = available_backend_names();

  nlohmann::json rows = nlohmann::json::array();
  std::printf("seed 002 chemotaxis-Stokes step (forward Euler + multigrid pressure solve), seed data\n");
  std::printf("%-7s %-5s %6s %12s %11s %13s %10s\n", "backend", "prec", "N", "s/step", "in solve", "cycles/solve",
              "Mcell/s");
  for (const auto& pn : precisions) {
    const Precision p = parse_precision(pn);
    for (int n : sizes) {
      ChemotaxisSpec spec = seed002_spec(n, p);
      if (tol > 0) spec.solver.tol = tol;
      spec.dt = 0.5 * chemotaxis_theorem2(spec).dt_max;
      for (const auto& bn : backends) {
        const Backend b = parse_backend(bn);
        if (b == Backend::serial && double(n) * n > max_serial_cells) continue;
        StepTiming t;
        try {
          auto stepper = make_chemotaxis_stepper(spec, b, p);
          t = time_steps(*stepper, min_time);
        } catch (const NumericalError& e) {  // a solve that stalled above its rounding floor, or a blow-up
          std::printf("%-7s %-5s %6d  skipped: %s\n", bn.c_str(), pn.c_str(), n, e.what());
          rows.push_back({{"backend", bn}, {"precision", pn}, {"n", n}, {"error", e.what()}});
          continue;
        }
        const double mcells = double(n) * n / t.step_s / 1e6;
        std::printf("%-7s %-5s %6d %12.4e %10.1f%% %13.2f %10.1f\n", bn.c_str(), pn.c_str(), n, t.step_s,
                    100 * t.solve_share, t.cycles_per_solve, mcells);
        std::fflush(stdout);
        rows.push_back({{"backend", bn}, {"device", device_name(b)}, {"precision", pn}, {"n", n}, {"seconds_per_step", t.step_s},
                        {"pressure_share", t.solve_share}, {"cycles_per_solve", t.cycles_per_solve},
                        {"solver_tol", spec.solver.tol}, {"dt", spec.dt}, {"mcell_per_s", mcells},
                        {"threads", b == Backend::openmp ? openmp_threads() : 1}});
      }
    }
  }
  std::ofstream(json_file) << nlohmann::json{{"suite", "chemotaxis"}, {"rows", rows}}.dump(2) << "\n";
  std::printf("\nwrote %s\n", json_file.c_str());
  return 0;
}

}  // namespace pdex
