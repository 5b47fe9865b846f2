// The explorer's steered run without the network: commands validated and refused without harm, a
// parameter change carrying the state over, the brush, a blow-up undone, frames that decode to the
// values within their quantization step, and "save as configuration" reproduced by `pdex run`.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "pdex/app/simulation.hpp"
#include "pdex/core/error.hpp"
#include "pdex/io/npy.hpp"
#include "pdex/io/png_writer.hpp"
#include "pdex/serve/frame.hpp"
#include "pdex/serve/live_run.hpp"
#include "support/scratch_dir.hpp"

namespace pdex::serve {
namespace {

namespace fs = std::filesystem;
using pdex::testing::ScratchDir;

// An example on a 48x40 grid, in f64, writing into `dir`.
LiveRun example_run(const ScratchDir& dir, const std::string& example, const std::string& backend = "serial") {
  CliOverrides cli;
  cli.sets = {"grid.nx=48", "grid.ny=40"};
  cli.backend = backend;
  cli.precision = "f64";
  cli.out_dir = dir.path().string();
  return LiveRun((fs::path(PDEX_SOURCE_DIR) / "examples" / example).string(), cli);
}

LiveRun small_run(const ScratchDir& dir) { return example_run(dir, "gray_scott_spots.toml"); }

nlohmann::json cmd(LiveRun& run, const std::string& text) { return run.command(nlohmann::json::parse(text)); }

// Ticks until a whole frame is taken: a tick returns after about 50 ms even mid-frame (a slow device).
void whole_frame(LiveRun& run) {
  const uint64_t version = run.version();
  while (run.version() == version && run.tick()) {
  }
}

// A frame's bytes decode to the values within half a quantization step.
void expect_frame_of(const Snapshot& s, const std::vector<std::vector<double>>& values) {
  const std::string bytes = encode_frame(s);
  uint32_t n = 0;
  std::memcpy(&n, bytes.data(), 4);
  const nlohmann::json head = nlohmann::json::parse(bytes.substr(4, n));
  const std::size_t start = (4 + n + 3) / 4 * 4, cells = std::size_t(s.nx * s.ny);
  ASSERT_EQ(bytes.size(), start + 2 * cells * values.size());
  for (std::size_t f = 0; f < values.size(); ++f) {
    const double lo = head["fields"][f]["min"], hi = head["fields"][f]["max"];
    EXPECT_LT(lo, hi);
    for (std::size_t k = 0; k < cells; ++k) {
      uint16_t q = 0;
      std::memcpy(&q, bytes.data() + start + 2 * (f * cells + k), 2);
      ASSERT_NEAR(lo + q * (hi - lo) / quantized_levels, values[f][k], 0.5 * (hi - lo) / quantized_levels * (1 + 1e-9));
    }
  }
}

TEST(LiveRun, BadMessagesAreRefusedAndChangeNothing) {
  ScratchDir dir;
  LiveRun run = small_run(dir);
  run.tick();
  const Snapshot before = run.snapshot();
  const auto before_values = run.values();
  for (const char* bad : {R"([1, 2])", R"({"type": 3})", R"({"type": "fly"})", R"({"type": "steps_per_frame", "value": 0})",
                          R"({"type": "steps_per_frame", "value": 2.5})", R"({"type": "paint", "field": "w", "x": 1, "y": 1, "radius": 2, "value": 1})",
                          R"({"type": "paint", "field": "u", "x": 1e9, "y": 1, "radius": 2, "value": 1})",
                          R"({"type": "set", "key": "model.params.nope", "value": 1})", R"({"type": "set", "key": "grid.nx", "value": 64})",
                          R"({"type": "set", "key": "model.params.F", "value": [1]})", R"({"type": "save", "what": "../../etc"})",
                          R"({"type": "set", "key": "time.dt", "value": 100})"}) {
    SCOPED_TRACE(bad);
    EXPECT_THROW(cmd(run, bad), InputError);
  }
  EXPECT_EQ(run.snapshot().version, before.version);
  EXPECT_EQ(run.values(), before_values);
}

TEST(LiveRun, AParameterChangeKeepsTheStateAndTheStep) {
  ScratchDir dir;
  LiveRun run = small_run(dir);
  run.tick(), run.tick();
  const Snapshot before = run.snapshot();
  const auto before_values = run.values();
  const nlohmann::json r = cmd(run, R"({"type": "set", "key": "model.params.F", "value": 0.031})");
  EXPECT_TRUE(r["ok"]);
  EXPECT_DOUBLE_EQ(r["state"]["params"]["F"].get<double>(), 0.031);
  const Snapshot after = run.snapshot();
  EXPECT_EQ(after.step, before.step);
  EXPECT_EQ(run.values(), before_values) << "the state carries over exactly";
  EXPECT_GT(after.version, before.version);
  const std::vector<nlohmann::json> notices = run.take_notices();
  ASSERT_EQ(notices.size(), 1u);
  EXPECT_EQ(notices[0]["type"], "describe") << "every page hears of the change";
  cmd(run, R"({"type": "set", "key": "model.params.F", "value": null})");
  EXPECT_DOUBLE_EQ(run.state()["params"]["F"].get<double>(), run.config().input["model"]["params"]["F"].get<double>());
}

// The same on the GPU, for a built-in and a text model (NVRTC): the state read back, carried over
// exactly, painted, and stepped on.
TEST(LiveRun, OnTheGpuChangesKeepTheStateAndTheBrushPaints) {
  if (!backend_available(Backend::cuda)) GTEST_SKIP() << "no CUDA device: " << backend_unavailable_reason(Backend::cuda);
  for (const char* example : {"gray_scott_spots.toml", "equations_gray_scott.toml"}) {
    SCOPED_TRACE(example);
    ScratchDir dir;
    LiveRun run = example_run(dir, example, "cuda");
    whole_frame(run);
    const auto before = run.values();
    cmd(run, R"({"type": "set", "key": "model.params.F", "value": 0.031})");
    EXPECT_EQ(run.values(), before);
    EXPECT_EQ(cmd(run, R"({"type": "paint", "field": "v", "x": 10, "y": 20, "radius": 3, "value": 0.75})")["cells"], 32);
    EXPECT_EQ(run.values()[1][std::size_t(20 * 48 + 10)], 0.75);
    whole_frame(run);
    EXPECT_EQ(run.snapshot().step, 20);
    expect_frame_of(run.snapshot(), run.values());  // quantized on the GPU
  }
}

// A 3D grid: a frame is the plane shown, on the volume's colour scale; the page chooses the plane, the
// brush paints a ball about the plane's middle, and a saved picture is the plane shown.
void expect_a_3d_run_shows_and_paints_planes(const std::string& backend) {
  SCOPED_TRACE(backend);
  ScratchDir dir;
  CliOverrides cli;
  cli.sets = {"grid.nx=24", "grid.ny=20", "grid.nz=6", "time.steps=100"};
  cli.backend = backend;
  cli.precision = "f64";
  cli.out_dir = dir.path().string();
  LiveRun run((fs::path(PDEX_SOURCE_DIR) / "examples" / "gray_scott_3d.toml").string(), cli);
  EXPECT_EQ(run.describe()["nz"], 6);
  const std::size_t plane = 24 * 20;
  const auto planes_of = [&](int k) {
    std::vector<std::vector<double>> out;
    for (const std::vector<double>& v : run.values())
      out.emplace_back(v.begin() + std::ptrdiff_t(k * plane), v.begin() + std::ptrdiff_t((k + 1) * plane));
    return out;
  };
  whole_frame(run);
  Snapshot s = run.snapshot();
  EXPECT_EQ(s.plane, 3) << "the middle plane first";
  EXPECT_EQ(s.nx * s.ny, int(plane));
  expect_frame_of(s, planes_of(3));
  EXPECT_EQ(cmd(run, R"({"type": "plane", "value": 2})")["state"]["plane"], 2);
  s = run.snapshot();
  EXPECT_EQ(s.plane, 2);
  expect_frame_of(s, planes_of(2));
  EXPECT_THROW(cmd(run, R"({"type": "plane", "value": 6})"), InputError);
  EXPECT_EQ(cmd(run, R"({"type": "paint", "field": "v", "x": 10.5, "y": 12.5, "radius": 1.5, "value": 0.75})")["cells"], 19)
      << "the cells whose centres lie within 1.5 of a cell's centre: itself, 6 across faces, 12 across edges";
  const std::vector<double> v = run.values()[1];
  const auto at = [&](int i, int j, int k) { return v[std::size_t(k) * plane + std::size_t(j * 24 + i)]; };
  EXPECT_EQ(at(10, 12, 1), 0.75);
  EXPECT_EQ(at(11, 13, 2), 0.75);
  EXPECT_NE(at(11, 13, 1), 0.75) << "a corner neighbour lies outside the ball";
  EXPECT_NE(at(10, 12, 4), 0.75) << "so does the plane two away";
  const nlohmann::json saved = cmd(run, R"({"type": "save", "what": "png", "field": "v"})");
  int w = 0, h = 0;
  io::read_png_rgb(saved["files"][0].get<std::string>(), w, h);
  EXPECT_EQ(w * h, int(plane));
}

TEST(LiveRun, A3dRunShowsAndPaintsItsPlanes) {
  expect_a_3d_run_shows_and_paints_planes("serial");
  ScratchDir dir;
  LiveRun flat = small_run(dir);
  EXPECT_THROW(cmd(flat, R"({"type": "plane", "value": 0})"), InputError);
  EXPECT_EQ(flat.snapshot().plane, -1);
}

TEST(LiveRun, OnTheGpuA3dRunShowsAndPaintsItsPlanes) {
  if (!backend_available(Backend::cuda)) GTEST_SKIP() << "no CUDA device: " << backend_unavailable_reason(Backend::cuda);
  expect_a_3d_run_shows_and_paints_planes("cuda");
}

// A parameter that varies per cell is scaled as a whole (its slider in the page).
TEST(LiveRun, AVaryingParameterIsScaled) {
  ScratchDir dir;
  LiveRun run = example_run(dir, "turing_spots_demo.toml");
  const double mean = run.state()["params"]["alpha"]["mean"];
  cmd(run, R"({"type": "set", "key": "model.params.alpha.scale", "value": 1.5})");
  EXPECT_NEAR(run.state()["params"]["alpha"]["mean"].get<double>(), 1.5 * mean, 1e-12 * mean);
  const nlohmann::json params = run.describe()["params"];
  const auto alpha = std::find_if(params.begin(), params.end(), [](const nlohmann::json& p) { return p["name"] == "alpha"; });
  ASSERT_NE(alpha, params.end());
  EXPECT_EQ((*alpha)["scale"], 1.5);
}

// A text model's equations edited while it runs: recompiled, the state carried over; a parse error is
// refused with where it is, and the old equations go on.
TEST(LiveRun, EquationsAreEditedWhileRunning) {
  ScratchDir dir;
  LiveRun run = example_run(dir, "equations_gray_scott.toml");
  run.tick();
  const Snapshot before = run.snapshot();
  const auto before_values = run.values();
  try {
    cmd(run, R"({"type": "set", "key": "model.equations.v", "value": "Dv*lap(v) + r - (F + k)*"})");
    ADD_FAILURE() << "a broken equation was taken";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("model.equations.v"), std::string::npos) << e.what();
  }
  EXPECT_EQ(run.snapshot().version, before.version);
  cmd(run, R"({"type": "set", "key": "model.equations.v", "value": "Dv*lap(v) + r - (F + k)*v + 0.001"})");
  const auto after = run.values();
  EXPECT_EQ(after, before_values);
  EXPECT_EQ(run.describe()["equations"]["v"], "Dv*lap(v) + r - (F + k)*v + 0.001");
  run.tick();
  EXPECT_NE(run.values(), after);
}

TEST(LiveRun, TheBrushSetsTheDiscOfCells) {
  ScratchDir dir;
  LiveRun run = small_run(dir);
  const nlohmann::json r = cmd(run, R"({"type": "paint", "field": "v", "x": 10, "y": 20, "radius": 3, "value": 0.75})");
  EXPECT_EQ(r["cells"], 32);  // the cell centres within 3 of (10, 20)
  const std::vector<double> v = run.values()[1];
  EXPECT_EQ(v[std::size_t(20 * 48 + 10)], 0.75);
  EXPECT_EQ(v[std::size_t(19 * 48 + 9)], 0.75);
  EXPECT_NE(v[std::size_t(20 * 48 + 14)], 0.75);
}

// A frame of many steps is taken over several ticks, so that a pause gets in between; the picture
// changes only when the frame is complete.
TEST(LiveRun, ALongFrameLetsCommandsIn) {
  ScratchDir dir;
  LiveRun run = small_run(dir);
  cmd(run, R"({"type": "steps_per_frame", "value": 1000000})");
  const uint64_t version = run.version();
  run.tick();
  const int64_t step = run.state()["step"];
  EXPECT_GT(step, 0);
  EXPECT_LT(step, 1000000);
  EXPECT_EQ(run.version(), version);
  cmd(run, R"({"type": "pause"})");
  EXPECT_FALSE(run.tick());
  EXPECT_EQ(run.state()["step"], step);
}

TEST(LiveRun, ABlowUpIsUndoneAndPauses) {
  ScratchDir dir;
  LiveRun run = small_run(dir);
  cmd(run, R"({"type": "set", "changes": {"time.dt": 50.0, "time.force": true}})");
  cmd(run, R"({"type": "steps_per_frame", "value": 400})");
  const auto before = run.values();
  for (int k = 0; k < 100 && run.playing(); ++k) {  // the guard looks every 0.1 s
    run.tick();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_FALSE(run.playing());
  const nlohmann::json n = run.take_notices().back();
  EXPECT_EQ(n["type"], "error");
  EXPECT_NE(n["error"].get<std::string>().find("lower time.dt"), std::string::npos) << n.dump();
  EXPECT_EQ(run.values(), before);
  EXPECT_EQ(run.snapshot().step, 0);
}

TEST(LiveRun, FramesDecodeToTheValuesWithinAQuantizationStep) {
  ScratchDir dir;
  LiveRun run = small_run(dir);
  run.tick();
  expect_frame_of(run.snapshot(), run.values());
}

// What the explorer shows, saved as a configuration: `pdex run` of it, for as many steps as the
// explorer then takes, ends where the explorer does (the same operations: bitwise).
TEST(LiveRun, SaveAsConfigurationIsReproducedByARun) {
  ScratchDir dir;
  LiveRun run = small_run(dir);
  cmd(run, R"({"type": "set", "key": "model.params.k", "value": 0.061})");
  run.tick();
  cmd(run, R"({"type": "paint", "field": "v", "x": 30, "y": 12, "radius": 4, "value": 0.5})");
  const nlohmann::json saved = cmd(run, R"({"type": "save", "what": "config"})");
  const std::string config = saved["config"];
  EXPECT_TRUE(fs::path(config).string().starts_with(dir.path().string())) << "saves stay inside the output folder";
  for (int k = 0; k < 3; ++k) run.tick();
  const Snapshot live = run.snapshot();
  const auto live_values = run.values();

  CliOverrides cli;
  cli.sets = {"time.steps=30"};
  cli.out_dir = (dir.path() / "rerun").string();
  const RunConfig rc = load_run_config(config, cli);
  EXPECT_EQ(rc.backend, Backend::serial);
  EXPECT_EQ(rc.precision, Precision::f64);
  const RunResult res = run_simulation(rc, final_values_only());
  ASSERT_EQ(live.step - 10, 30);
  EXPECT_EQ(res.final_values, live_values);
}

}  // namespace
}  // namespace pdex::serve
