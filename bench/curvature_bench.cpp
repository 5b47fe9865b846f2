// pdex bench curvature: seed 003's Tables 5-8 as far as their workloads are determined. Per backend,
// precision and grid: seconds per Runge-Kutta-Merson step (attempted steps, rejected ones included),
// GFLOPS counted as the seed counts them (85 FLOPs per cell for eq. 17, 85 + 218 for eqs. 21-22, per
// right-hand side), speed-ups against serial and OpenMP, and the right-hand-side kernels' achieved
// bandwidth as a fraction of the bandwidth measured in the same run (on the GPU also of a device copy
// that moves the same bytes, repeated as the right-hand side is); beside the seed's Core 2 / GTX 280
// GFLOPS. The problem is the verification's (manufactured initial state on (-4, 4)^2) without its
// forcing, so that the figures are those of the schemes themselves. Table 8 times the whole evolutions
// of the seed's Figures 1-2 (figure_spec) per backend.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "bandwidth.hpp"
#include "pdex/app/commands.hpp"
#include "pdex/app/suite_args.hpp"
#include "pdex/core/error.hpp"
#include "pdex/models/curvature/curvature_stepper.hpp"
#include "pdex/models/curvature/curvature_verify.hpp"
#include "pdex/models/curvature/seed_figures.hpp"

namespace pdex {

namespace {
using Clock = std::chrono::steady_clock;

struct SeedRow {  // the seed's 1-core and 4-core Core 2 Quad and GTX 280 columns
  double core1, core4, gtx280;
};

// Seed 003 Tables 5 (MCF f32), 6 (MCF f64), 7 (Willmore f64). Table 7's GTX 280 figures at 64^2 and
// 128^2 are unreadable in our copy and derived as 1-core GFLOPS x the printed speed-up.
const std::map<int, SeedRow>& seed_table(Flow f, Precision p) {
  static const std::map<int, SeedRow> t5{{16, {0.86, 0.86, 3.9}},  {32, {0.9, 1.08, 9.2}},   {64, {1.02, 1.32, 20.4}},
                                            {128, {0.9, 2.16, 33.7}}, {256, {0.96, 2.97, 47.4}}, {512, {0.91, 3.1, 47.1}},
                                            {1024, {0.9, 2.9, 48.8}}};
  static const std::map<int, SeedRow> t6{{16, {0.85, 0.93, 2.21}},  {32, {0.87, 1.31, 7.74}},  {64, {0.86, 1.46, 10.5}},
                                            {128, {0.83, 1.99, 16.3}}, {256, {0.8, 2.48, 17.7}},  {512, {0.76, 2.66, 17.4}},
                                            {1024, {0.72, 2.37, 17.2}}};
  static const std::map<int, SeedRow> t7{{16, {0.9, 2.0, 1.26}},   {32, {0.87, 2.7, 4.6}}, {64, {0.8, 2.9, 10.4}},
                                            {128, {0.83, 3.1, 16.6}}, {256, {0.81, 3.1, 17.0}}};
  if (f == Flow::willmore) return t7;
  return p == Precision::f32 ? t5 : t6;
}

CurvatureSpec bench_spec(Flow flow, int n) {
  VerifyOptions o;
  o.flow = flow;
  CurvatureSpec s = verification_spec(o, n);
  s.manufactured = false;  // the manufactured initial state, no forcing
  const Manufactured<double> m = manufactured_solution(verification_spec(o, n));
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) s.phi0.push_back(m.phi(0.0, s.grid.x(i), s.grid.y(j)));
  s.tol = 1e-6;
  s.dt = 1e-7;
  return s;
}

// Median seconds per call of `run(k)` (k repetitions) over 3 timed runs of about min_time each.
template <class Run>
double seconds_per(Run&& run, double min_time) {
  run(2);  // warm-up: first touch, step size settling
  int64_t k = 1;
  for (;;) {
    const auto t0 = Clock::now();
    const double done = run(k);
    const double t = std::chrono::duration<double>(Clock::now() - t0).count();
    if (t >= min_time / 4 || k >= (int64_t(1) << 20)) {
      k = std::max<int64_t>(1, int64_t(double(k) * min_time / std::max(t, 1e-9)));
      (void)done;
      break;
    }
    k *= 4;
  }
  std::vector<double> per;
  for (int r = 0; r < 3; ++r) {
    const auto t0 = Clock::now();
    const double units = run(k);
    per.push_back(std::chrono::duration<double>(Clock::now() - t0).count() / units);
  }
  std::sort(per.begin(), per.end());
  return per[1];
}

struct Timing {
  double step_s, rhs_s;
};

Timing time_one(CurvatureStepper& s, double min_time) {
  auto steps = [&](int64_t k) {  // per attempted step: rejected attempts cost the same work
    const int64_t before = s.step_stats().accepted + s.step_stats().rejected;
    s.advance(k);
    return double(s.step_stats().accepted + s.step_stats().rejected - before);
  };
  auto rhs = [&](int64_t k) {
    s.rhs_only(k);
    return double(k);
  };
  return {seconds_per(steps, min_time), seconds_per(rhs, min_time)};
}

Flow parse_flow(const std::string& name, const char* option) {
  if (name == "mean_curvature") return Flow::mean_curvature;
  if (name == "willmore") return Flow::willmore;
  throw InputError(std::string(option) + ": expected mean_curvature or willmore, got '" + name + "'");
}

// Seed 003 Table 8: seconds for the evolutions of its Figures 1-2 on 1 and 4 Core 2 cores and the GTX 280.
const SeedRow* seed_table8(Flow f, Precision p) {
  static const SeedRow mcf32{14.3, 4.08, 1.0}, mcf64{23.2, 6.62, 2.0}, willmore64{152717, 44354, 11818};
  if (f == Flow::willmore) return p == Precision::f64 ? &willmore64 : nullptr;
  return p == Precision::f32 ? &mcf32 : &mcf64;
}

// Table 8: each figure's whole evolution (figure_spec, to figure_end_time), stepping only, one run per
// backend (the runs take up to hours on a CPU, so they are not repeated).
nlohmann::json run_table8(const std::vector<std::string>& flows, const std::vector<std::string>& precisions,
                          const std::vector<std::string>& backends) {
  nlohmann::json rows = nlohmann::json::array();
  std::printf("\nseed 003 Table 8: the evolutions of Figures 1-2 (128^2, Neumann, Merson epsilon 1e-6), seconds\n");
  std::printf("%-15s %-9s %-7s %8s %8s %10s %9s %9s %24s\n", "flow", "precision", "backend", "steps", "rejected",
              "seconds", "vs serial", "vs openmp", "seed 1c / 4c / GTX 280");
  for (const auto& fn : flows) {
    const Flow flow = parse_flow(fn, "--table8");
    for (const auto& pn : precisions) {
      const Precision p = parse_precision(pn);
      const SeedRow* seed = seed_table8(flow, p);
      if (!seed) continue;  // the seed ran Willmore flow in f64 only
      std::map<std::string, double> secs;
      for (const auto& bn : backends) {
        auto s = make_curvature_stepper(figure_spec(flow), parse_backend(bn), p);
        const auto t0 = Clock::now();
        s->advance_to(figure_end_time(flow));
        const double t = std::chrono::duration<double>(Clock::now() - t0).count();
        secs[bn] = t;
        const double vs_serial = secs.count("serial") ? secs["serial"] / t : 0;
        const double vs_omp = secs.count("openmp") ? secs["openmp"] / t : 0;
        std::printf("%-15s %-9s %-7s %8lld %8lld %10.4g %9.2f %9.2f %10.6g / %g / %g\n", fn.c_str(), pn.c_str(),
                    bn.c_str(), (long long)s->step_stats().accepted, (long long)s->step_stats().rejected, t, vs_serial,
                    vs_omp, seed->core1, seed->core4, seed->gtx280);
        std::fflush(stdout);
        rows.push_back({{"flow", fn}, {"precision", pn}, {"backend", bn}, {"device", device_name(parse_backend(bn))},
                        {"t_end", figure_end_time(flow)}, {"accepted_steps", s->step_stats().accepted},
                        {"rejected_steps", s->step_stats().rejected}, {"seconds", t},
                        {"speedup_vs_serial", vs_serial}, {"speedup_vs_openmp", vs_omp},
                        {"seed_seconds", {{"core2_1core", seed->core1}, {"core2_4core", seed->core4},
                                          {"gtx280", seed->gtx280}}}});
      }
    }
  }
  return rows;
}
}  // namespace

int cmd_bench_curvature(const std::vector<std::string>& args) {
  CLI::App app{"seed 003's Tables 5-8: Runge-Kutta-Merson steps of mean-curvature and Willmore flow",
               "pdex bench curvature"};
  std::vector<int> sizes{16, 32, 64, 128, 256, 512, 1024};
  std::vector<std::string> backends, precisions{"f32", "f64"}, flows{"mean_curvature", "willmore"},
      table8{"mean_curvature"};
  std::string json_file = "bench-curvature.json";
  double min_time = 0.2;
  app.add_option("--sizes", sizes, "grid widths")->delimiter(',');
  app.add_option("--backends", backends, "backends (default: all available)")->delimiter(',');
  app.add_option("--precisions", precisions, "f32,f64 (Willmore runs in f64 only, as in the seed)")->delimiter(',');
  app.add_option("--flows", flows, "mean_curvature,willmore")->delimiter(',');
  app.add_option("--min-time", min_time, "seconds per timed run");
  app.add_option("--table8", table8,
                 "flows of seed Table 8 to run whole (mean_curvature, willmore: hours on a CPU; none)")
      ->delimiter(',');
  app.add_option("--json", json_file, "output JSON file");
  if (const auto status = parse_suite_args(app, args)) return *status;
  if (backends.empty()) backends = available_backend_names();

  nlohmann::json out;
  const double host_gbs = bench::host_triad_gbs(), device_gbs = bench::device_copy_gbs();
  out["host_triad_gbs"] = host_gbs;
  out["device_copy_gbs"] = device_gbs;
  std::printf("measured bandwidth: host STREAM triad %.1f GB/s (%d threads), device copy %.1f GB/s\n", host_gbs,
              openmp_threads(), device_gbs);
  for (const auto& fn : flows) {
    const Flow flow = parse_flow(fn, "--flows");
    for (const auto& pn : precisions) {
      const Precision p = parse_precision(pn);
      if (flow == Flow::willmore && p == Precision::f32) continue;
      std::printf("\n%s flow, %s (seed 003 Table %d: GFLOPS of 1-core / 4-core Core 2 Quad / GTX 280)\n", fn.c_str(),
                  pn.c_str(), flow == Flow::willmore ? 7 : p == Precision::f32 ? 5 : 6);
      std::printf("%-7s %6s %11s %8s %9s %9s %8s %8s %10s %8s %18s\n", "backend", "N", "s/step", "GFLOPS", "vs serial",
                  "vs openmp", "RHS GB/s", "of peak", "of copy@N", "step/mem", "seed 1c/4c/GPU");
      for (int n : sizes) {
        std::map<std::string, double> step_s;
        for (const auto& bn : backends) {
          const Backend b = parse_backend(bn);
          auto s = make_curvature_stepper(bench_spec(flow, n), b, p);
          const Timing t = time_one(*s, min_time);
          step_s[bn] = t.step_s;
          const double peak = b == Backend::cuda ? device_gbs : host_gbs;
          const double gflops = s->flops_per_step() / t.step_s / 1e9, rhs_gbs = s->rhs_bytes() / t.rhs_s / 1e9;
          const double mem_s = s->bytes_per_step() / (peak * 1e9);  // a step's least traffic at full bandwidth
          // A device copy moving the right-hand side's bytes, repeated as the right-hand side is.
          const double copy_at_n = b == Backend::cuda ? bench::device_copy_gbs(std::size_t(s->rhs_bytes() / 2)) : 0;
          const double vs_serial = step_s.count("serial") ? step_s["serial"] / t.step_s : 0;
          const double vs_omp = step_s.count("openmp") ? step_s["openmp"] / t.step_s : 0;
          const auto seed = seed_table(flow, p).find(n);
          char seed_txt[48] = "-";
          if (seed != seed_table(flow, p).end())
            std::snprintf(seed_txt, sizeof seed_txt, "%.2f/%.2f/%.1f", seed->second.core1, seed->second.core4,
                          seed->second.gtx280);
          std::printf("%-7s %6d %11.4g %8.2f %9.2f %9.2f %8.1f %7.1f%% %9.1f%% %8.2f %18s\n", bn.c_str(), n, t.step_s,
                      gflops, vs_serial, vs_omp, rhs_gbs, 100 * rhs_gbs / peak,
                      copy_at_n > 0 ? 100 * rhs_gbs / copy_at_n : 0.0, t.step_s / mem_s, seed_txt);
          std::fflush(stdout);
          nlohmann::json row = {{"flow", fn}, {"precision", pn}, {"backend", bn}, {"device", device_name(b)},
                                {"n", n}, {"seconds_per_step", t.step_s}, {"gflops_seed_count", gflops},
                                {"speedup_vs_serial", vs_serial}, {"speedup_vs_openmp", vs_omp},
                                {"rhs_seconds", t.rhs_s}, {"rhs_gbytes_per_s", rhs_gbs}, {"rhs_fraction_of_peak", rhs_gbs / peak},
                                {"same_size_copy_gbytes_per_s", copy_at_n},
                                {"step_bytes", s->bytes_per_step()}, {"step_time_over_memory_time", t.step_s / mem_s}};
          if (seed != seed_table(flow, p).end())
            row["seed"] = {{"core2_1core_gflops", seed->second.core1}, {"core2_4core_gflops", seed->second.core4},
                           {"gtx280_gflops", seed->second.gtx280}};
          out["curvature"].push_back(row);
        }
      }
    }
  }
  std::erase(table8, "none");
  if (!table8.empty()) out["table8"] = run_table8(table8, precisions, backends);
  std::ofstream(json_file) << out.dump(2) << "\n";
  std::printf("\nwritten %s\n", json_file.c_str());
  return 0;
}

}  // namespace pdex
