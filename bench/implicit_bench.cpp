// pdex bench implicit: (a) Poisson -lap u = f to a relative residual by every linear solver, on every
// backend and precision: iterations, final residual, time per solve and per iteration, and each
// solver's speed-up over Jacobi-preconditioned CG; (b) seed 000's Table 1 pair, Turing spots by forward
// Euler (dt 0.5, 50,000 steps) against Crank-Nicolson (dt 12.5, 2,000 steps), at 512x512 and at other
// widths (seed Figs. 11-13), with the explicit/implicit time ratio beside the seed's (3.3x CPU, 1.4x GPU);
// (c) one relaxation sweep's time against the bandwidth bound of the bytes it must move.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <memory>

#include "bandwidth.hpp"
#include "bench_util.hpp"
#ifdef PDEX_HAVE_CUDA
#include "cluster_sweep.hpp"
#include "grid_exchange.hpp"
#endif
#include "pdex/core/error.hpp"
#include "pdex/linalg/elliptic.hpp"
#include "pdex/linalg/linalg_timing.hpp"
#include "pdex/linalg/device_relaxation.hpp"
#include "pdex/linalg/solver_settings.hpp"
#include "pdex/models/ard/ard_stepper.hpp"

namespace pdex {

namespace {
using bench::Clock;
using bench::seconds_since;

// A solver as the table names it: a method, and for the Krylov methods their preconditioner.
struct MethodChoice {
  std::string label;
  SolverMethod method;
  Preconditioner pre = Preconditioner::none;
};

const std::vector<MethodChoice>& all_methods() {
  static const std::vector<MethodChoice> m = {
      {"jacobi", SolverMethod::jacobi},
      {"weighted_jacobi", SolverMethod::weighted_jacobi},
      {"rbgs", SolverMethod::rbgs},
      {"sor", SolverMethod::sor},
      {"cg", SolverMethod::cg},
      {"pcg-jacobi", SolverMethod::pcg, Preconditioner::jacobi},
      {"pcg-multigrid", SolverMethod::pcg, Preconditioner::multigrid},
      {"bicgstab-jacobi", SolverMethod::bicgstab, Preconditioner::jacobi},
      {"bicgstab-multigrid", SolverMethod::bicgstab, Preconditioner::multigrid},
      {"multigrid", SolverMethod::multigrid},
      {"multigrid-w", SolverMethod::multigrid},
      {"multigrid-fmg", SolverMethod::multigrid}};
  return m;
}

const MethodChoice& find_method(const std::string& label) {
  for (const auto& m : all_methods())
    if (m.label == label) return m;
  std::string known;
  for (const auto& m : all_methods()) known += (known.empty() ? "" : ", ") + m.label;
  throw InputError("unknown solver '" + label + "' in --methods: expected one of " + known);
}

// Relaxation sweeps needed grow like n^2: these stop at --relax-max-iter and are reported unconverged.
bool slow_relaxation(SolverMethod m) {
  return m == SolverMethod::jacobi || m == SolverMethod::weighted_jacobi || m == SolverMethod::rbgs;
}

struct PoissonOptions {
  double tol = 1e-8;
  int max_iter = 20000, relax_max_iter = 2000, repeats = 3;
  int dims = 2;  // n x n grids, or n x n x n
};

// The manufactured problem on the unit square (cube), u = 0 on the faces: u = sin(pi x) sin(pi y) e^(x + y)
// (times sin(pi z) e^z). Not a product of sines alone: that is an eigenvector of the discrete operator, and
// CG would finish in one step.
EllipticSpec poisson_spec(int n, const MethodChoice& m, const PoissonOptions& o) {
  EllipticSpec spec;
  spec.grid = Grid2{n, n, 1.0 / n, 1.0 / n};
  if (o.dims == 3) {
    spec.grid.nz = n;
    spec.grid.dz = 1.0 / n;
  }
  spec.bc = FieldBoundary::all(BcKind::dirichlet, 0.0);
  spec.solver.method = m.method;
  spec.solver.preconditioner = m.pre;
  spec.solver.cycle_gamma = m.label == "multigrid-w" ? 2 : 1;
  spec.solver.fmg = m.label == "multigrid-fmg";
  spec.solver.tol = o.tol;
  spec.solver.max_iter = slow_relaxation(m.method) ? o.relax_max_iter : o.max_iter;
  return spec;
}

// -lap u: u is a product of s(x) = sin(pi x) e^x per axis, and s'' = e^x ((1 - pi^2) sin(pi x) + 2 pi cos(pi x)).
std::vector<double> poisson_rhs(const Grid2& g) {
  const double pi = 3.14159265358979323846;
  const auto s = [&](double x) { return std::sin(pi * x) * std::exp(x); };
  const auto s2 = [&](double x) { return std::exp(x) * ((1 - pi * pi) * std::sin(pi * x) + 2 * pi * std::cos(pi * x)); };
  std::vector<double> f(std::size_t(g.cells()));
  for_each_cell(g.extents(), [&](int i, int j, int k) {
    const double x = g.x(i), y = g.y(j);
    double term = -(s2(x) * s(y) + s(x) * s2(y));
    if (g.is_3d()) term = term * s(g.z(k)) - s(x) * s(y) * s2(g.z(k));
    f[std::size_t(g.extents().index(i, j, k))] = term;
  });
  return f;
}

struct PoissonRow {
  std::string method;
  SolveStats stats;
  double seconds = 0;  // median over the repeats
  std::string error;   // a solver that broke down (the suite goes on)
};

// Times solve() only: the start (zero) and right-hand side are uploaded again before each repeat.
PoissonRow time_poisson(const MethodChoice& m, int n, Backend b, Precision p, const PoissonOptions& o) {
  const EllipticSpec spec = poisson_spec(n, m, o);
  const std::vector<double> f = poisson_rhs(spec.grid), zero(f.size(), 0.0);
  auto solver = make_elliptic_solver(spec, b, p);
  PoissonRow row{m.label, {}, 0.0, {}};
  std::vector<double> times;
  for (int r = 0; r < std::max(1, o.repeats); ++r) {
    solver->set(zero, f);
    const auto t0 = Clock::now();
    try {
      row.stats = solver->solve();
    } catch (const NumericalError& e) {
      row.error = e.what();
      row.stats.converged = false;
    }
    times.push_back(seconds_since(t0));
    if (!row.error.empty()) break;
  }
  row.seconds = bench::median(times);
  return row;
}

void print_poisson_row(const std::string& bn, const std::string& pn, int n, const PoissonRow& r, double pcg_seconds) {
  const double ms = 1e3 * r.seconds, per_iter = r.stats.iterations > 0 ? ms / r.stats.iterations : 0;
  char speedup[32] = "-";
  // An unconverged solve stopped at its cap or where its residual stalled: a speed-up would compare unequal work.
  if (pcg_seconds > 0 && r.stats.converged) std::snprintf(speedup, sizeof speedup, "%.1fx", pcg_seconds / r.seconds);
  std::printf("%-8s %-5s %6d %-19s %8d %11.3e %11.2f %10.4f %9s%s\n", bn.c_str(), pn.c_str(), n, r.method.c_str(),
              r.stats.iterations, r.stats.residual, ms, per_iter, speedup,
              !r.error.empty()    ? ("  failed: " + r.error).c_str()
              : r.stats.converged ? ""
              : r.stats.stalled   ? "  stalled (the precision's rounding floor)"
                                  : "  not converged");
  std::fflush(stdout);
}

// Part (a): every solver, per backend, precision and size; the speed-up column is over pcg-jacobi.
void poisson_suite(const std::vector<std::string>& backends, const std::vector<std::string>& precisions,
                   const std::vector<int>& sizes, const std::vector<std::string>& methods, const PoissonOptions& o,
                   nlohmann::json& out) {
  std::printf("Poisson -lap u = f (u = sin sin exp, Dirichlet, %s grids) to relative residual %.0e, median of %d solves\n",
              o.dims == 3 ? "n^3" : "n^2", o.tol, o.repeats);
  std::printf("%-8s %-5s %6s %-19s %8s %11s %11s %10s %9s\n", "backend", "prec", "n", "method", "iters", "residual",
              "ms", "ms/iter", "vs pcg-j");
  for (const auto& bn : backends)
    for (const auto& pn : precisions)
      for (int n : sizes) {
        const Backend b = parse_backend(bn);
        const Precision p = parse_precision(pn);
        // pcg-jacobi first: every other row's speed-up is against it.
        const PoissonRow pcg_row = time_poisson(find_method("pcg-jacobi"), n, b, p, o);
        const double pcg = pcg_row.seconds;
        for (const auto& label : methods) {
          const PoissonRow r = label == pcg_row.method ? pcg_row : time_poisson(find_method(label), n, b, p, o);
          print_poisson_row(bn, pn, n, r, pcg);
          out["poisson"].push_back({{"backend", bn}, {"device", device_name(b)}, {"precision", pn}, {"n", n}, {"dims", o.dims},
                                    {"method", r.method}, {"iterations", r.stats.iterations},
                                    {"residual", r.stats.residual}, {"converged", r.stats.converged}, {"stalled", r.stats.stalled}, {"error", r.error},
                                    {"seconds", r.seconds}, {"ms_per_iteration", 1e3 * r.seconds / std::max(1, r.stats.iterations)},
                                    {"speedup_vs_pcg_jacobi", r.stats.converged ? nlohmann::json(pcg / r.seconds) : nlohmann::json()}});
        }
      }
}

struct PairOptions {
  double steps_scale = 1.0;
  SolverSettings solver;
  std::string precision = "f32";  // the seed's GPU had fp32 only, and its CPU runs matched it
};

struct RunTiming {
  double seconds = 0;
  double iterations_per_step = 0;  // of the solves (0 without any)
  int max_iterations = 0;
};

// Wall seconds of `steps` steps after a short warm-up (first touch, graph capture) on the same stepper,
// and the solver's iterations over the whole run.
RunTiming time_steps(const ArdSpec& spec, Backend b, Precision p, int64_t steps) {
  auto s = make_ard_stepper(spec, b, p);
  s->advance(std::max<int64_t>(1, std::min<int64_t>(steps / 100, 16)));
  const auto t0 = Clock::now();
  s->advance(steps);
  RunTiming t{seconds_since(t0)};
  if (const SolverTotals* st = s->solver_totals(); st && st->solves > 0) {
    t.iterations_per_step = double(st->iterations) / double(st->solves);
    t.max_iterations = st->max_iterations;
  }
  return t;
}

std::string fmt_tol(double tol) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0e", tol);
  return buf;
}

// Part (b): seed 000 Table 1 (512x512) and Figs. 11-13 (other widths), same simulated time 25,000.
void table1_suite(const std::vector<std::string>& backends, const std::vector<int>& widths, const PairOptions& o,
                  nlohmann::json& out) {
  const int64_t explicit_steps = std::max<int64_t>(1, std::llround(50000 * o.steps_scale));
  const int64_t implicit_steps = std::max<int64_t>(1, std::llround(2000 * o.steps_scale));
  const std::string solve = o.solver.cycles > 0 ? std::to_string(o.solver.cycles) + " cycle(s) per step, from the "
                                                  "extrapolated state"
                                                : "to " + fmt_tol(o.solver.tol);
  std::printf("\nseed 000 Table 1 pair: Turing, forward Euler dt 0.5 x %lld steps vs Crank-Nicolson dt 12.5 x %lld "
              "steps, %s, solver %s %s (seed at 512: 3.3x CPU, 1.4x GPU)\n",
              (long long)explicit_steps, (long long)implicit_steps, o.precision.c_str(),
              std::string(solver_method_name(o.solver.method)).c_str(), solve.c_str());
  std::printf("%-8s %6s %12s %12s %9s %7s %14s\n", "backend", "width", "explicit s", "implicit s", "ratio", "seed",
              "solver it/step");
  for (const auto& bn : backends)
    for (int n : widths) {
      const Backend b = parse_backend(bn);
      ArdSpec ex = bench::bench_spec("turing", n), im = ex;
      ex.dt = 0.5;
      im.dt = 12.5;
      im.theta = 0.5;
      im.solver = o.solver;
      const Precision p = parse_precision(o.precision);
      const double te = time_steps(ex, b, p, explicit_steps).seconds;
      const RunTiming im_run = time_steps(im, b, p, implicit_steps);
      const double ti = im_run.seconds;
      const char* seed = n != 512 ? "-" : b == Backend::cuda ? "1.4x" : "3.3x";
      std::printf("%-8s %6d %12.3f %12.3f %8.2fx %7s %7.2f (<=%d)\n", bn.c_str(), n, te, ti, te / ti, seed,
                  im_run.iterations_per_step, im_run.max_iterations);
      std::fflush(stdout);
      out["table1"].push_back({{"backend", bn}, {"device", device_name(b)}, {"precision", o.precision},
                               {"width", n}, {"explicit_seconds", te}, {"explicit_steps", explicit_steps},
                               {"implicit_seconds", ti}, {"implicit_steps", implicit_steps}, {"ratio", te / ti},
                               {"solver", solver_method_name(o.solver.method)}, {"solver_tol", o.solver.tol},
                               {"solver_cycles", o.solver.cycles},
                               {"implicit_iterations_per_step", im_run.iterations_per_step},
                               {"implicit_max_iterations", im_run.max_iterations}});
    }
}

// Below 2048^2 a relaxation queue is one cooperative launch whose rounds of sweeps meet at grid barriers
// (resident_sweep.cuh); what a round costs when its blocks do no arithmetic bounds what those sizes can
// reach: a round's sweeps take at least this between them.
void exchange_floor(nlohmann::json& out) {
#ifdef PDEX_HAVE_CUDA
  const std::vector<bench::ExchangeFloor> floor = bench::grid_exchange_floor();
  if (floor.empty()) return;
  std::printf("\na round of a resident queue without arithmetic: one cooperative launch, a block a multiprocessor, "
              "median of 7 launches of 2,000 rounds; exchange: each thread stores 2 values, then after the barrier "
              "loads 2 that another block stored (through L2). For comparison, clusters of 8 blocks exchanging "
              "through shared memory: cluster barrier (release) with a value a thread; relaxed barrier (orders "
              "nothing: its floor); st.async of a value a thread to each neighbour, waited for on an mbarrier\n");
  std::printf("%7s %8s %12s %14s %15s %9s %13s %13s\n", "blocks", "threads", "barrier us", "+exchange us",
              "cluster blocks", "release", "relaxed", "st.async");
  for (const auto& f : floor) {
    std::printf("%7d %8d %12.2f %14.2f %15d %9.2f %13.2f %13.2f\n", f.blocks, f.threads, f.barrier_us, f.exchange_us,
                f.cluster_blocks, f.cluster_release_us, f.cluster_relaxed_us, f.cluster_async_us);
    out["exchange_floor"].push_back({{"device", device_name(Backend::cuda)}, {"blocks", f.blocks},
                                     {"threads", f.threads}, {"barrier_us", f.barrier_us},
                                     {"exchange_us", f.exchange_us}, {"cluster_blocks", f.cluster_blocks},
                                     {"cluster_release_us", f.cluster_release_us},
                                     {"cluster_relaxed_us", f.cluster_relaxed_us},
                                     {"cluster_async_us", f.cluster_async_us}});
  }
#else
  (void)out;
#endif
}

// What sweeping inside thread block clusters costs with no exchange between them (cluster_sweep.hpp):
// what a design with clusters could not go below at 256^2 and 512^2, against 85% of the bound there.
void cluster_sweep_floor(double bandwidth, nlohmann::json& out) {
#ifdef PDEX_HAVE_CUDA
  const std::vector<bench::ClusterSweep> sweeps = bench::cluster_sweeps();
  if (sweeps.empty()) return;
  std::printf("\nred-black sweeps inside clusters of 8 blocks (f32, 2 x 4 tiles of n/8 x n/16 a cluster, edges sent to "
              "the neighbours' shared memory by st.async after every half-sweep), a region of its own a cluster, "
              "no exchange between clusters; scaled to n^2, against 85%% of one sweep's bound at %.0f GB/s; "
              "|diff|: largest difference from the host's sweeps\n",
              bandwidth);
  std::printf("%6s %8s %9s %8s %12s %14s %12s %9s\n", "n", "threads", "clusters", "cells", "us a sweep",
              "scaled to n^2", "85% bound", "|diff|");
  for (const auto& c : sweeps) {
    const double n2 = double(c.n) * c.n, scaled = c.sweep_us * n2 / c.cells;
    const double budget = 3.0 * n2 * sizeof(float) / (bandwidth * 1e3) / 0.85;  // µs
    std::printf("%6d %8d %9d %8.0f %12.2f %14.2f %12.2f %9.1e\n", c.n, c.threads, c.clusters, c.cells, c.sweep_us,
                scaled, budget, c.worst_diff);
    out["cluster_sweeps"].push_back({{"device", device_name(Backend::cuda)}, {"n", c.n}, {"threads", c.threads},
                                     {"clusters", c.clusters}, {"cells", c.cells}, {"sweep_us", c.sweep_us},
                                     {"scaled_us", scaled}, {"budget_us", budget}, {"worst_diff", c.worst_diff}});
  }
#else
  (void)bandwidth, (void)out;
#endif
}

// Part (c): a sweep must read x and b and write x, 3 n^2 values (a Jacobi sweep writes a second field,
// the same count); the bound is that traffic at the bandwidth measured in this run (device copy on the
// GPU, STREAM triad on the host). On the GPU "of copy@n" compares with a device copy of the same bytes
// repeated as the sweeps are: below 4096^2 no kernel of that size reaches the large copy's bandwidth
// (launch ramp and tail; from 2048^2 down the fields stay in L2).
void sweep_suite(const std::vector<std::string>& backends, const std::vector<std::string>& precisions,
                 const std::vector<int>& sizes, int repeats, nlohmann::json& out) {
  std::printf("\nrelaxation sweeps, Poisson (Dirichlet), median of %d samples (change test: after every sweep; solve: "
              "after every %d, as a solve by default; on the GPU both queued, %d tests a queue in one launch, %d a queue "
              "of launches, %d sweeps a launch where each is tested); bound: x, b read and x written at the measured "
              "bandwidth\n",
              repeats, SolverSettings{}.check_every, SweepLog::max_tests, SweepLog::launched_tests, fused_sweeps);
  std::printf("%-8s %-5s %6s %-22s %10s %9s %8s %9s\n", "backend", "prec", "n", "sweep", "us", "GB/s", "of bound",
              "of copy@n");
  for (const auto& bn : backends) {
    const Backend b = parse_backend(bn);
    const double bandwidth = b == Backend::cuda ? bench::device_copy_gbs() : bench::host_triad_gbs();
    for (const auto& pn : precisions)
      for (int n : sizes) {
        const Precision p = parse_precision(pn);
        const SweepTimings t = time_sweeps(b, p, n, repeats);
        const double bytes = 3.0 * double(n) * n * (p == Precision::f32 ? 4 : 8);
        const double copy_at_n = b == Backend::cuda ? bench::device_copy_gbs(std::size_t(bytes / 2)) : 0;
        const std::pair<const char*, double> rows[] = {{"jacobi", t.jacobi},
                                                       {"jacobi, change test", t.jacobi_tested},
                                                       {"jacobi, solve", t.jacobi_solve},
                                                       {"red-black (rbgs, sor)", t.red_black},
                                                       {"red-black, change test", t.red_black_tested},
                                                       {"red-black, solve", t.red_black_solve}};
        for (const auto& [name, seconds] : rows) {
          const double gbs = bytes / seconds * 1e-9;
          std::printf("%-8s %-5s %6d %-22s %10.1f %9.0f %7.0f%% %8.0f%%\n", bn.c_str(), pn.c_str(), n, name,
                      seconds * 1e6, gbs, 100 * gbs / bandwidth, copy_at_n > 0 ? 100 * gbs / copy_at_n : 0.0);
          out["sweeps"].push_back({{"backend", bn}, {"device", device_name(b)}, {"precision", pn}, {"n", n},
                                   {"sweep", name}, {"seconds", seconds}, {"bytes", bytes}, {"gbs", gbs},
                                   {"bandwidth_gbs", bandwidth}, {"fraction_of_bound", gbs / bandwidth},
                                   {"same_size_copy_gbs", copy_at_n}});
        }
        std::fflush(stdout);
      }
    if (b == Backend::cuda) {
      exchange_floor(out);
      cluster_sweep_floor(bandwidth, out);
    }
  }
}

}  // namespace

int cmd_bench_implicit(const std::vector<std::string>& args) {
  CLI::App app{"Poisson by every linear solver, seed 000's Table 1 explicit/implicit pair, relaxation sweeps",
               "pdex bench implicit"};
  std::vector<int> sizes{1024, 4096}, widths{128, 256, 512, 1024, 2048}, sweep_sizes{1024, 4096};
  std::vector<std::string> backends, precisions{"f64"}, table1_backends, methods;
  for (const auto& m : all_methods()) methods.push_back(m.label);
  std::string json_file = "bench-implicit.json", cn_method = "multigrid";
  PoissonOptions po;
  PairOptions pair;
  pair.solver.tol = 1e-6;
  app.add_option("--sizes", sizes, "Poisson grid widths (cube edges with --dims 3; default there 64,128,256) (0: skip)")
      ->delimiter(',');
  app.add_option("--dims", po.dims, "2: n x n grids; 3: n x n x n grids, Poisson only (no Table 1 pair, no sweeps)")
      ->check(CLI::IsMember({2, 3}));
  app.add_option("--backends", backends, "backends (default: all available)")->delimiter(',');
  app.add_option("--precisions", precisions, "f32,f64 (Poisson)")->delimiter(',');
  app.add_option("--methods", methods, "Poisson solvers (default: all)")->delimiter(',');
  app.add_option("--tol", po.tol, "Poisson: relative residual to reach");
  app.add_option("--max-iter", po.max_iter, "Poisson: iteration cap of every solver");
  app.add_option("--relax-max-iter", po.relax_max_iter, "Poisson: sweep cap of jacobi, weighted_jacobi, rbgs");
  app.add_option("--repeats", po.repeats, "Poisson: timed solves per row (median)");
  app.add_option("--table1", table1_backends, "backends for seed 000's Table 1 pair (default: --backends; none: skip)")
      ->delimiter(',');
  app.add_option("--widths", widths, "Table 1 pair: grid widths")->delimiter(',');
  app.add_option("--steps-scale", pair.steps_scale, "Table 1 pair: fraction of the seed's step counts to run");
  app.add_option("--cn-solver", cn_method, "Table 1 pair: Crank-Nicolson's linear solver");
  app.add_option("--cn-tol", pair.solver.tol, "Table 1 pair: its relative residual (time-discretization level)");
  app.add_option("--cn-cycles", pair.solver.cycles, "Table 1 pair: multigrid cycles per step instead of --cn-tol");
  app.add_option("--sweep-sizes", sweep_sizes, "relaxation sweeps: grid widths (0: skip)")->delimiter(',');
  app.add_option("--json", json_file, "output JSON file");
  if (const auto status = parse_suite_args(app, args)) return *status;
  if (po.dims == 3) {
    if (app.count("--sizes") == 0) sizes = {64, 128, 256};
    table1_backends = {"none"};
    sweep_sizes = {0};
  }
  if (backends.empty()) backends = available_backend_names();
  if (table1_backends.empty()) table1_backends = backends;
  pair.solver.method = parse_solver_method(cn_method);

  nlohmann::json out;
  if (!sizes.empty() && sizes.front() > 0) poisson_suite(backends, precisions, sizes, methods, po, out);
  if (table1_backends.front() != "none") table1_suite(table1_backends, widths, pair, out);
  if (!sweep_sizes.empty() && sweep_sizes.front() > 0) sweep_suite(backends, precisions, sweep_sizes, po.repeats, out);
  std::ofstream(json_file) << out.dump(2) << "\n";
  std::printf("\nwritten %s\n", json_file.c_str());
  return 0;
}

}  // namespace pdex
