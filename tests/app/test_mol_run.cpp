// `pdex run` of a reaction-diffusion model by the method of lines (time.scheme = "merson" | "rk4",
// docs/config.md): outputs at output.times, Merson's steps in summary.json, the same solution as forward
// Euler at a small step, and the keys that do not fit the scheme refused with file, key and what to do.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "app_test_support.hpp"
#include "pdex/app/run_config.hpp"
#include "pdex/app/simulation.hpp"

namespace pdex::app_testing {
namespace {

// Gray-Scott from Pearson's square start to t = 200 (f64), with `time` as the [time] table.
std::string gray_scott_by(const std::string& time, const std::string& output = "times = [50.0, 100.0]\n") {
  std::string text = gray_scott_config(output);
  const std::size_t a = text.find("[time]\n"), b = text.find("[initial]");
  text.replace(a, b - a, "[time]\n" + time);
  return text + "precision = \"f64\"\n";
}

Outcome run_text(const ScratchDir& dir, const std::string& text) {
  write_file_bytes(dir / "cfg.toml", text);
  return run_pdex({"run", dir.str("cfg.toml"), "--out", dir.str("out")});
}

std::vector<std::vector<double>> final_state(const ScratchDir& dir, const std::string& text) {
  write_file_bytes(dir / "cfg.toml", text);
  return run_simulation(load_run_config(dir.str("cfg.toml"), {}), final_values_only()).final_values;
}

TEST(MolRun, MersonWritesAtOutputTimesAndRecordsItsSteps) {
  ScratchDir dir;
  const Outcome o = run_text(dir, gray_scott_by("scheme = \"merson\"\ntol = 1e-5\nt_end = 200.0\n"));
  ASSERT_EQ(o.status, 0) << o.output;
  const auto s = read_json(dir / "out" / "summary.json");
  EXPECT_EQ(s["status"], "ok");
  EXPECT_EQ(s["scheme"], "merson");
  EXPECT_DOUBLE_EQ(s["simulated_time"].get<double>(), 200.0);
  EXPECT_GT(s["steps"].get<int64_t>(), 10);
  EXPECT_GT(s["step_size"]["max"].get<double>(), s["step_size"]["min"].get<double>());
  const auto& outs = s["outputs"];
  ASSERT_EQ(outs.size(), 4u);  // t = 0, 50, 100, 200
  EXPECT_DOUBLE_EQ(outs[2]["t"].get<double>(), 100.0);
  EXPECT_EQ(outs[3]["files"].size(), 2u);  // u and v
  EXPECT_GE(s["fields"]["v"]["min"].get<double>(), 0.0) << "clamped";
  EXPECT_EQ(s["config"]["time"]["tol"], 1e-5);
  EXPECT_EQ(s["config"]["model"]["name"], "gray_scott");
}

// Forward Euler at dt = 0.05 and Merson at tol 1e-7 reach the same state at t = 200: the difference is
// Euler's first-order error (about dt times the solution's second time derivative over the run).
TEST(MolRun, MersonAgreesWithForwardEulerAtASmallStep) {
  ScratchDir dir;
  const auto merson = final_state(dir, gray_scott_by("scheme = \"merson\"\ntol = 1e-7\nt_end = 200.0\n", ""));
  const auto euler = final_state(dir, gray_scott_by("dt = 0.05\nt_end = 200.0\n", ""));
  for (int f = 0; f < 2; ++f) {
    double num = 0, den = 0;
    for (std::size_t k = 0; k < euler[f].size(); ++k) {
      num += std::pow(merson[f][k] - euler[f][k], 2);
      den += euler[f][k] * euler[f][k];
    }
    EXPECT_LT(std::sqrt(num / den), 2e-3) << "field " << f;
  }
}

TEST(MolRun, Rk4StepIsCheckedAgainstItsStabilityLimit) {
  ScratchDir dir;
  // Du = 0.2097: forward Euler's limit 1.19, rk4's 1.66.
  const Outcome ok = run_text(dir, gray_scott_by("scheme = \"rk4\"\ndt = 1.5\nt_end = 30.0\n", ""));
  EXPECT_EQ(ok.status, 0) << ok.output;
  const Outcome o = run_text(dir, gray_scott_by("scheme = \"rk4\"\ndt = 2.0\nt_end = 30.0\n", ""));
  EXPECT_EQ(o.status, 2) << o.output;
  EXPECT_TRUE(contains(o.output, "key 'time.dt'")) << o.output;
  EXPECT_TRUE(contains(o.output, "rk4 step")) << o.output;
}

TEST(MolRun, KeysThatDoNotFitTheSchemeAreRefused) {
  expect_refused({
      {gray_scott_by("scheme = \"merson\"\nsteps = 10\n"), {"key 'time.steps'", "t_end"}},
      {gray_scott_by("scheme = \"merson\"\nt_end = 10.0\n", "every = 5\n"), {"key 'output.every'", "output.times"}},
      {gray_scott_by("scheme = \"rk4\"\nt_end = 10.0\n"), {"key 'time.dt'", "rk4"}},
      {gray_scott_by("dt = 1.0\nsteps = 10\n", "times = [5.0]\n"), {"output.times"}},
      {"[model]\nname = \"heat\"\n[grid]\nnx = 8\n[time]\nscheme = \"merson\"\nt_end = 1.0\n",
       {"key 'time.scheme'", "'merson' is not available for model 'heat'"}},
  });
}

}  // namespace
}  // namespace pdex::app_testing
