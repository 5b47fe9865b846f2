// What a successful run leaves behind, and that the configuration reaches the engine: --set
// overrides, summary.json's keys, the output schedule and names, .npy layout and dtype, parameter and
// initial fields from .npy, seeded noise across backends, `pdex compare`, and `pdex list`.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "app_test_support.hpp"
#include "pdex/core/executor.hpp"
#include "pdex/io/npy.hpp"

namespace pdex::app_testing {
namespace {

Outcome run_file(const ScratchDir& dir, const std::string& text, const std::string& out,
                 const std::vector<std::string>& extra = {}) {
  write_file_bytes(dir / (out + ".toml"), text);
  std::vector<std::string> args{"run", dir.str(out + ".toml"), "--out", dir.str(out)};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_pdex(args);
}

TEST(RunOutputs, SetOverridesReachTheRunAndTheSummary) {
  ScratchDir dir;
  ASSERT_EQ(run_file(dir, gray_scott_config(), "base").status, 0);
  const Outcome o = run_file(dir, gray_scott_config(), "set", {"--set", "model.params.F=0.035", "--set", "time.steps=12"});
  ASSERT_EQ(o.status, 0) << o.output;
  auto base = read_json(dir / "base" / "summary.json");
  auto set = read_json(dir / "set" / "summary.json");
  EXPECT_DOUBLE_EQ(set["config"]["model"]["params"]["F"].get<double>(), 0.035);
  EXPECT_EQ(set["steps"], 12);
  EXPECT_NE(set["fields"]["v"]["mean"].get<double>(), base["fields"]["v"]["mean"].get<double>());
}

TEST(RunOutputs, SummaryHasTheKeysTheDesignLists) {
  ScratchDir dir;
  const Outcome o = run_file(dir, gray_scott_config("", 32, 24, 20), "run");
  ASSERT_EQ(o.status, 0) << o.output;
  auto s = read_json(dir / "run" / "summary.json");
  ASSERT_TRUE(s.is_object()) << read_file_bytes(dir / "run" / "summary.json");
  EXPECT_EQ(s["status"], "ok");
  EXPECT_EQ(s["config"]["model"]["name"], "gray_scott");  // the configuration as resolved
  EXPECT_EQ(s["config"]["run"]["backend"], "serial");
  EXPECT_EQ(s["model"], "gray_scott");
  EXPECT_EQ(s["backend"], "serial");
  EXPECT_TRUE(s["device"].is_string() && !s["device"].get<std::string>().empty());
  EXPECT_EQ(s["precision"], "f32");
  EXPECT_EQ(s["steps"], 20);
  EXPECT_DOUBLE_EQ(s["simulated_time"].get<double>(), 20.0);
  EXPECT_GE(s["wall_seconds"]["stepping"].get<double>(), 0.0);
  EXPECT_GE(s["wall_seconds"]["total"].get<double>(), s["wall_seconds"]["stepping"].get<double>());
  EXPECT_GT(s["cell_updates_per_second"].get<double>(), 0.0);
  EXPECT_EQ(s["grid"]["nx"], 32);
  EXPECT_EQ(s["grid"]["ny"], 24);
  EXPECT_DOUBLE_EQ(s["dt"].get<double>(), 1.0);
  EXPECT_NEAR(s["stability"]["dt_max"].get<double>(), 1 / (4 * 0.2097), 1e-9);
  EXPECT_EQ(s["schedule"]["name"], "one pass a step, by cells");
  EXPECT_EQ(s["schedule"]["steps_per_pass"], 1);
  for (const char* f : {"u", "v"}) {
    const auto& st = s["fields"][f];
    ASSERT_TRUE(st.is_object()) << f;
    EXPECT_LE(st["min"].get<double>(), st["mean"].get<double>()) << f;
    EXPECT_LE(st["mean"].get<double>(), st["max"].get<double>()) << f;
  }
  // Pearson's start: u near 1 outside the square, v near 0; the reaction keeps them in [0, 1].
  EXPECT_GT(s["fields"]["u"]["max"].get<double>(), 0.9);
  EXPECT_LT(s["fields"]["v"]["min"].get<double>(), 0.05);
  EXPECT_EQ(s["outputs"].size(), 4u);  // u and v .npy, initial and final
  // Memory: one copy of u and v in f32 is the state; the process held at least that, and no device buffer.
  EXPECT_DOUBLE_EQ(s["memory"]["state_bytes"].get<double>(), 2.0 * 32 * 24 * 4);
  EXPECT_GT(s["memory"]["host_peak_bytes"].get<double>(), s["memory"]["state_bytes"].get<double>());
  EXPECT_DOUBLE_EQ(s["memory"]["host_peak_per_state"].get<double>(),
                   s["memory"]["host_peak_bytes"].get<double>() / s["memory"]["state_bytes"].get<double>());
  EXPECT_FALSE(s["memory"].contains("device_bytes"));
}

// On the GPU the summary counts pdex's device buffers: the state twice (the step reads one, writes the
// other) and the guard's copy, with their ghosts and row padding, and the parameters.
TEST(RunOutputs, OnTheGpuTheSummaryCountsTheDeviceBuffers) {
  if (!backend_available(Backend::cuda)) GTEST_SKIP() << "no CUDA device: " << backend_unavailable_reason(Backend::cuda);
  ScratchDir dir;
  const Outcome o = run_file(dir, gray_scott_config("", 256, 256, 20), "run", {"--backend", "cuda"});
  ASSERT_EQ(o.status, 0) << o.output;
  const auto m = read_json(dir / "run" / "summary.json")["memory"];
  EXPECT_GE(m["device_per_state"].get<double>(), 3.0) << m.dump();
  EXPECT_LE(m["device_per_state"].get<double>(), 8.0) << m.dump();
}

// output.background = "never": the run waits for each output's files, written from the stepper's own
// host memory (a GPU's: from one copy). The files are those a run writing in the background leaves, bit
// for bit, in 2D and 3D (planes apart in the stepper's memory), pictures and checkpoints included.
TEST(RunOutputs, OutputsTheRunWaitsForAreTheFilesWrittenInTheBackground) {
  std::vector<std::string> backends{"serial", "openmp"};
  if (backend_available(Backend::cuda)) backends.push_back("cuda");
  for (const std::string& backend : backends)
    for (const int nz : {1, 7}) {
      SCOPED_TRACE(backend + " nz = " + std::to_string(nz));
      ScratchDir dir;
      const std::string text = gray_scott_config("every = 3\ncheckpoint_every = 6\n", 36, 20, 12);
      std::vector<std::string> sets{"--backend", backend, "--set", "output.formats=[\"npy\", \"vtk\", \"png\"]"};
      if (nz > 1) sets.insert(sets.end(), {"--set", "grid.nz=" + std::to_string(nz), "--set", "time.dt=0.5", "--set", "output.slice={axis=\"y\", index=5}"});
      sets.insert(sets.end(), {"--set", "output.background=\"never\""});
      ASSERT_EQ(run_file(dir, text, "waited", sets).status, 0);
      sets.back() = "output.background=\"auto\"";
      ASSERT_EQ(run_file(dir, text, "background", sets).status, 0);
      EXPECT_EQ(read_json(dir / "waited" / "summary.json")["outputs_waited"], 5);
      EXPECT_EQ(read_json(dir / "background" / "summary.json")["outputs_waited"], 0) << "this machine has room for the copies";
      std::vector<fs::path> files;
      for (const auto& e : fs::recursive_directory_iterator(dir / "background"))
        if (e.is_regular_file() && e.path().extension() != ".json") files.push_back(fs::relative(e.path(), dir / "background"));  // they name the run's file
      EXPECT_EQ(files.size(), std::size_t(5 * 5 + 1 + 2 * 2)) << "5 outputs of 2 .npy, 2 .png, a .vti; fields.pvd; 2 checkpoints of 2 .npy";
      for (const fs::path& f : files) EXPECT_EQ(read_file_bytes(dir / "waited" / f), read_file_bytes(dir / "background" / f)) << f;
    }
}

// Without room in host memory (a budget of one byte, PDEX_HOST_MEMORY), a run keeps no blow-up guard's
// copy in host memory and waits for its outputs: on the CPU for every one, on the GPU for the first only,
// whose copy's buffer the later outputs take in the background in turn. The files are the same. A budget
// that is not a size stops the run, naming the variable.
TEST(RunOutputs, WithoutRoomInHostMemoryTheRunWaitsForItsOutputs) {
  std::vector<std::pair<std::string, int>> backends{{"serial", 5}};
  if (backend_available(Backend::cuda)) backends.emplace_back("cuda", 1);
  for (const auto& [backend, waited] : backends) {
    SCOPED_TRACE(backend);
    ScratchDir dir;
    const std::string text = gray_scott_config("every = 3\n", 36, 20, 12);
    const std::vector<std::string> sets{"--backend", backend, "--set", "output.formats=[\"npy\", \"png\"]"};
    write_file_bytes(dir / "cfg.toml", text);
    const auto run = [&](const std::string& out, const std::string& prefix) {
      std::vector<std::string> args{"run", dir.str("cfg.toml"), "--out", dir.str(out)};
      args.insert(args.end(), sets.begin(), sets.end());
      return run_pdex(args, prefix);
    };
    ASSERT_EQ(run("short", "PDEX_HOST_MEMORY=1 ").status, 0);
    ASSERT_EQ(run("room", "").status, 0);
    const auto summary = read_json(dir / "short" / "summary.json");
    EXPECT_EQ(summary["outputs_waited"], waited);
    if (backend == "serial") {
      EXPECT_EQ(summary["blowup_copy"], false);
    }
    for (const std::string& f : file_names(dir / "room")) {
      if (f == "summary.json") continue;
      EXPECT_EQ(read_file_bytes(dir / "short" / f), read_file_bytes(dir / "room" / f)) << f;
    }
    const Outcome bad = run("bad", "PDEX_HOST_MEMORY=lots ");
    EXPECT_EQ(bad.status, 2) << bad.output;
    EXPECT_TRUE(contains(bad.output, "PDEX_HOST_MEMORY: expected a number of bytes")) << bad.output;
  }
}

// A host run that waits for its outputs holds no copy of the written fields: its peak is lower by more
// than three quarters of the state (the background's copy is one state, two while a write queues).
TEST(RunOutputs, OutputsTheRunWaitsForHoldNoCopyOfTheState) {
  ScratchDir dir;
  const std::string text = gray_scott_config("every = 2\n", 2048, 2048, 4);
  const auto run = [&](const std::string& background) {
    const Outcome o = run_file(dir, text, background, {"--set", "time.blowup_copy=\"never\"", "--set", "output.background=\"" + background + "\""});
    EXPECT_EQ(o.status, 0) << o.output;
    return read_json(dir / background / "summary.json")["memory"];
  };
  const auto background = run("auto"), waited = run("never");
  const double state = background["state_bytes"].get<double>();
  EXPECT_GT(background["host_peak_bytes"].get<double>() - waited["host_peak_bytes"].get<double>(), 0.75 * state)
      << background.dump() << " against " << waited.dump();
}

// A wave or heat run made from a recipe (noise) holds its levels and no more: no copy of the initial state
// in doubles, none on the host beside the stepper's. The wave's explicit scheme keeps three levels, the
// heat equation's forward Euler u, the next u and the source: within 3.6 states of the program's own
// memory (a 16 x 16 run's peak), where these families held 15 and 9 states here with their initial state
// in doubles (docs/performance.md, "Memory").
TEST(RunOutputs, WaveAndHeatRunsHoldTheirLevelsAndNoMore) {
  ScratchDir dir;
  using ModelStep = std::pair<std::string, std::string>;  // the model and its time.dt
  for (const auto& [model, dt] : {ModelStep{"wave", "0.5"}, ModelStep{"heat", "0.2"}}) {
    const auto memory = [&](int n) {
      const std::string size = std::to_string(n), name = model + size;
      const std::string text = "[model]\nname = \"" + model + "\"\n[time]\ndt = " + dt + "\nsteps = 2\n[grid]\nnx = " + size + "\nny = " + size +
                               "\nboundary = \"neumann\"\n[initial]\nu = { value = 0.0, noise = 0.1 }\n[output]\nformats = [\"npy\"]\n"
                               "every = 1\nbackground = \"never\"\n[run]\nbackend = \"serial\"\nprecision = \"f32\"\nprogress = false\n";
      const Outcome o = run_file(dir, text, name, {"--set", "time.blowup_copy=\"never\""});
      EXPECT_EQ(o.status, 0) << o.output;
      return read_json(dir / name / "summary.json")["memory"];
    };
    const auto small = memory(16), large = memory(2048);
    const double state = large["state_bytes"].get<double>();
    EXPECT_LT(large["host_peak_bytes"].get<double>() - small["host_peak_bytes"].get<double>(), 3.6 * state)
        << model << ": " << large.dump() << " against " << small.dump();
  }
}

TEST(RunOutputs, SummaryConfigHoldsTheValuesUsedIncludingDefaults) {
  ScratchDir dir;
  ASSERT_EQ(run_file(dir, gray_scott_config(), "run").status, 0);
  auto s = read_json(dir / "run" / "summary.json");
  EXPECT_DOUBLE_EQ(s["config"]["model"]["params"]["F"].get<double>(), 0.0367);
  EXPECT_DOUBLE_EQ(s["config"]["grid"]["dx"].get<double>(), 1.0);
}

TEST(RunOutputs, OutputEveryKStepsWritesTheExpectedFileNames) {
  ScratchDir dir;
  std::string text = gray_scott_config("every = 4\n", 16, 16, 10);
  text.replace(text.find("formats = [\"npy\"]"), 17, "formats = [\"png\", \"npy\"]");
  ASSERT_EQ(run_file(dir, text, "run").status, 0);
  std::vector<std::string> want;
  for (const char* f : {"u_", "v_"})
    for (const char* step : {"000000", "000004", "000008", "000010"})
      for (const char* ext : {".npy", ".png"}) want.push_back(f + std::string(step) + ext);
  want.push_back("summary.json");
  std::sort(want.begin(), want.end());
  EXPECT_EQ(file_names(dir / "run"), want);
}

TEST(RunOutputs, OnlyTheRequestedFieldsAreWrittenAndStepNumbersWidenForLongRuns) {
  ScratchDir dir;
  std::string text = gray_scott_config("fields = [\"v\"]\n", 8, 8, 1234567);
  const Outcome o = run_file(dir, text, "run", {"--set", "time.steps=1000000", "--set", "output.every=0"});
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_EQ(file_names(dir / "run"), (std::vector<std::string>{"summary.json", "v_0000000.npy", "v_1000000.npy"}));
}

TEST(RunOutputs, NpyOutputsReadBackAsNyByNxWithTheRunsDtype) {
  ScratchDir dir;
  for (const char* precision : {"f32", "f64"}) {
    SCOPED_TRACE(precision);
    const std::string out = std::string("run_") + precision;
    ASSERT_EQ(run_file(dir, gray_scott_config("", 20, 12, 3), out, {"--precision", precision}).status, 0);
    for (const char* f : {"u_000003.npy", "v_000003.npy"}) {
      const fs::path file = dir / out / f;
      EXPECT_EQ(npy_descr(file), std::string(precision) == "f32" ? "<f4" : "<f8");
      const io::NpyArray a = io::read_npy(file);
      EXPECT_EQ(a.shape, (std::vector<std::size_t>{12, 20}));
    }
    EXPECT_EQ(read_json(dir / out / "summary.json")["precision"], precision);
  }
}

// An initial field from .npy, indexed [y, x], comes back unchanged as the step-0 output.
TEST(RunOutputs, InitialFieldFromNpyRoundTripsInYXOrder) {
  ScratchDir dir;
  const std::size_t ny = 5, nx = 7;
  std::vector<double> u0(ny * nx);
  for (std::size_t y = 0; y < ny; ++y)
    for (std::size_t x = 0; x < nx; ++x) u0[y * nx + x] = 0.5 + 0.01 * double(x) + 0.1 * double(y);
  io::write_npy(dir / "u0.npy", u0.data(), {ny, nx});
  std::string text = gray_scott_config("", int(nx), int(ny), 0);
  const Outcome o = run_file(dir, text, "run", {"--precision", "f64", "--set", "initial.u={ file = \"u0.npy\" }"});
  ASSERT_EQ(o.status, 0) << o.output;
  const io::NpyArray back = io::read_npy(dir / "run" / "u_000000.npy");
  EXPECT_EQ(back.shape, (std::vector<std::size_t>{ny, nx}));
  EXPECT_EQ(back.data, u0);
}

// A parameter field from .npy is used cell by cell: a uniform file equals the constant bit for bit,
// and a file that differs in one half changes the result there.
TEST(RunOutputs, ParameterFieldFromNpyIsHonoured) {
  ScratchDir dir;
  const int nx = 40, ny = 32;
  std::vector<double> alpha(std::size_t(nx * ny), 12.0);
  io::write_npy(dir / "alpha_const.npy", alpha.data(), {std::size_t(ny), std::size_t(nx)});
  for (int y = ny / 2; y < ny; ++y)
    for (int x = 0; x < nx; ++x) alpha[std::size_t(y * nx + x)] = 12.4;
  io::write_npy(dir / "alpha_half.npy", alpha.data(), {std::size_t(ny), std::size_t(nx)});
  std::string base = turing_config(nx, ny, 300);
  base.replace(base.find("alpha = { value = 12.0, noise = 0.1, seed = 7 }"), 47, "alpha = 12.0");
  ASSERT_EQ(run_file(dir, base, "constant").status, 0);
  ASSERT_EQ(run_file(dir, base, "uniform", {"--set", "model.params.alpha={ file = \"alpha_const.npy\" }"}).status, 0);
  ASSERT_EQ(run_file(dir, base, "half", {"--set", "model.params.alpha={ file = \"alpha_half.npy\" }"}).status, 0);
  const auto c = io::read_npy(dir / "constant" / "u_000300.npy").data;
  const auto uniform = io::read_npy(dir / "uniform" / "u_000300.npy").data;
  const auto half = io::read_npy(dir / "half" / "u_000300.npy").data;
  EXPECT_EQ(uniform, c);
  // Row y = ny - 8 lies in the half with the larger alpha (u decays faster there: F = s(uv - u - alpha)),
  // row y = 8 in the other half, both 8 cells from the interfaces.
  const double top = half[std::size_t((ny - 8) * nx + 5)] - c[std::size_t((ny - 8) * nx + 5)];
  const double bottom = half[std::size_t(8 * nx + 5)] - c[std::size_t(8 * nx + 5)];
  EXPECT_LT(top, -0.2);
  EXPECT_LT(std::abs(bottom), std::abs(top) / 2);
}

// Noise comes from the host generator (SplitMix64), so a seed gives the same field on every backend.
TEST(RunOutputs, SeededNoiseIsIdenticalOnSerialAndOpenMP) {
  ScratchDir dir;
  const std::string text = turing_config(40, 32, 0);
  ASSERT_EQ(run_file(dir, text, "serial", {"--backend", "serial", "--set", "initial.u={ value = 4.0, noise = 0.1, seed = 3 }"}).status, 0);
  ASSERT_EQ(run_file(dir, text, "openmp", {"--backend", "openmp", "--set", "initial.u={ value = 4.0, noise = 0.1, seed = 3 }"}).status, 0);
  ASSERT_EQ(run_file(dir, text, "other", {"--backend", "serial", "--set", "initial.u={ value = 4.0, noise = 0.1, seed = 4 }"}).status, 0);
  const auto a = read_file_bytes(dir / "serial" / "u_000000.npy"), b = read_file_bytes(dir / "openmp" / "u_000000.npy");
  EXPECT_EQ(a, b);
  EXPECT_NE(a, read_file_bytes(dir / "other" / "u_000000.npy")) << "another seed must give another field";
  const auto values = io::read_npy(dir / "serial" / "u_000000.npy").data;
  double lo = 1e9, hi = -1e9;
  for (double x : values) lo = std::min(lo, x), hi = std::max(hi, x);
  EXPECT_GE(lo, 3.9 - 1e-6);
  EXPECT_LE(hi, 4.1 + 1e-6);
  EXPECT_GT(hi - lo, 0.15) << "uniform noise of amplitude 0.1 should span most of [-0.1, 0.1]";
}

TEST(RunOutputs, SeededNoiseRunsAgreeOnSerialAndOpenMPAfterStepping) {
  ScratchDir dir;
  const std::string text = turing_config(40, 32, 200);
  ASSERT_EQ(run_file(dir, text, "serial", {"--backend", "serial"}).status, 0);
  ASSERT_EQ(run_file(dir, text, "openmp", {"--backend", "openmp"}).status, 0);
  for (const char* f : {"u_000200.npy", "v_000200.npy"})
    EXPECT_EQ(read_file_bytes(dir / "serial" / f), read_file_bytes(dir / "openmp" / f)) << f;
  auto s = read_json(dir / "serial" / "summary.json"), o = read_json(dir / "openmp" / "summary.json");
  EXPECT_EQ(s["fields"], o["fields"]);
}

nlohmann::json run_compare(const ScratchDir& dir, const std::string& text) {
  write_file_bytes(dir / "cmp.toml", text);
  const Outcome o = run_pdex({"compare", dir.str("cmp.toml"), "--backends", "serial,openmp", "--out", dir.str("cmp")});
  EXPECT_EQ(o.status, 0) << o.output;
  EXPECT_TRUE(contains(o.output, "time ratio serial / openmp")) << o.output;
  return read_json(dir / "cmp" / "compare.json");
}

void expect_zero_differences(nlohmann::json j) {
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(j["runs"].size(), 2u);
  EXPECT_EQ(j["runs"][0]["backend"], "serial");
  EXPECT_EQ(j["runs"][1]["backend"], "openmp");
  EXPECT_GE(j["time_ratio"].get<double>(), 0.0);
  for (const char* f : {"u", "v"})
    for (const char* norm : {"l1", "l2", "linf", "relative"}) {
      ASSERT_TRUE(j["differences"][f].contains(norm)) << f << " " << norm;
      EXPECT_EQ(j["differences"][f][norm].get<double>(), 0.0) << f << " " << norm;
    }
}

TEST(Compare, WritesTimeRatioAndNormsPerFieldAndSerialEqualsOpenMP) {
  ScratchDir dir;
  auto j = run_compare(dir, turing_config(40, 32, 200));
  expect_zero_differences(j);
  EXPECT_EQ(j["model"], "turing");
  EXPECT_EQ(j["steps"], 200);
  EXPECT_EQ(j["precision"], "f32");
}

TEST(Compare, GrayScottSerialEqualsOpenMP) {
  ScratchDir dir;
  expect_zero_differences(run_compare(dir, gray_scott_config("", 48, 40, 200)));
}

TEST(List, ShowsAllFiveModelsWithTheirParameters) {
  const Outcome o = run_pdex({"list"});
  ASSERT_EQ(o.status, 0) << o.output;
  for (const char* m : {"turing", "gray_scott", "fitzhugh_nagumo", "brusselator", "schnakenberg"})
    EXPECT_TRUE(contains(o.output, std::string("  ") + m + " ")) << m << " missing from:\n" << o.output;
  for (const char* p : {"alpha", "beta", "F ", "eps", "gamma", "Du", "Dv"}) EXPECT_TRUE(contains(o.output, p)) << p;
  EXPECT_TRUE(contains(o.output, "Backends:"));
  // A build whose CUDA kernels were compiled only as a check (CI's) says so where users look for backends.
#ifdef PDEX_CUDA_FAST_COMPILE
  EXPECT_TRUE(contains(o.output, "compiled unoptimized")) << o.output;
#else
  EXPECT_FALSE(contains(o.output, "compiled unoptimized")) << o.output;
#endif
}

}  // namespace
}  // namespace pdex::app_testing
