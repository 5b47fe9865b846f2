#pragma once
// `pdex run` of this executable in a child process: over MPI ranks by `mpirun -n RANKS` (or the launcher
// PDEX_MPIRUN names, e.g. "mpirun --oversubscribe" or "srun"), or in one process; for `pdex compare
// --ranks` and `pdex bench scaling`.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace pdex {

// Runs `pdex run FILE --out OUT ARGS...` (each argument shell-quoted) over `ranks` ranks, or in one
// process where ranks is 0, with `env` (NAME=value words, or empty) before it; returns OUT's summary.json.
// Throws Error naming the command when the run fails.
nlohmann::json run_pdex_child(int ranks, const std::string& file, const std::string& out, const std::vector<std::string>& args,
                              const std::string& env = "");

}  // namespace pdex
