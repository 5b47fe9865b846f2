// pdex bench explicit: throughput of the forward-Euler advection-reaction-diffusion step on every backend
// and precision, as Gcell/s and as a fraction of the memory bandwidth measured in the same run, the
// built-in kernels beside the same model written as text (compiled, and interpreted on the CPU); and the
// wall time of seed 000's Table 1 explicit workload (Turing spots, 512x512, dt 0.5, 50,000 steps); with
// --peers, the same step in JAX, PyTorch or NumPy on the same machine beside them (peer_rows.hpp).
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>

#include "bandwidth.hpp"
#include "bench_util.hpp"
#include "peer_rows.hpp"
#include "pdex/app/commands.hpp"
#include "pdex/app/suite_args.hpp"
#include "pdex/config/field_specs.hpp"
#include "pdex/core/error.hpp"
#include "pdex/models/ard/ard_catalog.hpp"
#include "pdex/models/ard/ard_stepper.hpp"
#include "pdex/models/equations/equations_plan.hpp"
#include "pdex/models/equations/equations_stepper.hpp"
#include "pdex/models/ard/ard_euler_plan.hpp"

namespace pdex {

namespace {
using bench::Clock;

// Median seconds per step over `reps` timed runs of at least `min_time` seconds each, after a warm-up.
double seconds_per_step(Stepper& s, double min_time, int reps) {
  s.advance(128);  // warm-up: first-touch, graph capture, caches
  int64_t n = 64;
  for (;;) {
    auto t0 = Clock::now();
    s.advance(n);
    const double t = std::chrono::duration<double>(Clock::now() - t0).count();
    if (t >= min_time / 4 || n >= (int64_t(1) << 24)) {
      n = std::max<int64_t>(1, int64_t(double(n) * min_time / std::max(t, 1e-9)));
      break;
    }
    n *= 4;
  }
  std::vector<double> per_step;
  for (int r = 0; r < reps; ++r) {
    auto t0 = Clock::now();
    s.advance(n);
    per_step.push_back(std::chrono::duration<double>(Clock::now() - t0).count() / double(n));
  }
  return bench::median(per_step);
}
// The run of `a` written as text (its model's preset, ard_catalog.hpp): the same parameters, start and clamp.
EquationsSpec text_spec(const ArdSpec& a) {
  const ReactionInfo& r = ard_reaction(a.reaction);
  EquationsSpec s;
  s.grid = a.grid;
  s.text = eq::TextModel{r.species, r.text, {}, {}};
  for (const ParamInfo& p : r.params) {
    s.text.params.push_back(p.name);
    s.params.push_back(a.params.at(p.name));
  }
  s.program = eq::compile(s.text);
  mark_constant_params(s);
  s.initial = a.initial;
  s.bc = a.bc;
  s.floor.assign(r.species.size(), a.clamp ? 0.0 : -std::numeric_limits<double>::infinity());
  s.dt = a.dt;
  s.temporal_blocking = a.temporal_blocking;
  return s;
}

// A stepper for one row: the built-in kernels per step ("step") or several steps a pass ("blocked"), or the
// model as text, compiled, one pass a step ("text") or several ("text-blocked"), or in the interpreter
// ("interp", as where no compiler is found).
std::unique_ptr<Stepper> row_stepper(const std::string& schedule, const std::string& model, int n, int dims, Backend b, Precision p) {
  if (schedule == "step" || schedule == "blocked")
    return make_ard_stepper(bench::bench_spec(model, n, schedule == "blocked", dims), b, p);
  if (schedule == "text" || schedule == "text-blocked")
    return make_equations_stepper(text_spec(bench::bench_spec(model, n, schedule == "text-blocked")), b, p);
  ::setenv("PDEX_CXX", "none", 1);
  auto s = make_equations_stepper(text_spec(bench::bench_spec(model, n, false)), b, p);
  ::unsetenv("PDEX_CXX");
  return s;
}

}  // namespace

int cmd_bench(const std::string& suite, const std::vector<std::string>& args) {
  if (suite == "implicit") return cmd_bench_implicit(args);
  if (suite == "curvature") return cmd_bench_curvature(args);
  if (suite == "chemotaxis") return cmd_bench_chemotaxis(args);
  if (suite == "linalg") return cmd_bench_linalg(args);
  if (suite == "scaling") return cmd_bench_scaling(args);
  if (suite == "serve-client") return cmd_bench_serve_client(args);
  if (suite != "explicit")
    throw InputError("unknown benchmark suite '" + suite +
                     "': expected explicit, implicit, curvature, chemotaxis, linalg, scaling or serve-client");
  CLI::App app{"forward-Euler reaction-diffusion throughput, and seed 000's Table 1 explicit run",
               "pdex bench explicit"};
  std::vector<int> sizes{128, 256, 512, 1024, 2048, 4096, 8192};
  std::vector<std::string> backends, precisions{"f32", "f64"}, table1_backends{"openmp", "cuda"};
  std::string model = "gray_scott", json_file = "bench-explicit.json";
  double min_time = 0.3, max_serial_cells = 1 << 26, max_interp_cells = 1 << 20;
  bool text = true;
  int dims = 2;
  bench::PeerRequest peers;
  peers.script = PDEX_PEERS_SCRIPT;
  std::vector<std::string> peer_names{"none"};
  app.add_option("--sizes", sizes, "grid widths (cube edges with --dims 3; default there 64,128,256,512)")->delimiter(',');
  app.add_option("--dims", dims, "2: n x n grids; 3: n x n x n grids, the per-step kernel only (no text rows, no Table 1)")
      ->check(CLI::IsMember({2, 3}));
  app.add_option("--backends", backends, "backends (default: all available)")->delimiter(',');
  app.add_option("--precisions", precisions, "f32,f64")->delimiter(',');
  app.add_option("--model", model, "model to step");
  app.add_option("--text", text, "also the model written as text: compiled, and interpreted on the CPU up to 1024^2 (true|false)");
  app.add_option("--table1", table1_backends, "backends for seed 000's Table 1 workload (none: skip)")->delimiter(',');
  app.add_option("--min-time", min_time, "seconds per timed run");
  app.add_option("--json", json_file, "output JSON file");
  app.add_option("--peers", peer_names,
                 "after pdex's rows, the same step in these frameworks (bench/peers/peers.py: jax, torch, numpy, all; "
                 "none), each beside pdex's fastest row")
      ->delimiter(',');
  app.add_option("--python", peers.python, "the Python that runs the peers");
  app.add_option("--peers-script", peers.script, "bench/peers/peers.py of pdex's sources");
  if (const auto status = parse_suite_args(app, args)) return *status;
  peers.frameworks = bench::peer_frameworks(peer_names);
  if (backends.empty()) backends = available_backend_names();
  if (dims == 3) {
    if (app.count("--sizes") == 0) sizes = {64, 128, 256, 512};
    text = false;
    table1_backends = {"none"};
  }
  if (!peers.frameworks.empty()) {
    peers.model = model, peers.sizes = sizes, peers.precisions = precisions, peers.min_time = min_time;
    peers.table1 = backend_available(Backend::cuda) &&
                   std::find(table1_backends.begin(), table1_backends.end(), "cuda") != table1_backends.end();
    bench::check_peer_request(peers, dims);
  }

  nlohmann::json out;
  out["host_triad_gbs"] = bench::host_triad_gbs();
  out["device_copy_gbs"] = bench::device_copy_gbs();
  std::printf("measured bandwidth: host STREAM triad %.1f GB/s (%d threads), device copy %.1f GB/s\n\n",
              out["host_triad_gbs"].get<double>(), openmp_threads(), out["device_copy_gbs"].get<double>());
  std::printf("%-8s %-8s %-5s %6s %12s %10s %9s %9s %11s\n", "backend", "schedule", "prec", "width", "s/step", "Gcell/s",
              "GB/s", "of peak", "of built-in");
  for (const auto& bn : backends) {
    const Backend b = parse_backend(bn);
    const double peak = b == Backend::cuda ? out["device_copy_gbs"].get<double>() : out["host_triad_gbs"].get<double>();
    // The per-step kernel (one pass over memory per step) and several steps a pass where a run takes
    // them (euler_plan: rows on the host, tiles or streaming on CUDA); then the text rows, against the
    // per-step kernel.
    std::vector<std::string> schedules{"step"};
    if (dims == 2) schedules.push_back("blocked");
    const EulerSchedules where = b == Backend::cuda ? EulerSchedules::device : EulerSchedules::host;
    if (text) schedules.insert(schedules.end(), {"text", "text-blocked"});
    if (text && b != Backend::cuda) schedules.push_back("interp");
    std::map<std::pair<std::string, int>, double> builtin;  // Gcell/s of the per-step kernel by precision and width
    for (const std::string& sched : schedules)
      for (const auto& pn : precisions)
        for (int n : sizes) {
          const double cells = std::pow(double(n), dims);
          if (b == Backend::serial && cells > max_serial_cells) continue;
          const ArdSpec blocked_spec = bench::bench_spec(model, n, true);
          const EulerPlan plan = sched == "text-blocked"
                                     ? (pn == "f32" ? text_euler_plan<float>(text_spec(blocked_spec), b == Backend::cuda)
                                                    : text_euler_plan<double>(text_spec(blocked_spec), b == Backend::cuda))
                                     : (pn == "f32" ? euler_plan<float>(blocked_spec, where) : euler_plan<double>(blocked_spec, where));
          if ((sched == "blocked" || sched == "text-blocked") && plan.steps_per_pass == 1) continue;
          if (sched == "interp" && double(n) * n > max_interp_cells) continue;
          auto s = row_stepper(sched, model, n, dims, b, parse_precision(pn));
          const double t = seconds_per_step(*s, min_time, 3);
          const double gcells = cells / t / 1e9, gbs = s->bytes_per_step() / t / 1e9;
          if (sched == "step") builtin[{pn, n}] = gcells;
          const auto base = builtin.find({pn, n});
          const double of_builtin = base == builtin.end() ? 0.0 : gcells / base->second;
          std::printf("%-8s %-8s %-5s %6d %12.4g %10.3f %9.1f %8.1f%% %10.1f%%\n", bn.c_str(), sched.c_str(), pn.c_str(), n, t,
                      gcells, gbs, 100 * gbs / peak, 100 * of_builtin);
          std::fflush(stdout);
          out["explicit"].push_back({{"backend", bn}, {"schedule", sched == "blocked" ? plan.name() : sched == "text-blocked" ? "text, " + plan.name() : sched}, {"device", device_name(b)},
                                     {"precision", pn}, {"model", model}, {"nx", n}, {"ny", n}, {"nz", dims == 3 ? n : 1},
                                     {"seconds_per_step", t}, {"gcells_per_s", gcells}, {"gbytes_per_s", gbs},
                                     {"fraction_of_peak", gbs / peak}, {"fraction_of_builtin", of_builtin}});
        }
  }
  std::printf("\nseed 000 Table 1 explicit workload: Turing 512x512, dt 0.5, 50,000 steps, f32 "
              "(seed: 6,030 s CPU, 516 s GPU)\n");
  for (const auto& bn : table1_backends) {
    if (bn == "none") break;
    const Backend b = parse_backend(bn);
    if (!backend_available(b)) continue;
    auto s = make_ard_stepper(bench::bench_spec("turing", 512), b, Precision::f32);
    s->advance(128);
    auto t0 = Clock::now();
    s->advance(50000);
    const double t = std::chrono::duration<double>(Clock::now() - t0).count();
    std::printf("  %-8s %10.3f s\n", bn.c_str(), t);
    out["table1"].push_back({{"backend", bn}, {"device", device_name(b)}, {"seconds", t}, {"steps", 50000}});
  }
  if (!peers.frameworks.empty()) {
    const std::string peer_file = std::filesystem::path(json_file).replace_extension(".peers.json").string();
    bench::compare_with_peers(bench::run_peers(peers, peer_file), out);
  }
  std::ofstream(json_file) << out.dump(2) << "\n";
  std::printf("\nwritten %s\n", json_file.c_str());
  return 0;
}

}  // namespace pdex
