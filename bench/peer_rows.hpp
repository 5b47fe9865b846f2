#pragma once
// `pdex bench explicit --peers`: the same step written in JAX, PyTorch and NumPy (bench/peers/peers.py),
// run by the bench after its own rows, on the same machine, with the run's model, widths and precisions,
// and each peer row set beside pdex's fastest built-in schedule at its width and precision.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace pdex::bench {

struct PeerRequest {
  std::vector<std::string> frameworks;  // jax, torch, numpy
  std::string python = "python3", script;
  std::string model;
  std::vector<int> sizes;
  std::vector<std::string> precisions;
  bool table1 = false;  // also seed 000's Table 1 workload (JAX and PyTorch), where pdex runs it on CUDA
  double min_time = 0.2;
};

// --peers' list as frameworks: `all` the three, `none` nothing, each named once.
std::vector<std::string> peer_frameworks(const std::vector<std::string>& names);

// Throws InputError (naming the option) for what peers.py cannot run, before any timing starts.
void check_peer_request(const PeerRequest& r, int dims);

// Runs peers.py (its table goes to stdout as it runs), its JSON written to json_file, and returns it.
nlohmann::json run_peers(const PeerRequest& r, const std::string& json_file);

// Prints each peer row beside pdex's fastest built-in row of out["explicit"] at its width and precision
// on the same kind of device (a GPU peer against CUDA rows, a CPU peer against host rows), and the peers'
// Table 1 times against out["table1"]'s CUDA time; adds them, with the ratios, to out["peers"].
void compare_with_peers(const nlohmann::json& peers, nlohmann::json& out);

}  // namespace pdex::bench
