#pragma once
// The subcommands of the pdex command line (DESIGN: the command line and configuration contract).
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "pdex/app/checkpoint.hpp"
#include "pdex/app/run_config.hpp"

namespace pdex {

// emit_source: print the model's generated source instead of running it; restart: continue a checkpoint.
// Ctrl-C or SIGTERM stops the run with a checkpoint (exit status 128 + the signal).
int cmd_run(const std::string& file, const CliOverrides& cli, bool emit_source = false, const RestartFrom& restart = {});
// pdex sweep, and pdex run of a file with [ensemble] (cmd_sweep.cpp).
int cmd_sweep(const std::string& file, const CliOverrides& cli);
// ranks > 0: the first backend in this process against the same over `ranks` MPI ranks (mpirun).
int cmd_compare(const std::string& file, const CliOverrides& cli, const std::vector<std::string>& backends, int ranks = 0);
int cmd_list(bool json = false);  // --json: the same for programs (the explorer, Python)
nlohmann::json list_json();       // what `pdex list --json` prints

// pdex solve A.mtx b.mtx (cmd_solve.cpp)
struct SolveOptions {
  std::string matrix, rhs, out;
  std::string solver = "cg", format = "csr", backend = "auto", precision = "f64";
  double tol = 1e-8;
  int max_iter = 10000;
  bool jacobi = false;
};
int cmd_solve(const SolveOptions& o);
int cmd_bench(const std::string& suite, const std::vector<std::string>& args);
int cmd_bench_curvature(const std::vector<std::string>& args);  // bench/curvature_bench.cpp
int cmd_bench_chemotaxis(const std::vector<std::string>& args);  // bench/chemotaxis_bench.cpp
int cmd_bench_scaling(const std::vector<std::string>& args);     // bench/scaling_bench.cpp
int cmd_verify(const std::string& suite, const std::vector<std::string>& args);  // bench/curvature_verify.cpp

}  // namespace pdex
