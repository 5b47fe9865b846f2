#include "peer_rows.hpp"

#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <type_traits>

#include "pdex/core/error.hpp"
#include "pdex/core/format.hpp"
#include "pdex/core/shell_quote.hpp"

namespace pdex::bench {

namespace {

template <class T>
std::string comma_list(const std::vector<T>& items) {
  std::string s;
  for (const T& v : items) {
    if (!s.empty()) s += ",";
    if constexpr (std::is_same_v<T, std::string>) s += v;
    else s += std::to_string(v);
  }
  return s;
}

// Whether a peer row ran on a GPU: peers.py names the device "gpu: ..." (JAX) or "cuda: ..." (PyTorch).
bool on_gpu(const nlohmann::json& peer) {
  const std::string d = peer.value("device", "");
  return d.rfind("gpu", 0) == 0 || d.rfind("cuda", 0) == 0;
}

// pdex's fastest built-in row (not a text-model row) at the peer's width and precision, on CUDA for a GPU
// peer and on a host backend for a CPU one; null if the run has none.
const nlohmann::json* fastest_pdex_row(const nlohmann::json& out, const nlohmann::json& peer) {
  const nlohmann::json* best = nullptr;
  if (!out.contains("explicit")) return best;
  for (const nlohmann::json& row : out["explicit"]) {
    const std::string schedule = row["schedule"], backend = row["backend"];
    const bool text = schedule.rfind("text", 0) == 0 || schedule == "interp";
    if (text || row["nx"] != peer["nx"] || row["nz"] != 1 || row["precision"] != peer["precision"]) continue;
    if ((backend == "cuda") != on_gpu(peer)) continue;
    if (!best || row["gcells_per_s"].get<double>() > (*best)["gcells_per_s"].get<double>()) best = &row;
  }
  return best;
}

// pdex's CUDA time of seed 000's Table 1 workload in this run, or 0.
double pdex_table1_seconds(const nlohmann::json& out) {
  if (out.contains("table1"))
    for (const nlohmann::json& t : out["table1"])
      if (t["backend"] == "cuda") return t["seconds"];
  return 0;
}

}  // namespace

std::vector<std::string> peer_frameworks(const std::vector<std::string>& names) {
  std::vector<std::string> f;
  for (const std::string& n : names)
    if (n == "all") f = {"jax", "torch", "numpy"};
    else if (n != "none" && std::find(f.begin(), f.end(), n) == f.end()) f.push_back(n);
  return f;
}

void check_peer_request(const PeerRequest& r, int dims) {
  for (const std::string& f : r.frameworks)
    if (f != "jax" && f != "torch" && f != "numpy")
      throw InputError("--peers: unknown framework '" + f + "': expected jax, torch, numpy, all or none");
  if (r.model != "gray_scott" && r.model != "turing")
    throw InputError("--peers: bench/peers/peers.py has gray_scott and turing, not '" + r.model + "' (--model)");
  if (dims != 2) throw InputError("--peers: the peers step n x n grids: leave out --dims 3");
  if (!std::filesystem::is_regular_file(r.script))
    throw InputError("--peers-script: '" + r.script + "' is not a file: give the path of pdex's bench/peers/peers.py");
}

nlohmann::json run_peers(const PeerRequest& r, const std::string& json_file) {
  std::string cmd = shell_quoted(r.python) + " " + shell_quoted(r.script) + " --framework " + comma_list(r.frameworks) +
                    " --model " + r.model + " --sizes " + comma_list(r.sizes) + " --precision " + comma_list(r.precisions) +
                    " --min-time " + format_number(r.min_time) + " --json " + shell_quoted(json_file);
  if (!r.table1) cmd += " --no-table1";
  std::printf("\npeers: %s\n", cmd.c_str());
  std::fflush(stdout);
  std::filesystem::remove(json_file);
  if (const int status = std::system(cmd.c_str()); status != 0)
    throw Error("the peers failed (exit status " + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : status) + "): " + cmd +
                " (they need NumPy in that Python; --python names another)");
  std::ifstream in(json_file);
  if (!in) throw Error("the peers wrote no " + json_file + ": " + cmd);
  return nlohmann::json::parse(in);
}

void compare_with_peers(const nlohmann::json& peers, nlohmann::json& out) {
  std::printf("\npeers beside pdex's fastest built-in schedule at the same width and precision, same machine:\n");
  std::printf("%-6s %-30s %-5s %6s %10s %10s %-40s %11s\n", "peer", "variant", "prec", "width", "Gcell/s", "pdex", "pdex schedule",
              "pdex / peer");
  out["peers"] = nlohmann::json::array();
  for (nlohmann::json row : peers.value("results", nlohmann::json::array())) {
    const nlohmann::json* pdex = fastest_pdex_row(out, row);
    const double peer = row["gcells_per_s"], mine = pdex ? (*pdex)["gcells_per_s"].get<double>() : 0.0;
    const std::string schedule = pdex ? (*pdex)["backend"].get<std::string>() + ", " + (*pdex)["schedule"].get<std::string>() : "-";
    std::printf("%-6s %-30.30s %-5s %6d %10.3f %10.3f %-40.40s", row["framework"].get<std::string>().c_str(),
                row["variant"].get<std::string>().c_str(), row["precision"].get<std::string>().c_str(), row["nx"].get<int>(), peer, mine,
                schedule.c_str());
    if (pdex) std::printf(" %10.2fx\n", mine / peer);
    else std::printf(" %11s\n", "-");
    row["pdex_gcells_per_s"] = pdex ? nlohmann::json(mine) : nlohmann::json();
    row["pdex_schedule"] = schedule;
    row["pdex_over_peer"] = pdex ? nlohmann::json(mine / peer) : nlohmann::json();
    out["peers"].push_back(row);
  }
  const double mine = pdex_table1_seconds(out);
  for (nlohmann::json t : peers.value("table1", nlohmann::json::array())) {
    const double seconds = t["seconds"];
    std::printf("seed 000 Table 1 workload: %s %s %s %.3f s", t["framework"].get<std::string>().c_str(),
                t["variant"].get<std::string>().c_str(), t["precision"].get<std::string>().c_str(), seconds);
    if (mine > 0) std::printf(", pdex (cuda) %.3f s: %.2fx\n", mine, seconds / mine);
    else std::printf(", pdex on cuda not run (--table1 cuda)\n");
    t["pdex_seconds"] = mine > 0 ? nlohmann::json(mine) : nlohmann::json();
    out["peers_table1"].push_back(t);
  }
}

}  // namespace pdex::bench
