#pragma once
// Helpers for the application tests: a scratch folder per test, configuration files written from
// text, and the pdex executable run as a user runs it (exit status and everything it printed).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "support/scratch_dir.hpp"

namespace pdex::app_testing {

namespace fs = std::filesystem;

using pdex::testing::ScratchDir;
using pdex::testing::read_file_bytes;
using pdex::testing::write_file_bytes;

inline nlohmann::json read_json(const fs::path& file) {
  std::ifstream in(file);
  if (!in) return nlohmann::json();
  return nlohmann::json::parse(in, nullptr, false);
}

// What one run of the executable gave: its exit status (-1 when killed by a signal) and its
// standard output and error, interleaved.
struct Outcome {
  int status = -1;
  std::string output;
};

inline std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs `pdex ARGS...`; `shell_prefix` is put before the command (e.g. "ulimit -v 4000000; ").
// OpenMP's threads wait passively in these runs: with the default (spinning) policy, a 40x32 run of
// 200 steps on 2 threads took from 0.1 s to 12 s on a loaded 2-core machine (CTest -j2 plus other
// work), because each step's parallel region waits for a descheduled thread.
inline Outcome run_pdex(const std::vector<std::string>& args, const std::string& shell_prefix = "") {
  ::setenv("OMP_WAIT_POLICY", "passive", 0);
  std::string cmd = shell_prefix + shell_quote(PDEX_EXE);
  for (const auto& a : args) cmd += " " + shell_quote(a);
  cmd += " 2>&1";
  Outcome o;
  FILE* pipe = ::popen(cmd.c_str(), "r");
  if (!pipe) {
    ADD_FAILURE() << "cannot start: " << cmd;
    return o;
  }
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) o.output.append(buf, n);
  const int st = ::pclose(pipe);
  o.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return o;
}

// The dtype string of a .npy file's header, e.g. "<f4".
inline std::string npy_descr(const fs::path& file) {
  const std::string bytes = read_file_bytes(file);
  const auto at = bytes.find("'descr': '");
  if (at == std::string::npos) return "";
  const auto start = at + 10;
  return bytes.substr(start, bytes.find('\'', start) - start);
}

// The files in a folder, by name, sorted.
inline std::vector<std::string> file_names(const fs::path& dir) {
  std::vector<std::string> names;
  if (fs::exists(dir))
    for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// A small Gray-Scott run (serial, no progress output) that the tests vary: Pearson's square start.
inline std::string gray_scott_config(const std::string& extra_output = "", int nx = 32, int ny = 24, int steps = 20) {
  return "[model]\nname = \"gray_scott\"\n"
         "[grid]\nnx = " + std::to_string(nx) + "\nny = " + std::to_string(ny) + "\nboundary = \"periodic\"\n"
         "[time]\ndt = 1.0\nsteps = " + std::to_string(steps) + "\n"
         "[initial]\n"
         "u = { value = 1.0, noise = 0.01, seed = 1, shapes = [{ shape = \"square\", size = 8.0, value = 0.5 }] }\n"
         "v = { value = 0.0, noise = 0.01, seed = 2, shapes = [{ shape = \"square\", size = 8.0, value = 0.25 }] }\n"
         "[output]\nformats = [\"npy\"]\n" + extra_output +
         "[run]\nbackend = \"serial\"\nprogress = false\n";
}

// A small Turing run from the seed's noisy alpha.
inline std::string turing_config(int nx = 40, int ny = 32, int steps = 200) {
  return "[model]\nname = \"turing\"\n"
         "[model.params]\nalpha = { value = 12.0, noise = 0.1, seed = 7 }\n"
         "[grid]\nnx = " + std::to_string(nx) + "\nny = " + std::to_string(ny) + "\n"
         "[time]\ndt = 0.5\nsteps = " + std::to_string(steps) + "\n"
         "[initial]\nu = 4.0\nv = 4.0\n"
         "[output]\nformats = [\"npy\"]\n"
         "[run]\nbackend = \"serial\"\nprogress = false\n";
}

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A configuration that `pdex run` must refuse, and what the message must say besides the file's name.
struct RefusedConfig {
  std::string text;
  std::vector<std::string> parts;
};

// Runs each configuration as dir/cfg.toml: exit status 2, the file and every part named.
inline void expect_refused(const std::vector<RefusedConfig>& cases) {
  for (const auto& c : cases) {
    ScratchDir dir;
    write_file_bytes(dir / "cfg.toml", c.text);
    const Outcome o = run_pdex({"run", dir.str("cfg.toml"), "--out", dir.str("out")});
    EXPECT_EQ(o.status, 2) << o.output;
    EXPECT_TRUE(contains(o.output, "cfg.toml")) << o.output;
    for (const auto& p : c.parts) EXPECT_TRUE(contains(o.output, p)) << "lacks \"" << p << "\":\n" << o.output;
  }
}

}  // namespace pdex::app_testing
