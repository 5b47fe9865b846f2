// pdex run of the wave model: the explicit scheme's CFL limit is enforced with the largest stable dt in
// the message (time.force overrides it); Crank-Nicolson runs at that step and reports its CG solves.
#include <gtest/gtest.h>

#include <string>

#include "app_test_support.hpp"

namespace pdex::app_testing {
namespace {

// 32 x 32 cells of dx = 1: the CFL limit is 1 / sqrt(2) = 0.707107 for c = 1.
std::string wave_config(const std::string& scheme, double dt, bool force = false) {
  return "[model]\nname = \"wave\"\n[model.params]\nc = 1.0\n[model.drops]\nevery = 10\nradius = 2.0\n"
         "[grid]\nnx = 32\nny = 32\ndx = 1.0\nboundary = \"neumann\"\n"
         "[time]\nscheme = \"" + scheme + "\"\ndt = " + std::to_string(dt) + "\nsteps = 40\nforce = " +
         (force ? "true" : "false") + "\n[output]\ndir = \"out\"\nformats = [\"npy\"]\n[run]\nbackend = \"serial\"\nprogress = false\n";
}

Outcome run_config(const ScratchDir& dir, const std::string& text) {
  write_file_bytes(dir.path() / "wave.toml", text);
  return run_pdex({"run", (dir.path() / "wave.toml").string(), "--out", (dir.path() / "out").string()});
}

TEST(WaveRun, ExplicitStepAboveTheCflLimitIsRefusedWithTheLargestStableStep) {
  ScratchDir dir;
  const Outcome o = run_config(dir, wave_config("explicit", 0.75));
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_TRUE(contains(o.output, "key 'time.dt'")) << o.output;
  EXPECT_TRUE(contains(o.output, "largest stable explicit step 0.707107")) << o.output;
  EXPECT_TRUE(contains(o.output, "CFL")) << o.output;
  EXPECT_TRUE(contains(o.output, "time.force")) << o.output;
}

TEST(WaveRun, ForceRunsAboveTheLimitAndCrankNicolsonNeedsNoLimit) {
  ScratchDir dir;
  EXPECT_EQ(run_config(dir, wave_config("explicit", 0.75, true)).status, 0);
  const Outcome cn = run_config(dir, wave_config("crank_nicolson", 2.0));
  EXPECT_EQ(cn.status, 0) << cn.output;
  const auto summary = read_json(dir.path() / "out" / "summary.json");
  EXPECT_EQ(summary["scheme"], "crank_nicolson");
  EXPECT_EQ(summary["config"]["solver"]["method"], "cg");
  EXPECT_GT(summary["solver"]["solves"].get<int>(), 0) << summary.dump();
}

TEST(WaveRun, UnknownSchemeIsRefused) {
  ScratchDir dir;
  const Outcome o = run_config(dir, wave_config("theta", 0.5));
  EXPECT_EQ(o.status, 2);
  EXPECT_TRUE(contains(o.output, "time.scheme")) << o.output;
}

}  // namespace
}  // namespace pdex::app_testing
