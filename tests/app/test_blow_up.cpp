// A run that produces NaN/Inf stops at the step where it happened, says where (step, field, cell),
// exits with status 3, and keeps everything it wrote before (outputs and a summary.json saying "failed").
#include <gtest/gtest.h>

#include <cmath>
#include <regex>
#include <string>

#include "app_test_support.hpp"

namespace pdex::app_testing {
namespace {

constexpr int numerical_error_status = 3;  // main.cpp: NumericalError

// Gray-Scott at dt = 5, four times its explicit limit, forced: the checkerboard mode grows by a
// factor of about 7 per step and overflows float within some tens of steps.
std::string unstable_config(int steps, int check_every) {
  return "[model]\nname = \"gray_scott\"\n"
         "[grid]\nnx = 32\nny = 24\n"
         "[time]\ndt = 5.0\nforce = true\nsteps = " + std::to_string(steps) +
         "\ncheck_every = " + std::to_string(check_every) + "\n"
         "[initial]\nu = { value = 1.0, noise = 0.01, seed = 1 }\nv = { value = 0.25, noise = 0.01, seed = 2 }\n"
         "[output]\nevery = 4\nformats = [\"npy\", \"png\"]\n"
         "[run]\nbackend = \"serial\"\nprogress = false\n";
}

// The step the message names, or -1.
long blow_up_step(const std::string& output) {
  std::smatch m;
  if (!std::regex_search(output, m, std::regex("blew up at step ([0-9]+) \\(t = [0-9.e+]+\\): field '([uv])' is NaN or infinite at cell x=[0-9]+, y=[0-9]+")))
    return -1;
  return std::stol(m[1]);
}

Outcome run_unstable(const ScratchDir& dir, const std::string& name, int steps, int check_every) {
  write_file_bytes(dir / (name + ".toml"), unstable_config(steps, check_every));
  return run_pdex({"run", dir.str(name + ".toml"), "--out", dir.str(name)});
}

TEST(BlowUp, StopsAtTheStepWhereItHappenedAndKeepsEarlierOutputs) {
  ScratchDir dir;
  const Outcome o = run_unstable(dir, "full", 500, 7);
  ASSERT_EQ(o.status, numerical_error_status) << o.output;
  const long step = blow_up_step(o.output);
  ASSERT_GT(step, 8) << "the test needs a blow-up after two outputs; message:\n" << o.output;
  ASSERT_LT(step, 500) << o.output;
  EXPECT_TRUE(contains(o.output, "Reduce time.dt (now 5)")) << o.output;

  // The named step is the first bad one: one step fewer runs to the end, exactly that many fails there.
  const Outcome before = run_unstable(dir, "before", int(step - 1), 7);
  EXPECT_EQ(before.status, 0) << before.output;
  EXPECT_EQ(read_json(dir / "before" / "summary.json")["status"], "ok");
  const Outcome at = run_unstable(dir, "at", int(step), 7);
  EXPECT_EQ(at.status, numerical_error_status) << at.output;
  EXPECT_EQ(blow_up_step(at.output), step) << at.output;

  // Outputs of every earlier `output.every` step are kept, none after.
  for (long s = 0; s < step; s += 4) {
    char tag[32];
    std::snprintf(tag, sizeof tag, "%06ld", s);
    for (const char* f : {"u_", "v_"})
      for (const char* ext : {".npy", ".png"})
        EXPECT_TRUE(fs::exists(dir / "full" / (f + std::string(tag) + ext))) << f << tag << ext << " was lost";
  }
  for (const auto& name : file_names(dir / "full")) {
    if (name == "summary.json") continue;
    EXPECT_LT(std::stol(name.substr(2, 6)), step) << name << " written at or after the blow-up";
  }
  auto summary = read_json(dir / "full" / "summary.json");
  EXPECT_EQ(summary["status"], "failed");
  EXPECT_TRUE(contains(summary["error"].get<std::string>(), "step " + std::to_string(step)));
  EXPECT_EQ(summary["outputs"].size(), 4 * std::size_t((step - 1) / 4 + 1)) << summary.dump(2);
}

TEST(BlowUp, TheReportedStepDoesNotDependOnTheCheckInterval) {
  ScratchDir dir;
  const long every_step = blow_up_step(run_unstable(dir, "c1", 500, 1).output);
  const long every_50 = blow_up_step(run_unstable(dir, "c50", 500, 50).output);
  ASSERT_GT(every_step, 0);
  EXPECT_EQ(every_50, every_step);
}

// time.blowup_copy = "never": no copy of a chunk's start, so the run stops at the check that failed,
// naming the chunk (which holds the step the copy finds), with every output before it kept.
TEST(BlowUp, WithoutACopyTheRunStopsAtTheFailedCheckNamingItsChunk) {
  ScratchDir dir;
  const long step = blow_up_step(run_unstable(dir, "copy", 500, 7).output);
  ASSERT_GT(step, 8);
  write_file_bytes(dir / "cfg.toml", unstable_config(500, 7));
  const Outcome o = run_pdex({"run", dir.str("cfg.toml"), "--out", dir.str("out"), "--set", "time.blowup_copy=\"never\""});
  ASSERT_EQ(o.status, numerical_error_status) << o.output;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(o.output, m, std::regex("blew up between steps ([0-9]+) and ([0-9]+): at step ([0-9]+) \\(t = [0-9.e+]+\\) "
                                                        "field '[uv]' is NaN or infinite at cell x=[0-9]+, y=[0-9]+. Reduce time.dt")))
      << o.output;
  const long from = std::stol(m[1]), to = std::stol(m[2]);
  EXPECT_LT(from, step);
  EXPECT_GE(to, step);
  EXPECT_LE(to - from, 7) << "a chunk ends at each check (7 steps) and output (4)";
  EXPECT_EQ(std::stol(m[3]), to);
  EXPECT_TRUE(contains(o.output, "kept no copy of the state to name the step (time.blowup_copy = \"never\")")) << o.output;
  const auto sum = read_json(dir / "out" / "summary.json");
  EXPECT_EQ(sum["status"], "failed");
  EXPECT_EQ(sum["steps_completed"], from);
  EXPECT_TRUE(fs::exists(dir / "out" / "v_000000.npy"));
}

// The copy is one state: a run without it peaks that much lower, and its summary says which it kept.
TEST(BlowUp, TheCopyCostsOneStateOfMemoryAndTheSummarySaysWhetherARunKeptIt) {
  ScratchDir dir;
  write_file_bytes(dir / "cfg.toml", unstable_config(2, 1));
  const auto run = [&](const std::string& name, const std::string& copy) {
    const Outcome o = run_pdex({"run", dir.str("cfg.toml"), "--out", dir.str(name), "--set", "time.dt=0.5", "--set", "grid.nx=2048",
                                "--set", "grid.ny=2048", "--set", "output.every=0", "--set", "output.formats=[]", "--set",
                                "time.blowup_copy=\"" + copy + "\""});
    EXPECT_EQ(o.status, 0) << o.output;
    return read_json(dir / name / "summary.json");
  };
  const auto kept = run("auto", "auto"), none = run("never", "never");
  EXPECT_EQ(kept["blowup_copy"], true) << "this machine has room for a 32 MiB copy";
  EXPECT_EQ(none["blowup_copy"], false);
  const double state = kept["memory"]["state_bytes"].get<double>();
  EXPECT_EQ(state, 2.0 * 2048 * 2048 * 4);
  EXPECT_GT(kept["memory"]["host_peak_bytes"].get<double>() - none["memory"]["host_peak_bytes"].get<double>(), 0.75 * state)
      << kept["memory"].dump() << " against " << none["memory"].dump();
}

TEST(BlowUp, ClampOffWithAHugeDtAlsoStopsWithStatus3) {
  ScratchDir dir;
  write_file_bytes(dir / "cfg.toml", unstable_config(200, 10));
  const Outcome o = run_pdex({"run", dir.str("cfg.toml"), "--out", dir.str("out"), "--set", "model.clamp=false",
                              "--set", "time.dt=50.0"});
  EXPECT_EQ(o.status, numerical_error_status) << o.output;
  EXPECT_GT(blow_up_step(o.output), 0) << o.output;
  EXPECT_EQ(read_json(dir / "out" / "summary.json")["status"], "failed");
}

// time.on_blowup = "retry": dt = 5 (checkerboard factor -7 a step), 2.5 (-3) and 1.25 (the diffusion
// limit, where the reaction tips it over) blow up within the first check (100 steps, no output between),
// from the initial state; 0.625 does not. The third retry reaches the end.
TEST(BlowUp, RetryHalvesDtFromTheLastCheckAndReachesTheEnd) {
  ScratchDir dir;
  write_file_bytes(dir / "cfg.toml", unstable_config(200, 100));
  const Outcome o = run_pdex({"run", dir.str("cfg.toml"), "--out", dir.str("out"), "--set", "time.on_blowup=\"retry\"",
                              "--set", "output.every=0"});
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_TRUE(contains(o.output, "going back to step 0 with time.dt = 2.5 (retry 1 of 3)")) << o.output;
  const auto sum = read_json(dir / "out" / "summary.json");
  EXPECT_EQ(sum["status"], "ok");
  ASSERT_EQ(sum["retries"].size(), 3u) << sum["retries"].dump(2);
  EXPECT_EQ(sum["retries"][0]["dt"], 2.5);
  EXPECT_EQ(sum["retries"][2]["dt"], 0.625);
  EXPECT_TRUE(contains(sum["retries"][0]["error"].get<std::string>(), "blew up at step")) << sum["retries"].dump(2);
  EXPECT_EQ(sum["steps"], 200) << "steps of the configuration's dt";
  EXPECT_EQ(sum["simulated_time"], 1000.0);
  EXPECT_TRUE(std::isfinite(sum["fields"]["u"]["max"].get<double>()));
  EXPECT_EQ(sum["outputs"].size(), 8u) << "u and v, .npy and .png, at steps 0 and 200";
}

TEST(BlowUp, RetriesRunOutAndTheRunStopsNamingThem) {
  ScratchDir dir;
  write_file_bytes(dir / "cfg.toml", unstable_config(200, 100));
  const Outcome o = run_pdex({"run", dir.str("cfg.toml"), "--out", dir.str("out"), "--set", "time.on_blowup=\"retry\"",
                              "--set", "output.every=0", "--set", "time.max_retries=1"});
  EXPECT_EQ(o.status, numerical_error_status) << o.output;
  EXPECT_TRUE(contains(o.output, "Reduce time.dt (now 2.5)")) << o.output;
  const auto sum = read_json(dir / "out" / "summary.json");
  EXPECT_EQ(sum["status"], "failed");
  EXPECT_EQ(sum["retries"].size(), 1u);
  for (const char* bad : {"time.on_blowup=\"halve\"", "time.max_retries=0", "time.blowup_copy=\"always\""}) {
    const Outcome refused = run_pdex({"run", dir.str("cfg.toml"), "--out", dir.str("bad"), "--set", bad});
    EXPECT_EQ(refused.status, 2) << bad << ": " << refused.output;
  }
  const Outcome no_copy = run_pdex({"run", dir.str("cfg.toml"), "--out", dir.str("bad"), "--set", "time.on_blowup=\"retry\"",
                                    "--set", "time.blowup_copy=\"never\""});
  EXPECT_EQ(no_copy.status, 2) << no_copy.output;
  EXPECT_TRUE(contains(no_copy.output, "time.blowup_copy")) << no_copy.output;
}

}  // namespace
}  // namespace pdex::app_testing
