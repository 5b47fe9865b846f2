// pdex: a PDE explorer. Subcommands: run, serve, sweep, compare, list, bench, verify, solve.
#include <CLI/CLI.hpp>
#include <omp.h>
#include <xmmintrin.h>
#include <pmmintrin.h>

#include <cstdio>
#include <optional>

#include "pdex/app/commands.hpp"
#include "pdex/app/interrupt.hpp"
#include "pdex/app/ranks.hpp"
#include "pdex/core/error.hpp"
#include "pdex/core/version.hpp"
#include "pdex/serve/server.hpp"

namespace {
// Arithmetic on denormals is slow on x86 and they carry no information in these models: flush them, on
// every thread.
void flush_denormals() {
#pragma omp parallel
  {
    _MM_SET_FLUSH_ZERO_MODE(_MM_FLUSH_ZERO_ON);
    _MM_SET_DENORMALS_ZERO_MODE(_MM_DENORMALS_ZERO_ON);
  }
  _MM_SET_FLUSH_ZERO_MODE(_MM_FLUSH_ZERO_ON);
  _MM_SET_DENORMALS_ZERO_MODE(_MM_DENORMALS_ZERO_ON);
}

void add_overrides(CLI::App* cmd, pdex::CliOverrides& o, bool with_backend) {
  if (with_backend) cmd->add_option("--backend", o.backend, "serial | openmp | cuda | auto (overrides run.backend)");
  cmd->add_option("--precision", o.precision, "f32 | f64 (overrides run.precision)");
  cmd->add_option("--out", o.out_dir, "output folder (overrides output.dir)");
  cmd->add_option("--set", o.sets, "override any key: --set model.params.F=0.035 (repeatable)");
}
// Everything after SUITE goes to the suite, --help included (`pdex bench explicit --help` lists the
// suite's options): the subcommand has no help flag of its own.
void add_suite(CLI::App* cmd, std::string& suite, const char* what) {
  cmd->set_help_flag();
  cmd->add_option("suite", suite, what);
  cmd->prefix_command();
}

// Errors are printed once, by rank 0 (the others' reach it through the run's protocol, app/ranks.hpp).
void report(const char* prefix, const char* what) {
  if (pdex::job_rank() == 0) std::fprintf(stderr, "pdex: %s%s\n", prefix, what);
}

bool help_asked(CLI::App* cmd) {
  for (const auto& a : cmd->remaining())
    if (a == "--help" || a == "-h") return true;
  return false;
}
}  // namespace

int main(int argc, char** argv) {
  flush_denormals();
  std::optional<pdex::RankSession> ranks;
  try {
    ranks.emplace(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pdex: error: %s\n", e.what());
    return 2;
  }
  CLI::App app{"pdex: a PDE explorer for GPUs and CPUs (https://github.com/pdex; docs/ in the source tree)"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("pdex ") + pdex::version);

  std::string file, suite;
  pdex::CliOverrides cli;
  std::vector<std::string> backends;

  auto* run = app.add_subcommand("run", "run a simulation from a TOML configuration");
  run->add_option("config", file, "configuration file (.toml)")->required();
  add_overrides(run, cli, true);
  bool emit_source = false;
  run->add_flag("--emit-source", emit_source, "print the C++ source generated from a text model (model.name = \"equations\") and stop");
  pdex::RestartFrom restart;
  run->add_option("--restart", restart.dir, "continue from a checkpoint folder (OUT/checkpoints/step_N, docs/outputs.md)");
  run->add_flag("--force", restart.force, "with --restart: continue although the configuration or pdex version differs");

  pdex::serve::ServeOptions serve_opts;
  auto* serve = app.add_subcommand("serve", "run a simulation behind a web page: watch it, steer it, paint on it (docs/explorer.md)");
  serve->add_option("config", file, "configuration file (.toml)")->required();
  add_overrides(serve, cli, true);
  serve->add_option("--port", serve_opts.port, "port to listen on (default 8765, or the next free one; 0: any free port)");
  serve->add_option("--host", serve_opts.host, "address to listen on (default 127.0.0.1, this machine only)");
  serve->add_flag("--open", serve_opts.open_browser, "open the page in a browser (xdg-open)");
  serve->add_option("--max-fps", serve_opts.max_fps, "frames a second at most (default 120)")->check(CLI::Range(1.0, 1000.0));

  auto* sweep = app.add_subcommand("sweep", "run every combination of parameter values as one batched run (docs/config.md, \"Ensembles\")");
  sweep->add_option("config", file, "configuration file (.toml)")->required();
  add_overrides(sweep, cli, true);
  sweep->add_option("--param", cli.params, "NAME=lo:hi:count or NAME=v1,v2,...: a model parameter's values (repeatable)");

  auto* compare = app.add_subcommand("compare", "run a configuration on two backends and compare the results");
  compare->add_option("config", file, "configuration file (.toml)")->required();
  compare->add_option("--backends", backends, "two backends, e.g. openmp,cuda (default: openmp,cuda or serial,openmp)")
      ->delimiter(',');
  add_overrides(compare, cli, false);
  int compare_ranks = 0;
  compare->add_option("--ranks", compare_ranks, "compare the run in this process with the same over this many MPI ranks (mpirun, or $PDEX_MPIRUN)")
      ->check(CLI::Range(1, 65536));

  pdex::SolveOptions so;
  auto* solve = app.add_subcommand("solve", "solve a linear system A x = b from Matrix Market files");
  solve->add_option("matrix", so.matrix, "A, a Matrix Market file (.mtx)")->required();
  solve->add_option("rhs", so.rhs, "b, a Matrix Market vector (n x 1)")->required();
  solve->add_option("--solver", so.solver, "cg | pcg | bicgstab | cgls (least squares)");
  solve->add_option("--format", so.format, "storage: csr | banded | dense");
  solve->add_option("--out", so.out, "write x to this Matrix Market file");
  solve->add_option("--tol", so.tol, "relative residual to reach");
  solve->add_option("--max-iter", so.max_iter, "iteration limit");
  solve->add_flag("--jacobi", so.jacobi, "bicgstab: Jacobi preconditioning");
  solve->add_option("--backend", so.backend, "serial | openmp | cuda | auto");
  solve->add_option("--precision", so.precision, "f32 | f64");

  bool list_json = false;
  auto* list = app.add_subcommand("list", "list models, parameters, schemes, boundaries and backends");
  list->add_flag("--json", list_json, "print the same as JSON, for programs");

  auto* bench = app.add_subcommand("bench", "run a benchmark suite (explicit, implicit, curvature, chemotaxis, linalg, scaling) and write JSON");
  add_suite(bench, suite, "suite name: explicit | implicit | curvature | chemotaxis | linalg | scaling");

  auto* verify = app.add_subcommand("verify", "run a convergence study against an exact solution (curvature)");
  add_suite(verify, suite, "suite name: curvature");

  CLI11_PARSE(app, argc, argv);
  try {
    if (pdex::job_size() > 1 && !*run)
      throw pdex::InputError("over MPI ranks pdex runs `pdex run`; the other commands run in one process (without mpirun)");
    if (*run) return pdex::cmd_run(file, cli, emit_source, restart);
    if (*serve) {
      serve_opts.port_given = serve->count("--port") > 0;
      pdex::serve::LiveRun live(file, cli);
      return pdex::serve::run_server(live, serve_opts);
    }
    if (*sweep) return pdex::cmd_sweep(file, cli);
    if (*compare) return pdex::cmd_compare(file, cli, backends, compare_ranks);
    if (*list) return pdex::cmd_list(list_json);
    if (*solve) return pdex::cmd_solve(so);
    for (CLI::App* cmd : {bench, verify}) {
      if (!*cmd) continue;
      if (suite.empty()) {  // `pdex bench --help`, or no suite named
        std::fputs(cmd->help().c_str(), stdout);
        return help_asked(cmd) ? 0 : 1;
      }
      return cmd == bench ? pdex::cmd_bench(suite, bench->remaining()) : pdex::cmd_verify(suite, verify->remaining());
    }
  } catch (const pdex::Interrupted& e) {
    report("", e.what());
    return 128 + e.signal;
  } catch (const pdex::NumericalError& e) {
    report("error: ", e.what());
    return 3;
  } catch (const std::exception& e) {
    report("error: ", e.what());
    return 2;
  }
  return 0;
}
