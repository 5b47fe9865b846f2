// Text models through `pdex run`: a built-in model written as equations gives the built-in kernels'
// answer on every host backend and boundary kind, and bad text is refused before the run with the key.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <unistd.h>
#include <string>

#include "app_test_support.hpp"
#include "pdex/core/executor.hpp"
#include "pdex/io/npy.hpp"

namespace pdex::app_testing {
namespace {

const char* gray_scott_text =
    "name = \"equations\"\nspecies = [\"u\", \"v\"]\n"
    "[model.equations]\nu = \"Du*lap(u) - u*v^2 + F*(1 - u)\"\nv = \"Dv*lap(v) + u*v^2 - (F + k)*v\"\n"
    "[model.params]\nDu = 0.2097\nDv = 0.105\nF = 0.0367\nk = 0.0649\n";
const char* gray_scott_builtin = "name = \"gray_scott\"\nclamp = false\n";

std::string config(const std::string& model, const std::string& boundary, const std::string& backend,
                   const std::string& precision, int steps, const std::string& time = "") {
  return "[model]\n" + model +
         "[grid]\nnx = 24\nny = 20\nboundary = " + boundary + "\n" +
         (time.empty() ? "[time]\ndt = 1.0\nsteps = " + std::to_string(steps) + "\n" : time) +
         "[initial]\n"
         "u = { value = 1.0, noise = 0.01, seed = 1, shapes = [{ shape = \"square\", size = 8.0, value = 0.5 }] }\n"
         "v = { value = 0.0, noise = 0.01, seed = 2, shapes = [{ shape = \"square\", size = 8.0, value = 0.25 }] }\n"
         "[output]\nformats = [\"npy\"]\n"
         "[run]\nbackend = \"" + backend + "\"\nprecision = \"" + precision + "\"\nprogress = false\n";
}

// The compiled text models of this test process, in a cache of their own, removed at exit.
struct TestCache {
  fs::path dir = fs::temp_directory_path() / ("pdex-test-cache-" + std::to_string(::getpid()));
  ~TestCache() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};
std::string cache_prefix() {
  static const TestCache cache;
  return "PDEX_CACHE_DIR=" + cache.dir.string() + " ";
}

// The last output of `field` of a run of `text` (by simulated time: the step count is the scheme's).
std::vector<double> last_field(const std::string& text, const std::string& field) {
  ScratchDir dir;
  write_file_bytes(dir / "cfg.toml", text);
  const Outcome o = run_pdex({"run", dir.str("cfg.toml"), "--out", dir.str("out")}, cache_prefix());
  EXPECT_EQ(o.status, 0) << o.output;
  fs::path last;
  for (const auto& e : fs::directory_iterator(dir / "out"))
    if (e.path().filename().string().starts_with(field + "_") && e.path().extension() == ".npy" && e.path() > last) last = e.path();
  return last.empty() ? std::vector<double>{} : io::read_npy(last).data;
}

std::vector<double> final_field(const std::string& text, const std::string& field, int steps, const std::string& env = "") {
  ScratchDir dir;
  write_file_bytes(dir / "cfg.toml", text);
  const Outcome o = run_pdex({"run", dir.str("cfg.toml"), "--out", dir.str("out")}, cache_prefix() + env);
  EXPECT_EQ(o.status, 0) << o.output;
  char name[64];
  std::snprintf(name, sizeof name, "%s_%06d.npy", field.c_str(), steps);
  return io::read_npy(dir / "out" / name).data;
}

double largest_difference(const std::vector<double>& a, const std::vector<double>& b) {
  EXPECT_EQ(a.size(), b.size());
  double d = 0;
  for (std::size_t k = 0; k < a.size() && k < b.size(); ++k) d = std::max(d, std::abs(a[k] - b[k]));
  return d;
}

TEST(EquationsRun, GrayScottAsTextIsTheBuiltInModelOnEveryHostBackendAndBoundary) {
  const int steps = 1000;
  const std::string dirichlet = "{ left = { kind = \"dirichlet\", u = 0.3, v = 0.1 }, right = \"neumann\", "
                                "bottom = { kind = \"dirichlet\", value = 0.2 }, top = \"neumann\" }";
  for (const std::string& boundary : {std::string("\"periodic\""), std::string("\"neumann\""), dirichlet})
    for (const std::string backend : {"serial", "openmp"}) {
      SCOPED_TRACE(boundary + " " + backend);
      for (const std::string field : {"u", "v"}) {
        const auto text = final_field(config(gray_scott_text, boundary, backend, "f64", steps), field, steps);
        const auto builtin = final_field(config(gray_scott_builtin, boundary, backend, "f64", steps), field, steps);
        EXPECT_LT(largest_difference(text, builtin), 1e-12) << field;
      }
    }
}

const std::string theta_time = "[time]\nscheme = \"theta\"\ntheta = 0.5\ndt = 2.0\nsteps = 100\n[solver]\ntol = 1e-14\nmax_iter = 400\n";
const std::string rk4_time = "[time]\nscheme = \"rk4\"\ndt = 1.0\nt_end = 200.0\n";
const std::string merson_time = "[time]\nscheme = \"merson\"\ndt = 0.5\nt_end = 60.0\ntol = 1e-4\n";  // one first step for both

TEST(EquationsRun, EverySchemeOfTheTextIsTheBuiltInSchemesAnswer) {
  for (const std::string& time : {theta_time, rk4_time, merson_time})
    for (const std::string boundary : {"\"periodic\"", "\"neumann\""}) {
      SCOPED_TRACE(time + boundary);
      const auto text = last_field(config(gray_scott_text, boundary, "openmp", "f64", 0, time), "v");
      const auto builtin = last_field(config(gray_scott_builtin, boundary, "openmp", "f64", 0, time), "v");
      ASSERT_FALSE(text.empty());
      // Merson's step control passes the last bits of its error estimates (the two sum the terms in
      // different orders) on to its step sizes: the answers agree to the tolerance's leverage on them.
      EXPECT_LT(largest_difference(text, builtin), time == merson_time ? 1e-11 : 1e-12);
    }
}

TEST(EquationsRun, AManufacturedSolutionWithForcingConvergesAtSecondOrder) {
  // u = e^t sin x sin y solves u_t = lap(u) + 3 e^t sin x sin y on the periodic square of side 2 pi.
  auto error = [](int n) {
    const double h = 2 * M_PI / n;
    const std::string text = "[model]\nname = \"equations\"\nspecies = [\"u\"]\n[model.equations]\n"
                             "u = \"lap(u) + 3*exp(t)*sin(x)*sin(y)\"\n[grid]\nnx = " + std::to_string(n) + "\nny = " +
                             std::to_string(n) + "\ndx = " + std::to_string(h) + "\nboundary = \"periodic\"\n"
                             "[time]\nscheme = \"rk4\"\ndt = 0.002\nt_end = 0.2\n[initial]\nu = \"sin(x)*sin(y)\"\n"
                             "[output]\nformats = [\"npy\"]\n[run]\nprogress = false\nbackend = \"openmp\"\nprecision = \"f64\"\n";
    const std::vector<double> u = last_field(text, "u");
    double e = 0;
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        e = std::max(e, std::abs(u[std::size_t(j * n + i)] - std::exp(0.2) * std::sin((i + 0.5) * h) * std::sin((j + 0.5) * h)));
    return e;
  };
  EXPECT_NEAR(error(16) / error(32), 4.0, 0.25);
}

TEST(EquationsRun, TheStableStepIsEstimatedAndATooLargeStepWarned) {
  ScratchDir dir;
  write_file_bytes(dir / "cfg.toml", "[model]\nname = \"equations\"\nspecies = [\"u\"]\n[model.equations]\nu = \"D*lap(u) - u\"\n"
                                     "[model.params]\nD = 2.0\n[grid]\nnx = 8\n[time]\ndt = 0.2\nsteps = 1\n"
                                     "[initial]\nu = \"sin(x)\"\n[run]\nprogress = false\nbackend = \"serial\"\n");
  const Outcome o = run_pdex({"run", dir.str("cfg.toml"), "--out", dir.str("out")}, cache_prefix());
  EXPECT_EQ(o.status, 0) << o.output;
  EXPECT_TRUE(contains(o.output, "warning")) << o.output;
  EXPECT_TRUE(contains(o.output, "exceeds the largest stable forward-Euler step")) << o.output;
  // Gershgorin: 2 D (2 + 2) + 1 for dx = 1, so dt <= 2 / 17.
  EXPECT_NEAR(read_json(dir / "out" / "summary.json")["stability"]["dt_max"].get<double>(), 2.0 / 17, 1e-7);
}

TEST(EquationsRun, OnTheGpuTheTextIsTheBuiltInModelAndTheCpusAnswer) {
  if (!backend_available(Backend::cuda)) GTEST_SKIP() << "no CUDA device: " << backend_unavailable_reason(Backend::cuda);
  const int steps = 1000;
  for (const std::string boundary : {"\"periodic\"", "\"neumann\""}) {
    SCOPED_TRACE(boundary);
    const auto text = final_field(config(gray_scott_text, boundary, "cuda", "f64", steps), "v", steps);
    EXPECT_LT(largest_difference(text, final_field(config(gray_scott_builtin, boundary, "cuda", "f64", steps), "v", steps)), 1e-12);
    EXPECT_LT(largest_difference(text, final_field(config(gray_scott_text, boundary, "openmp", "f64", steps), "v", steps)), 1e-12);
  }
  const std::string clamped = std::string(gray_scott_text) + "[model.clamp]\nv = 0.0\n";
  EXPECT_LT(largest_difference(final_field(config(clamped, "\"periodic\"", "cuda", "f64", 300), "v", 300),
                               final_field(config(clamped, "\"periodic\"", "openmp", "f64", 300), "v", 300)),
            1e-12);
  for (const std::string& time : {theta_time, merson_time}) {
    SCOPED_TRACE(time);
    EXPECT_LT(largest_difference(last_field(config(gray_scott_text, "\"neumann\"", "cuda", "f64", 0, time), "v"),
                                 last_field(config(gray_scott_text, "\"neumann\"", "openmp", "f64", 0, time), "v")),
              1e-12);
  }
  const auto single = final_field(config(gray_scott_text, "\"periodic\"", "cuda", "f32", 200), "v", 200);
  EXPECT_LT(largest_difference(single, final_field(config(gray_scott_builtin, "\"periodic\"", "cuda", "f32", 200), "v", 200)), 1e-5);
}

TEST(EquationsRun, AClampKeepsASpeciesAtItsFloorAsTheBuiltInClampDoes) {
  // v starts as noise around 0: the first steps push it below 0, where both clamps act.
  const std::string text = std::string(gray_scott_text) + "[model.clamp]\nu = 0.0\nv = 0.0\n";
  const auto clamped = final_field(config(text, "\"periodic\"", "openmp", "f64", 300), "v", 300);
  const auto builtin = final_field(config("name = \"gray_scott\"\n", "\"periodic\"", "openmp", "f64", 300), "v", 300);
  EXPECT_LT(largest_difference(clamped, builtin), 1e-12);
  EXPECT_GE(*std::min_element(clamped.begin(), clamped.end()), 0.0);
  const auto free = final_field(config(gray_scott_text, "\"periodic\"", "openmp", "f64", 300), "v", 300);
  EXPECT_GT(largest_difference(clamped, free), 1e-4) << "the clamp acted in this run";
}

TEST(EquationsRun, InSinglePrecisionTheTwoAgreeToRounding) {
  const int steps = 200;
  const auto text = final_field(config(gray_scott_text, "\"periodic\"", "openmp", "f32", steps), "v", steps);
  const auto builtin = final_field(config(gray_scott_builtin, "\"periodic\"", "openmp", "f32", steps), "v", steps);
  EXPECT_LT(largest_difference(text, builtin), 1e-5);
}

TEST(EquationsRun, TheInterpreterGivesTheCompiledAnswerToTheBit) {
  const int steps = 300;
  const std::string cfg = config(gray_scott_text, "\"neumann\"", "openmp", "f64", steps);
  EXPECT_EQ(final_field(cfg, "v", steps, "PDEX_CXX=none "), final_field(cfg, "v", steps));
  ScratchDir dir;
  write_file_bytes(dir / "cfg.toml", cfg);
  const Outcome o = run_pdex({"run", dir.str("cfg.toml"), "--out", dir.str("out")}, "PDEX_CXX=none ");
  EXPECT_TRUE(contains(o.output, "runs in the interpreter")) << o.output;
}

TEST(EquationsRun, AnInitialValueMayBeAnExpressionOfThePosition) {
  ScratchDir dir;
  write_file_bytes(dir / "cfg.toml", "[model]\nname = \"equations\"\nspecies = [\"u\"]\n[model.equations]\nu = \"lap(u)\"\n"
                                     "[model.params]\nh = 0.5\n[grid]\nnx = 12\nny = 8\ndx = 0.25\nx0 = -1.0\n"
                                     "[time]\ndt = 0.01\nsteps = 0\n[initial]\nu = \"1 + h*exp(-(x^2 + (y - L_y/2)^2))\"\n"
                                     "[output]\nformats = [\"npy\"]\n[run]\nprogress = false\nbackend = \"serial\"\nprecision = \"f64\"\n");
  const Outcome o = run_pdex({"run", dir.str("cfg.toml"), "--out", dir.str("out")}, cache_prefix());
  ASSERT_EQ(o.status, 0) << o.output;
  const std::vector<double> u = io::read_npy(dir / "out" / "u_000000.npy").data;
  ASSERT_EQ(u.size(), 96u);
  for (int j = 0; j < 8; ++j)
    for (int i = 0; i < 12; ++i) {
      const double x = -1.0 + (i + 0.5) * 0.25, y = (j + 0.5) * 0.25;
      EXPECT_NEAR(u[std::size_t(j * 12 + i)], 1 + 0.5 * std::exp(-(x * x + (y - 1.0) * (y - 1.0))), 1e-15) << i << ", " << j;
    }
}

TEST(EquationsRun, BadTextIsRefusedWithTheKeyBeforeTheRun) {
  const std::string tail = "[grid]\nnx = 8\n[time]\ndt = 0.1\nsteps = 1\n[run]\nprogress = false\nbackend = \"serial\"\n";
  expect_refused({
      {"[model]\nname = \"equations\"\nspecies = [\"u\"]\n[model.equations]\nu = \"lap(w)\"\n" + tail,
       {"model.equations.u", "unknown name 'w'", "^"}},
      {"[model]\nname = \"equations\"\nspecies = [\"u\", \"v\"]\n[model.equations]\nu = \"lap(u)\"\n" + tail,
       {"model.equations", "species 'v' has no equation"}},
      {"[model]\nname = \"equations\"\nspecies = [\"u\"]\n[model.equations]\nu = \"u\"\nw = \"u\"\n" + tail,
       {"model.equations.w", "not one of model.species"}},
      {"[model]\nname = \"equations\"\n[model.equations]\nu = \"u\"\n" + tail, {"model.species"}},
      {"[model]\nname = \"equations\"\nspecies = [\"u\"]\n[model.equations]\nu = \"u/0\"\n" + tail, {"division by zero"}},
      {"[model]\nname = \"equations\"\nspecies = [\"u\"]\n[model.equations]\nu = \"u\"\n[initial]\nu = \"lap(x)\"\n" + tail,
       {"initial.u", "cannot use a species or an operator"}},
      {"[model]\nname = \"equations\"\nspecies = [\"u\"]\n[model.equations]\nu = \"u\"\n[initial]\nu = \"exp(-r)\"\n" + tail,
       {"initial.u", "unknown name 'r'"}},
  });
}

TEST(EquationsRun, EmitSourcePrintsTheGeneratedCodeAndRunsNothing) {
  ScratchDir dir;
  write_file_bytes(dir / "cfg.toml", config(gray_scott_text, "\"periodic\"", "serial", "f64", 10));
  const Outcome o = run_pdex({"run", dir.str("cfg.toml"), "--out", dir.str("out"), "--emit-source"}, cache_prefix());
  EXPECT_EQ(o.status, 0) << o.output;
  EXPECT_TRUE(contains(o.output, "struct Rhs")) << o.output;
  EXPECT_TRUE(contains(o.output, "pdex::lap(")) << o.output;
  EXPECT_FALSE(fs::exists(dir / "out")) << "nothing ran";
  write_file_bytes(dir / "builtin.toml", config(gray_scott_builtin, "\"periodic\"", "serial", "f64", 10));
  const Outcome b = run_pdex({"run", dir.str("builtin.toml"), "--emit-source"});
  EXPECT_NE(b.status, 0);
  EXPECT_TRUE(contains(b.output, "built-in kernels")) << b.output;
}

TEST(EquationsRun, AnUnusedParameterIsAWarning) {
  ScratchDir dir;
  write_file_bytes(dir / "cfg.toml", "[model]\nname = \"equations\"\nspecies = [\"u\"]\n[model.equations]\nu = \"-u\"\n"
                                     "[model.params]\nrate = 2.0\n[grid]\nnx = 8\n[time]\ndt = 0.1\nsteps = 1\n"
                                     "[run]\nprogress = false\nbackend = \"serial\"\n");
  const Outcome o = run_pdex({"run", dir.str("cfg.toml"), "--out", dir.str("out")}, cache_prefix());
  EXPECT_EQ(o.status, 0) << o.output;
  EXPECT_TRUE(contains(o.output, "warning")) << o.output;
  EXPECT_TRUE(contains(o.output, "model.params.rate is never used")) << o.output;
}

}  // namespace
}  // namespace pdex::app_testing
