// pdex bench linalg: seed 001's Table 44-1 side by side (vector reduce, vector-vector operation, wave
// equation steps per second from 2048x1024 down to 256x256, the GeForce 6800 GT figures beside ours),
// the 5-point operator matrix-free against the same operator in CSR (cuSPARSE on the GPU), and CG
// iterations per second both ways. Prints a table per backend and writes JSON.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "pdex/core/error.hpp"
#include "pdex/linalg/linalg_timing.hpp"
#include "pdex/models/wave/wave_stepper.hpp"

namespace pdex {

namespace {
using bench::Clock;
using bench::seconds_since;

// Seed 001 Table 44-1 (GeForce 6800 GT): reduce and vector-vector operation in ms, wave demo in frames/s.
struct SeedRow {
  int nx, ny;
  double reduce_ms, op_ms, wave_fps;
};
constexpr SeedRow seed_rows[] = {{2048, 1024, 1.11, 0.89, 12},  {1024, 1024, 0.49, 0.31, 27},
                                 {1024, 512, 0.28, 0.15, 52},   {512, 512, 0.17, 0.08, 102},
                                 {512, 256, 0.16, 0.04, 185},   {256, 256, 0.14, 0.02, 335}};

// Steps per second of the wave equation (drops in a pool, as the seed's demo) by one scheme.
double wave_steps_per_second(Backend b, Precision p, int nx, int ny, WaveScheme scheme, int steps) {
  WaveModelSpec m;
  m.grid = Grid2{nx, ny};
  m.scheme = scheme;
  m.dt = scheme == WaveScheme::crank_nicolson ? 1.5 : 0.7;
  m.solver.method = SolverMethod::cg;
  m.solver.tol = 1e-6;
  m.u0 = 0.0;
  m.drops = WaveDrops{40, 3.0, 1.0, 7};
  auto s = make_wave_stepper(m, b, p);
  s->advance(2);  // warm-up: first drop, first launches
  (void)s->stats(0);
  const auto t0 = Clock::now();
  s->advance(steps);
  (void)s->stats(0);  // waits for the device
  return steps / seconds_since(t0);
}

void print_header(const std::string& backend, const std::string& precision) {
  std::printf("\n%s, %s (seed: GeForce 6800 GT, seed 001 Table 44-1)\n", backend.c_str(), precision.c_str());
  std::printf("%-10s %16s %16s %12s %16s %10s %10s %8s %12s %12s\n", "size", "reduce us (seed)", "vec op us (seed)",
              "wave expl/s", "wave CN/s (seed)", "stencil us", "CSR us", "CSR/st", "CG grid it/s", "CG CSR it/s");
  std::fflush(stdout);  // a row can take seconds: show where the suite is
}
}  // namespace

int cmd_bench_linalg(const std::vector<std::string>& args) {
  CLI::App app{"seed 001's Table 44-1, matrix-free against CSR operators, CG iterations per second",
               "pdex bench linalg"};
  std::vector<std::string> backends, precisions{"f32"};
  std::string json_file = "bench-linalg.json";
  int repeats = 5, wave_steps = 40, max_serial_cells = 1 << 19;
  app.add_option("--backends", backends, "backends (default: all available)")->delimiter(',');
  app.add_option("--precisions", precisions, "f32,f64 (the seed ran f32)")->delimiter(',');
  app.add_option("--repeats", repeats, "timed samples per figure (median)");
  app.add_option("--wave-steps", wave_steps, "timed wave steps per scheme and size");
  app.add_option("--max-serial-cells", max_serial_cells, "skip larger grids on the serial backend");
  app.add_option("--json", json_file, "output JSON file");
  if (const auto status = parse_suite_args(app, args)) return *status;
  if (backends.empty()) backends = available_backend_names();

  nlohmann::json rows = nlohmann::json::array();
  for (const auto& bn : backends) {
    const Backend b = parse_backend(bn);
    for (const auto& pn : precisions) {
      const Precision p = parse_precision(pn);
      print_header(bn, pn);
      for (const SeedRow& r : seed_rows) {
        if (b == Backend::serial && int64_t(r.nx) * r.ny > max_serial_cells) continue;
        const LinalgTimings t = time_linalg(b, p, Extents2{r.nx, r.ny}, repeats);
        const double we = wave_steps_per_second(b, p, r.nx, r.ny, WaveScheme::explicit_central, wave_steps);
        const double wc = wave_steps_per_second(b, p, r.nx, r.ny, WaveScheme::crank_nicolson, wave_steps);
        const std::string size = std::to_string(r.nx) + "x" + std::to_string(r.ny);
        std::printf("%-10s %7.1f (%6.0f) %7.1f (%6.0f) %12.0f %8.0f (%5.0f) %10.1f %10.1f %8.2f %12.0f %12.0f\n",
                    size.c_str(), t.reduce * 1e6, r.reduce_ms * 1e3, t.axpy * 1e6, r.op_ms * 1e3, we, wc, r.wave_fps,
                    t.stencil * 1e6, t.csr * 1e6, t.csr / t.stencil, 1 / t.cg_grid, 1 / t.cg_csr);
        std::fflush(stdout);
        rows.push_back({{"backend", bn}, {"device", device_name(b)}, {"precision", pn}, {"nx", r.nx}, {"ny", r.ny},
                        {"reduce_s", t.reduce}, {"vector_op_s", t.axpy}, {"wave_explicit_steps_per_s", we},
                        {"wave_cn_steps_per_s", wc}, {"stencil_apply_s", t.stencil}, {"csr_apply_s", t.csr},
                        {"cg_grid_iterations_per_s", 1 / t.cg_grid}, {"cg_csr_iterations_per_s", 1 / t.cg_csr},
                        {"seed", {{"reduce_s", r.reduce_ms * 1e-3}, {"vector_op_s", r.op_ms * 1e-3},
                                  {"wave_fps", r.wave_fps}}}});
      }
    }
  }
  std::ofstream(json_file) << nlohmann::json{{"suite", "linalg"}, {"rows", rows}}.dump(2) << "\n";
  std::printf("\nwritten %s\n", json_file.c_str());
  return 0;
}

}  // namespace pdex
