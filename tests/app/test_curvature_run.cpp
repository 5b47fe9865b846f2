// `pdex run` of a curvature flow (model.name = "mean_curvature" | "willmore", docs/config.md "Curvature
// flows"): outputs at output.times, Merson's steps, rejections and step sizes in summary.json, and bad
// curvature keys refused with the file, the key and what was expected. `pdex verify curvature` writes its
// table as JSON.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "app_test_support.hpp"

namespace pdex::app_testing {
namespace {

std::string curvature_config(const std::string& model = "mean_curvature", const std::string& time_extra = "",
                             const std::string& initial = "phi = { preset = \"radial_sine\", k = 1.0 }") {
  return "[model]\nname = \"" + model + "\"\n"
         "[grid]\nnx = 16\nny = 16\ndx = 0.25\nx0 = -2.0\ny0 = -2.0\nboundary = \"neumann\"\n"
         "[time]\nt_end = 0.02\n" + time_extra +
         "[initial]\n" + initial + "\n"
         "[output]\ntimes = [0.005, 0.01]\nformats = [\"npy\"]\n"
         "[run]\nbackend = \"serial\"\nprecision = \"f64\"\nprogress = false\n";
}

Outcome run_text(const ScratchDir& dir, const std::string& text) {
  write_file_bytes(dir / "cfg.toml", text);
  return run_pdex({"run", dir.str("cfg.toml"), "--out", dir.str("out")});
}

TEST(CurvatureRun, WritesAtOutputTimesAndRecordsMersonSteps) {
  ScratchDir dir;
  const Outcome o = run_text(dir, curvature_config());
  ASSERT_EQ(o.status, 0) << o.output;
  const auto s = read_json(dir / "out" / "summary.json");
  EXPECT_EQ(s["status"], "ok");
  EXPECT_EQ(s["model"], "mean_curvature");
  EXPECT_EQ(s["scheme"], "merson");
  EXPECT_DOUBLE_EQ(s["simulated_time"].get<double>(), 0.02);
  const int64_t steps = s["steps"].get<int64_t>();
  EXPECT_GT(steps, 3);
  EXPECT_GE(s["rejected_steps"].get<int64_t>(), 0);
  const auto& h = s["step_size"]["history_t_tau"];
  ASSERT_GE(h.size(), 2u);
  EXPECT_DOUBLE_EQ(h.back()[0].get<double>(), 0.02);  // the last step lands on t_end
  EXPECT_GT(s["step_size"]["max"].get<double>(), 10 * s["step_size"]["min"].get<double>()) << "Merson grows the step";
  const auto& outs = s["outputs"];
  ASSERT_EQ(outs.size(), 4u);  // t = 0, the two output times, t_end
  const double times[4] = {0.0, 0.005, 0.01, 0.02};
  for (int k = 0; k < 4; ++k) EXPECT_DOUBLE_EQ(outs[k]["t"].get<double>(), times[k]);
  EXPECT_TRUE(fs::exists(outs[3]["files"][0].get<std::string>()));
  EXPECT_EQ(s["config"]["time"]["tol"], 1e-6);
  EXPECT_EQ(s["config"]["grid"]["boundary"]["left"]["phi"]["kind"], "neumann");
}

TEST(CurvatureRun, Rk4TakesTheGivenStep) {
  ScratchDir dir;
  const Outcome o = run_text(dir, curvature_config("mean_curvature", "scheme = \"rk4\"\ndt = 0.0005\n"));
  ASSERT_EQ(o.status, 0) << o.output;
  const auto s = read_json(dir / "out" / "summary.json");
  EXPECT_EQ(s["steps"], 40);
  EXPECT_EQ(s["rejected_steps"], 0);
}

// The same fixed step is far beyond Willmore flow's explicit limit (~h^4 / 25 = 1.6e-4 here).
TEST(CurvatureRun, UnstableFixedStepIsReportedAsABlowUp) {
  ScratchDir dir;
  const Outcome o = run_text(dir, curvature_config("willmore", "scheme = \"rk4\"\ndt = 0.0005\n"));
  EXPECT_EQ(o.status, 3) << o.output;  // main.cpp: NumericalError
  EXPECT_TRUE(contains(o.output, "blew up")) << o.output;
  EXPECT_TRUE(contains(o.output, "time.dt")) << o.output;
  EXPECT_EQ(read_json(dir / "out" / "summary.json")["status"], "failed");
}

TEST(CurvatureRun, BadCurvatureKeysAreRefused) {
  expect_refused({
      {curvature_config("mean_curvature", "steps = 10\n"), {"key 'time.steps'", "t_end"}},
      {curvature_config("mean_curvature", "tol = -1.0\n"), {"key 'time.tol'", "positive"}},
      {curvature_config("mean_curvature", "scheme = \"rk4\"\n"), {"key 'time.dt'", "rk4"}},
      {curvature_config("mean_curvature", "scheme = \"euler\"\n"), {"key 'time.scheme'", "merson"}},
      {curvature_config("mean_curvature", "", "phi = { preset = \"ripples\" }"), {"key 'initial.phi.preset'", "radial_sine"}},
      {curvature_config("mean_curvature", "", ""), {"key 'initial.phi'"}},
  });
}

TEST(CurvatureRun, ManufacturedForcingRefusesAnInitialState) {
  ScratchDir dir;
  std::string text = curvature_config();
  text.replace(text.find("[grid]"), 0, "forcing = \"manufactured\"\n");
  const Outcome o = run_text(dir, text);
  EXPECT_EQ(o.status, 2);
  EXPECT_TRUE(contains(o.output, "key 'initial.phi'")) << o.output;
}

TEST(VerifyCurvature, WritesTheEocTableAsJson) {
  ScratchDir dir;
  const Outcome o = run_pdex({"verify", "curvature", "--backend", "serial", "--sizes", "8,16,32", "--json",
                              dir.str("v.json")});
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_TRUE(contains(o.output, "EOC")) << o.output;
  const auto v = read_json(dir / "v.json");
  const auto& rows = v["studies"][0]["rows"];
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_NEAR(rows[2]["eoc_l2"].get<double>(), 2.0, 0.2);
  EXPECT_LT(rows[2]["l1"].get<double>(), rows[1]["l1"].get<double>());
}

}  // namespace
}  // namespace pdex::app_testing
