#include "pdex/app/rank_launch.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "pdex/core/error.hpp"
#include "pdex/core/shell_quote.hpp"

namespace pdex {

nlohmann::json run_pdex_child(int ranks, const std::string& file, const std::string& out, const std::vector<std::string>& args,
                              const std::string& env) {
  const char* launcher = std::getenv("PDEX_MPIRUN");
  std::string cmd = env.empty() ? "" : env + " ";
  if (ranks > 0) cmd += std::string(launcher ? launcher : "mpirun") + " -n " + std::to_string(ranks) + " ";
  cmd += shell_quoted(std::filesystem::read_symlink("/proc/self/exe").string()) + " run " + shell_quoted(file) + " --out " + shell_quoted(out);
  for (const std::string& a : args) cmd.append(" ").append(shell_quoted(a));
  std::fprintf(stderr, "running: %s\n", cmd.c_str());
  if (std::system(cmd.c_str()) != 0) throw Error("the run failed: " + cmd);
  std::ifstream in(out + "/summary.json");
  if (!in) throw Error("the run wrote no summary.json into " + out + ": " + cmd);
  return nlohmann::json::parse(in);
}

}  // namespace pdex
