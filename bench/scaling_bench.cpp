// pdex bench scaling: runs over MPI ranks (docs/parallel.md). Weak scaling: every rank a block of n x n
// cells (n^3 with --dims 3), the grid growing along y (z) with the ranks, split into strips (slabs);
// strong scaling: one grid of N x N (N^3) over every rank count. Each run is `pdex run` of Gray-Scott
// (examples/gray_scott_spots.toml, gray_scott_3d.toml in 3D) for --steps steps without outputs, launched
// by mpirun (or PDEX_MPIRUN); its stepping seconds, and each rank's exchange seconds, come from its
// summary.json. With --solve each run solves a Poisson problem by multigrid instead (examples/
// poisson_torsion.toml, poisson_cube.toml in 3D), its solve's seconds in place of the stepping's. On a
// CPU backend the strong-scaling grid also runs in one process on OpenMP with as many threads as ranks:
// ranks against threads on the same cores.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "pdex/app/commands.hpp"
#include "pdex/app/rank_launch.hpp"
#include "pdex/app/suite_args.hpp"
#include "pdex/core/error.hpp"

namespace pdex {

namespace {

struct ScalingOptions {
  std::vector<int> ranks{1, 2, 4};
  int weak = 1024, strong = 2048, dims = 2, steps = 200;
  bool solve = false;  // a multigrid Poisson solve a run, not Gray-Scott's steps
  std::string backend = "openmp", precision = "f32", config, dir = "bench-scaling-runs", json = "bench-scaling.json";
};

struct Row {
  std::string mode;  // weak | strong | openmp
  int ranks = 1;
  std::vector<int> grid;
  double seconds = 0, exchange_share = 0;
  int iterations = 0;     // --solve: the solve's cycles
  std::string schedule;  // how the run stepped (summary.json's schedule; a block's over ranks)
};

// The run's overrides: the grid, the steps, no outputs, the process grid where given.
std::vector<std::string> run_args(const ScalingOptions& o, const std::vector<int>& grid, const std::string& split,
                                  const std::string& backend) {
  std::vector<std::string> a{"--backend", backend, "--precision", o.precision, "--set", "grid.nx=" + std::to_string(grid[0]),
                             "--set", "grid.ny=" + std::to_string(grid[1]), "--set", "output.formats=[]", "--set", "run.progress=false"};
  if (!o.solve)
    a.insert(a.end(), {"--set", "time.steps=" + std::to_string(o.steps), "--set", "time.check_every=" + std::to_string(o.steps),
                       "--set", "output.every=0"});
  if (o.dims == 3) a.insert(a.end(), {"--set", "grid.nz=" + std::to_string(grid[2])});
  if (o.solve) a.insert(a.end(), {"--set", "solver.fmg=false"});  // V cycles alike on every rank count (full multigrid is one process's)
  if (!split.empty()) a.insert(a.end(), {"--set", "run.ranks=" + split});
  return a;
}

// The largest share of a rank's stepping spent exchanging halos.
double exchange_share(const nlohmann::json& s) {
  double most = 0;
  if (!s.contains("ranks") || s["ranks"].is_null()) return 0;
  for (const auto& r : s["ranks"]["per_rank"]) {
    const double ex = r["exchange_seconds"].get<double>(), all = ex + r["compute_seconds"].get<double>();
    if (all > 0) most = std::max(most, ex / all);
  }
  return most;
}

Row run_row(const ScalingOptions& o, const std::string& mode, int ranks, const std::vector<int>& grid, const std::string& split) {
  const std::string out = o.dir + "/" + mode + "_" + std::to_string(ranks);
  const bool threads = mode == "openmp";
  const std::string env = threads ? "OMP_NUM_THREADS=" + std::to_string(ranks) : "OMP_NUM_THREADS=1";
  const nlohmann::json s = run_pdex_child(threads ? 0 : ranks, o.config, out, run_args(o, grid, split, threads ? "openmp" : o.backend), env);
  const int iterations = o.solve ? s["solver"]["iterations"].get<int>() : 0;
  const std::string schedule = s.contains("schedule") && s["schedule"].is_object() ? s["schedule"]["name"].get<std::string>() : "";
  return {mode, ranks, grid, s["wall_seconds"]["stepping"].get<double>(), exchange_share(s), iterations, schedule};
}

double cells_of(const Row& r) {
  double c = 1;
  for (int n : r.grid) c *= n;
  return c;
}

// Efficiency against the mode's one-rank run: weak t1 / tP, strong (and threads) t1 / (P tP).
double efficiency(const Row& r, const std::vector<Row>& rows) {
  for (const Row& base : rows)
    if (base.mode == r.mode && base.ranks == 1)
      return r.mode == "weak" ? base.seconds / r.seconds : base.seconds / (r.ranks * r.seconds);
  return 0;
}

void report(const ScalingOptions& o, const std::vector<Row>& rows) {
  std::printf("%-7s %6s %18s %12s %9s %11s %10s  %s\n", "mode", "ranks", "grid", "stepping s", "Gcell/s", "efficiency", "exchange",
              "schedule");
  nlohmann::json j = {{"backend", o.backend}, {"precision", o.precision}, {"steps", o.solve ? 0 : o.steps}, {"solve", o.solve},
                      {"rows", nlohmann::json::array()}};
  for (const Row& r : rows) {
    std::string grid;
    for (std::size_t a = 0; a < r.grid.size(); ++a) grid += (a ? " x " : "") + std::to_string(r.grid[a]);
    const double rate = cells_of(r) * (o.solve ? 1 : o.steps) / r.seconds / 1e9, eff = efficiency(r, rows);
    std::printf("%-7s %6d %18s %12.3f %9.3f %10.0f%% %9.0f%%  %s\n", r.mode.c_str(), r.ranks, grid.c_str(), r.seconds, rate,
                100 * eff, 100 * r.exchange_share, r.schedule.c_str());
    j["rows"].push_back({{"mode", r.mode}, {"ranks", r.ranks}, {"grid", r.grid}, {"stepping_seconds", r.seconds},
                         {"gcells_per_second", rate}, {"efficiency", eff}, {"exchange_share", r.exchange_share},
                         {"schedule", r.schedule}});
    if (o.solve) j["rows"].back()["iterations"] = r.iterations;
  }
  std::ofstream(o.json) << j.dump(2) << "\n";
  std::printf("wrote %s (runs in %s)\n", o.json.c_str(), o.dir.c_str());
}

}  // namespace

int cmd_bench_scaling(const std::vector<std::string>& args) {
  CLI::App app{"weak and strong scaling of a run over MPI ranks (mpirun, or the launcher PDEX_MPIRUN names)", "pdex bench scaling"};
  ScalingOptions o;
  app.add_option("--ranks", o.ranks, "rank counts")->delimiter(',');
  app.add_option("--weak", o.weak, "weak scaling: cells along each axis of every rank's block (0: skip)");
  app.add_option("--strong", o.strong, "strong scaling: cells along each axis of the grid (0: skip)");
  app.add_option("--dims", o.dims, "2 or 3")->check(CLI::IsMember({2, 3}));
  app.add_option("--steps", o.steps, "steps a run");
  app.add_flag("--solve", o.solve, "solve a Poisson problem by multigrid a run (seconds: the solve's; Gcell/s: cells solved a second)");
  app.add_option("--backend", o.backend, "serial | openmp | cuda (one GPU per rank)");
  app.add_option("--precision", o.precision, "f32 | f64");
  app.add_option("--config", o.config, "the run's configuration (default: Gray-Scott from examples/)");
  app.add_option("--dir", o.dir, "where the runs write their summaries");
  app.add_option("--json", o.json, "output JSON file");
  if (const auto status = parse_suite_args(app, args)) return *status;
  if (o.config.empty())
    o.config = o.solve ? (o.dims == 3 ? "examples/poisson_cube.toml" : "examples/poisson_torsion.toml")
                       : (o.dims == 3 ? "examples/gray_scott_3d.toml" : "examples/gray_scott_spots.toml");
  if (!std::filesystem::exists(o.config)) throw InputError("--config: " + o.config + " not found (run from the repository's root, or give --config)");
  if (o.ranks.empty() || *std::min_element(o.ranks.begin(), o.ranks.end()) < 1) throw InputError("--ranks: expected counts of 1 or more");
  std::sort(o.ranks.begin(), o.ranks.end());
  if (o.ranks.front() != 1) o.ranks.insert(o.ranks.begin(), 1);  // the efficiencies' reference
  std::filesystem::create_directories(o.dir);
  std::vector<Row> rows;
  for (const int p : o.ranks) {
    if (o.weak > 0) {
      std::vector<int> grid(std::size_t(o.dims), o.weak);
      grid.back() *= p;
      const std::string strips = o.dims == 3 ? "[1, 1, " + std::to_string(p) + "]" : "[1, " + std::to_string(p) + "]";
      rows.push_back(run_row(o, "weak", p, grid, p > 1 ? strips : ""));
    }
    if (o.strong > 0) rows.push_back(run_row(o, "strong", p, std::vector<int>(std::size_t(o.dims), o.strong), ""));
    if (o.strong > 0 && o.backend != "cuda") rows.push_back(run_row(o, "openmp", p, std::vector<int>(std::size_t(o.dims), o.strong), ""));
  }
  report(o, rows);
  return 0;
}

}  // namespace pdex
