// Checkpoints and restarts (docs/outputs.md): a run of 2N steps and a run of N steps continued from its
// checkpoint for N more give bitwise the same fields, on every family and scheme and every backend
// present; so does a run extended from its final checkpoint. A checkpoint of another configuration is
// refused, naming what changed, unless forced; old checkpoints are pruned; Ctrl-C leaves a checkpoint.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "app_test_support.hpp"
#include "pdex/app/checkpoint.hpp"
#include "pdex/app/run_config.hpp"
#include "pdex/app/simulation.hpp"
#include "pdex/io/npy.hpp"
#include "support/field_files_read.hpp"

namespace pdex::app_testing {
namespace {

struct Case {
  std::string example;
  std::vector<std::string> sets;
  std::string length_key;      // time.steps or time.t_end
  std::string half, full;      // its values for N and 2N
  std::string every;           // output.checkpoint_every: an integer (steps) or a float (simulated time)
};

// Every family and scheme with state beyond its fields: theta's previous level, Merson's step control,
// the wave's previous level and random drops, the chemotaxis solves' warm starts, a text model's clock.
const std::vector<Case> cases = {
    {"gray_scott_spots", {"grid.nx=40", "grid.ny=32"}, "time.steps", "60", "120", "60"},
    {"turing_spots_cn", {"grid.nx=32", "grid.ny=32", "solver.method=\"multigrid\""}, "time.steps", "6", "12", "6"},
    {"heat_disc", {"grid.nx=32", "grid.ny=32"}, "time.steps", "4", "8", "4"},
    {"keller_segel_aggregation", {"grid.nx=32", "grid.ny=32"}, "time.steps", "20", "40", "20"},
    {"chemotaxis_seed002_fig1_32", {"output.every=0"}, "time.t_end", "5e-6", "1e-5", "20"},
    {"curvature_mcf_figure1", {"grid.nx=32", "grid.ny=32", "output.times=[0.0005]"}, "time.t_end", "0.001", "0.002", "0.001"},
    {"curvature_willmore_figure2", {"grid.nx=24", "grid.ny=24", "output.times=[1e-5]"}, "time.t_end", "2e-5", "4e-5", "2e-5"},
    {"equations_gray_scott_ramp", {"grid.nx=40", "grid.ny=16", "output.every=0"}, "time.steps", "30", "60", "30"},
    {"equations_keller_segel", {"grid.nx=32", "grid.ny=32", "time.scheme=\"theta\"", "output.every=0"}, "time.steps", "10", "20", "10"},
    {"equations_heated_plate", {"grid.nx=32", "grid.ny=32", "grid.dx=0.03125", "output.every=0"}, "time.t_end", "0.005", "0.01", "5"},
    {"wave_drops", {"grid.nx=32", "grid.ny=32", "model.drops.every=3"}, "time.steps", "10", "20", "10"},
};

std::vector<Backend> backends() {
  std::vector<Backend> out{Backend::serial, Backend::openmp};
  if (backend_available(Backend::cuda)) out.push_back(Backend::cuda);
  return out;
}

fs::path example(const std::string& name) { return fs::path(PDEX_SOURCE_DIR) / "examples" / (name + ".toml"); }

RunConfig load(const fs::path& file, std::vector<std::string> sets, Backend b, const fs::path& out) {
  CliOverrides cli;
  sets.push_back("run.progress=false");
  sets.push_back("output.formats=[\"npy\"]");
  cli.sets = sets;
  cli.backend = std::string(backend_name(b));
  cli.out_dir = out.string();
  return load_run_config(file.string(), cli);
}

// The final values of every field of one run.
std::vector<std::vector<double>> run(const RunConfig& rc, const RestartFrom& from = {}) {
  RunOptions o;
  o.keep_final_values = true;
  o.restart = from;
  return run_simulation(rc, o).final_values;
}

std::vector<fs::path> checkpoints(const fs::path& out) {
  std::vector<fs::path> found;
  for (const auto& e : fs::directory_iterator(out / "checkpoints")) found.push_back(e.path());
  std::sort(found.begin(), found.end());
  return found;
}

std::vector<std::string> with(std::vector<std::string> sets, const std::string& key, const std::string& value) {
  sets.push_back(key + "=" + value);
  return sets;
}

TEST(Checkpoint, ARestartedRunEqualsTheRunStraightThroughBitwise) {
  for (const Case& c : cases)
    for (Backend b : backends()) {
      SCOPED_TRACE(c.example + " " + c.sets.back() + " on " + std::string(backend_name(b)));
      ScratchDir dir;
      const auto sets = with(with(c.sets, c.length_key, c.full), "output.checkpoint_every", c.every);
      const auto straight = run(load(example(c.example), sets, b, dir / "a"));
      const std::vector<fs::path> saved = checkpoints(dir / "a");
      ASSERT_EQ(saved.size(), 2u) << "one halfway, one at the end";
      const auto resumed = run(load(example(c.example), sets, b, dir / "b"), {saved[0].string(), false});
      ASSERT_EQ(resumed.size(), straight.size());
      for (std::size_t f = 0; f < straight.size(); ++f) EXPECT_EQ(resumed[f], straight[f]) << "field " << f;
      // A shorter run extended from its final checkpoint.
      const auto half = with(with(c.sets, c.length_key, c.half), "output.checkpoint_every", c.every);
      run(load(example(c.example), half, b, dir / "c"));
      const auto extended = run(load(example(c.example), sets, b, dir / "d"), {checkpoints(dir / "c").back().string(), false});
      for (std::size_t f = 0; f < straight.size(); ++f) EXPECT_EQ(extended[f], straight[f]) << "extended, field " << f;
    }
}

// The fields' float rows (padded, copied from the device on CUDA) into the checkpoint as they are.
TEST(Checkpoint, ARunInFloat32ContinuesBitwise) {
  for (Backend b : backends()) {
    SCOPED_TRACE(backend_name(b));
    ScratchDir dir;
    const std::vector<std::string> sets{"grid.nx=40", "grid.ny=32", "time.steps=80", "output.checkpoint_every=40", "run.precision=\"f32\""};
    const auto straight = run(load(example("gray_scott_spots"), sets, b, dir / "a"));
    EXPECT_EQ(npy_descr(checkpoints(dir / "a")[0] / "field_u.npy"), "<f4");
    EXPECT_EQ(io::read_npy(checkpoints(dir / "a")[0] / "field_u.npy").shape, (std::vector<std::size_t>{32, 40}));
    const auto resumed = run(load(example("gray_scott_spots"), sets, b, dir / "b"), {checkpoints(dir / "a")[0].string(), false});
    EXPECT_EQ(resumed, straight);
  }
}

// A 3D run's checkpoint holds its volumes, (nz, ny, nx), and the run continues from it bit for bit.
TEST(Checkpoint, AThreeDimensionalRunContinuesBitwise) {
  for (Backend b : backends()) {
    SCOPED_TRACE(backend_name(b));
    ScratchDir dir;
    const std::vector<std::string> sets{"grid.nx=20", "grid.ny=16", "grid.nz=6", "time.steps=40", "output.checkpoint_every=20"};
    const auto straight = run(load(example("gray_scott_3d"), sets, b, dir / "a"));
    EXPECT_EQ(io::read_npy(checkpoints(dir / "a")[0] / "field_u.npy").shape, (std::vector<std::size_t>{6, 16, 20}));
    const auto resumed = run(load(example("gray_scott_3d"), sets, b, dir / "b"), {checkpoints(dir / "a")[0].string(), false});
    EXPECT_EQ(resumed, straight);
  }
}

TEST(Checkpoint, OnlyTheNewestAreKeptAndTheSummaryNamesTheLast) {
  ScratchDir dir;
  const RunConfig rc = load(example("gray_scott_spots"), {"grid.nx=16", "grid.ny=16", "time.steps=50", "output.checkpoint_every=10", "output.checkpoint_keep=3"},
                            Backend::serial, dir / "a");
  run(rc);
  const auto saved = checkpoints(dir / "a");
  ASSERT_EQ(saved.size(), 3u);
  EXPECT_EQ(saved[0].filename(), "step_0000000030");
  EXPECT_EQ(saved[2].filename(), "step_0000000050");
  const auto sum = read_json(dir / "a" / "summary.json");
  EXPECT_EQ(sum["last_checkpoint"], saved[2].string());
  const auto st = read_json(saved[2] / "state.json");
  EXPECT_EQ(st["step"], 50);
  EXPECT_EQ(st["fields"], nlohmann::json({"u", "v"}));
}

TEST(Checkpoint, AnotherConfigurationIsRefusedNamingWhatChangedUnlessForced) {
  ScratchDir dir;
  const std::vector<std::string> sets{"grid.nx=16", "grid.ny=16", "time.steps=20", "output.checkpoint_every=10"};
  run(load(example("gray_scott_spots"), sets, Backend::serial, dir / "a"));
  const std::string first = checkpoints(dir / "a")[0].string();
  const RunConfig other = load(example("gray_scott_spots"), with(sets, "model.params.F", "0.05"), Backend::serial, dir / "b");
  try {
    run(other, {first, false});
    FAIL() << "a checkpoint of another configuration was continued";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("model.params.F was"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("--force"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(run(other, {first, true}));
  EXPECT_EQ(read_json(dir / "b" / "summary.json")["restarted_from"]["forced"], true);
  // Another length, backend or output folder is the same run continued.
  EXPECT_NO_THROW(run(load(example("gray_scott_spots"), with(sets, "time.steps", "30"), Backend::openmp, dir / "c"), {first, false}));
  EXPECT_THROW(run(load(example("gray_scott_spots"), with(sets, "time.steps", "5"), Backend::serial, dir / "d"), {first, false}), InputError)
      << "a checkpoint beyond the run's end";
  EXPECT_THROW(run(load(example("gray_scott_spots"), sets, Backend::serial, dir / "e"), {(dir / "nowhere").string(), false}), InputError);
}

TEST(Checkpoint, BadCheckpointKeysAreRefused) {
  ScratchDir dir;
  for (const char* bad : {"output.checkpoint_every=0", "output.checkpoint_every=-2.5", "output.checkpoint_every=\"often\"", "output.checkpoint_keep=0"})
    EXPECT_THROW(load(example("gray_scott_spots"), {bad}, Backend::serial, dir / "a"), InputError) << bad;
}

// A checkpoint that does not fit (a file-size limit stands for a full disk) stops the run naming it; the
// last good one stays, and no partial folder.
TEST(Checkpoint, OneThatDoesNotFitStopsTheRunAndKeepsTheLastGoodOne) {
  ScratchDir dir;
  const RunConfig rc = load(example("gray_scott_spots"), {"grid.nx=64", "grid.ny=64", "time.steps=20", "run.precision=\"f64\""},
                            Backend::serial, dir / "a");
  auto s = rc.setup->make_stepper(Backend::serial, Precision::f64);
  CopyBuffers buffers;
  const std::string good = write_checkpoint(rc, *s, {10, 10.0, nlohmann::json::object()}, buffers);
  std::signal(SIGXFSZ, SIG_IGN);  // the write then fails with EFBIG instead of stopping the process
  rlimit saved{};
  ::getrlimit(RLIMIT_FSIZE, &saved);
  rlimit tight = saved;
  tight.rlim_cur = 4096;  // a field is 32 KiB
  ::setrlimit(RLIMIT_FSIZE, &tight);
  std::string message;
  try {
    write_checkpoint(rc, *s, {20, 20.0, nlohmann::json::object()}, buffers);
  } catch (const Error& e) {
    message = e.what();
  }
  ::setrlimit(RLIMIT_FSIZE, &saved);
  std::signal(SIGXFSZ, SIG_DFL);
  EXPECT_NE(message.find("cannot write the checkpoint"), std::string::npos) << message;
  EXPECT_NE(message.find("step_0000000020"), std::string::npos) << message;
  EXPECT_EQ(checkpoints(dir / "a"), std::vector<fs::path>{fs::path(good)}) << "the good one stays, no partial folder";
}

// SIGKILL while outputs are written: every output file present is whole (what the writer had not renamed
// yet is a .partial file), and the next run into the folder removes the partial files of the dead run.
TEST(Checkpoint, AKilledRunLeavesOnlyWholeFiles) {
  ScratchDir dir;
  std::string line = shell_quote(PDEX_EXE);
  for (const std::string& a : std::vector<std::string>{"run", example("gray_scott_spots").string(), "--backend", "serial", "--out", (dir / "a").string(), "--set",
                              "grid.nx=128", "--set", "grid.ny=128", "--set", "time.steps=100000", "--set", "output.every=5", "--set",
                              "output.formats=[\"npy\", \"vtk\", \"hdf5\"]", "--set", "run.progress=false"})
    line += " " + shell_quote(a);
  const std::string tenth = shell_quote((dir / "a" / "fields_000050.vti").string());
  run_pdex({}, "(" + line + " >/dev/null 2>&1 & pid=$!; n=0; while [ ! -e " + tenth + " ] && [ $n -lt 1200 ]; do sleep 0.05; n=$((n+1)); done; "
               "kill -KILL $pid; wait $pid) ; true #");
  int whole = 0, partial = 0;
  for (const auto& e : fs::directory_iterator(dir / "a")) {
    const std::string name = e.path().filename().string();
    if (name.find(".partial") != std::string::npos) {
      ++partial;
      continue;
    }
    if (e.path().extension() == ".npy") {
      EXPECT_EQ(io::read_npy(e.path()).data.size(), 128u * 128u) << name;
    } else if (e.path().extension() == ".vti") {
      const auto vti = pdex::testing::read_vti(e.path());
      EXPECT_EQ(vti.appended.size(), 2 * (8 + 128 * 128 * 4) + std::string("\n  </AppendedData>\n</VTKFile>\n").size()) << name;
    }
    ++whole;
  }
  EXPECT_GE(whole, 30) << "outputs of 10 steps";
  EXPECT_GE(partial, 1) << "the HDF5 file at least is still partial";
  const Outcome next = run_pdex({"run", example("gray_scott_spots").string(), "--backend", "serial", "--out", (dir / "a").string(),
                                 "--set", "grid.nx=16", "--set", "grid.ny=16", "--set", "time.steps=1", "--set", "run.progress=false"});
  ASSERT_EQ(next.status, 0) << next.output;
  for (const auto& e : fs::directory_iterator(dir / "a"))
    EXPECT_EQ(e.path().filename().string().find(".partial"), std::string::npos) << e.path() << " left by the killed run";
}

// The process as a user runs it: SIGINT mid-run writes a checkpoint and the summary, exits with 130, and
// `pdex run --restart` finishes the run with the fields of a run that was never stopped.
TEST(Checkpoint, CtrlCLeavesACheckpointThatFinishesTheRun) {
  ScratchDir dir;
  const std::string cfg = example("gray_scott_spots").string();
  const std::vector<std::string> common{"--set", "grid.nx=32", "--set", "grid.ny=32", "--set", "time.steps=40000000", "--set",
                                        "output.formats=[\"npy\"]", "--set", "time.check_every=50", "--set", "run.progress=false"};
  auto args = [&](const std::string& out, std::vector<std::string> extra) {
    std::vector<std::string> a{"run", cfg, "--backend", "serial", "--out", (dir / out).string()};
    a.insert(a.end(), common.begin(), common.end());
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  };
  // Started in the background and stopped by SIGINT once it is stepping (its first output written).
  std::string line = shell_quote(PDEX_EXE);
  for (const auto& a : args("a", {})) line += " " + shell_quote(a);
  const std::string first = shell_quote((dir / "a" / "u_00000000.npy").string());
  const Outcome stopped = run_pdex({}, "(" + line + " 2>&1 & pid=$!; n=0; while [ ! -e " + first + " ] && [ $n -lt 1200 ]; do sleep 0.05; n=$((n+1)); done; sleep 0.3; "
                                       "kill -INT $pid; wait $pid; echo exit=$?) ; true #");
  EXPECT_NE(stopped.output.find("exit=130"), std::string::npos) << stopped.output;
  EXPECT_NE(stopped.output.find("--restart"), std::string::npos) << stopped.output;
  const auto sum = read_json(dir / "a" / "summary.json");
  ASSERT_EQ(sum["status"], "interrupted") << stopped.output;
  const std::string cp = sum["last_checkpoint"];
  const int64_t at = sum["steps"];
  ASSERT_GT(at, 0);
  // The stopped run continued to `at` + 100 steps, against a run straight to it.
  const std::string end = std::to_string(at + 100);
  const Outcome resumed = run_pdex(args("b", {"--set", "time.steps=" + end, "--restart", cp}));
  ASSERT_EQ(resumed.status, 0) << resumed.output;
  const Outcome straight = run_pdex(args("c", {"--set", "time.steps=" + end}));
  ASSERT_EQ(straight.status, 0) << straight.output;
  for (const char* f : {"u", "v"}) {
    const std::string name = std::string(f) + "_" + std::string(6 > end.size() ? 6 - end.size() : 0, '0') + end + ".npy";
    EXPECT_EQ(read_file_bytes(dir / "b" / name), read_file_bytes(dir / "c" / name)) << name;
  }
  for (const auto& e : fs::recursive_directory_iterator(dir.path()))
    EXPECT_EQ(e.path().string().find(".partial"), std::string::npos) << e.path();
}

}  // namespace
}  // namespace pdex::app_testing
