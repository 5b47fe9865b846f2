// Every bad input is refused before any stepping, with a non-zero exit status and one message that
// names the file, the key and what was expected (DESIGN principle 9; docs/config.md, "Errors").
// These tests run the pdex executable as a user does.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <string>
#include <vector>

#include "app_test_support.hpp"
#include "pdex/io/npy.hpp"

namespace pdex::app_testing {
namespace {

constexpr int input_error_status = 2;  // main.cpp: InputError and other set-up errors

// Expects a refusal with exit status 2 whose message contains every one of `parts`.
void expect_refused(const Outcome& o, const std::vector<std::string>& parts) {
  EXPECT_EQ(o.status, input_error_status) << o.output;
  for (const auto& p : parts) EXPECT_TRUE(contains(o.output, p)) << "the message lacks \"" << p << "\":\n" << o.output;
  EXPECT_TRUE(contains(o.output, "pdex: error: ")) << o.output;
}

// Writes `text` as cfg.toml and runs it (outputs to a subfolder); returns the outcome.
Outcome run_config(const ScratchDir& dir, const std::string& text, const std::vector<std::string>& extra = {}) {
  write_file_bytes(dir / "cfg.toml", text);
  std::vector<std::string> args{"run", dir.str("cfg.toml"), "--out", dir.str("out")};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_pdex(args);
}

// A three-species model: its species are its fields, by name, in [initial], grid.boundary and the
// outputs, with every scheme.
TEST(ConfigErrors, ThreeSpeciesRunByName) {
  ScratchDir dir;
  const std::string text =
      "[model]\nname = \"may_leonard\"\n[grid]\nnx = 16\nny = 12\n"
      "boundary = { left = { u1 = \"neumann\", u2 = \"neumann\", u3 = { kind = \"dirichlet\", value = 0.5 } }, "
      "right = \"neumann\", bottom = \"neumann\", top = \"neumann\" }\n"
      "[time]\ndt = 0.1\nsteps = 20\n[initial]\nu1 = 0.2\nu2 = { value = 0.3, noise = 0.01 }\n"
      "[output]\nformats = [\"npy\"]\n[run]\nbackend = \"serial\"\nprogress = false\n";
  const Outcome ok = run_config(dir, text);
  ASSERT_EQ(ok.status, 0) << ok.output;
  for (const char* f : {"u1", "u2", "u3"}) EXPECT_TRUE(fs::exists(dir / "out" / (std::string(f) + "_000020.npy"))) << f;
  const auto s = read_json(dir / "out" / "summary.json");
  EXPECT_DOUBLE_EQ(s["config"]["grid"]["boundary"]["left"]["u3"]["value"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(s["config"]["initial"]["u1"].get<double>(), 0.2);
  EXPECT_DOUBLE_EQ(s["config"]["initial"]["u3"].get<double>(), 1.0 / 3) << "the model's default";
  EXPECT_NEAR(s["config"]["initial"]["u2"]["mean"].get<double>(), 0.3, 0.002) << "a noisy field's summary";
  const Outcome theta = run_config(dir, text, {"--set", "time.scheme=theta"});
  EXPECT_EQ(theta.status, 0) << theta.output;
  expect_refused(run_config(dir, text, {"--set", "initial.v=1.0"}), {"cfg.toml", "key 'initial.v'", "unknown key"});
}

TEST(ConfigErrors, UnknownKeyIsRefusedWithADidYouMeanHint) {
  ScratchDir dir;
  const Outcome o = run_config(dir, gray_scott_config("evrey = 5\n"));
  expect_refused(o, {"cfg.toml", "key 'output.evrey'", "unknown key", "did you mean 'output.every'?"});
  EXPECT_FALSE(fs::exists(dir / "out")) << "nothing may be written for a refused configuration";
}

TEST(ConfigErrors, UnknownModelParameterListsTheModelsParameters) {
  ScratchDir dir;
  const Outcome o = run_config(dir, gray_scott_config(), {"--set", "model.params.G=0.1"});
  expect_refused(o, {"cfg.toml", "key 'model.params.G'", "model 'gray_scott' has no such parameter; it has F, k, Du, Dv"});
}

TEST(ConfigErrors, StringWhereANumberIsExpectedNamesKeyLineAndTypes) {
  ScratchDir dir;
  std::string text = gray_scott_config();
  text.replace(text.find("dt = 1.0"), 8, "dt = \"fast\"");
  const Outcome o = run_config(dir, text);
  expect_refused(o, {"cfg.toml", "key 'time.dt' (line 8)", "expected a number, found a string"});
}

TEST(ConfigErrors, ReportsMissingRequiredValues) {
  struct Case {
    std::string remove, key, expected;
  };
  for (const Case& c : std::vector<Case>{{"name = \"gray_scott\"\n", "model.name", "missing; expected a string"},
                                         {"dt = 1.0\n", "time.dt", "missing; expected a number"},
                                         {"nx = 32\n", "grid.nx", "missing; expected an integer"}}) {
    ScratchDir dir;
    std::string text = gray_scott_config();
    text.erase(text.find(c.remove), c.remove.size());
    SCOPED_TRACE(c.key);
    expect_refused(run_config(dir, text), {"cfg.toml", "key '" + c.key + "'", c.expected});
  }
}

TEST(ConfigErrors, NonPositiveSizesAreRefused) {
  ScratchDir dir;
  write_file_bytes(dir / "cfg.toml", gray_scott_config());
  expect_refused(run_pdex({"run", dir.str("cfg.toml"), "--set", "grid.nx=0"}),
                 {"cfg.toml", "key 'grid.nx'", "expected a positive cell count up to 2^20, got 0"});
  expect_refused(run_pdex({"run", dir.str("cfg.toml"), "--set", "grid.dx=-1"}),
                 {"cfg.toml", "key 'grid.dx'", "expected a positive spacing"});
}

// A misspelt key that the run needs is named as a misspelling, not only as the missing key (the check for
// unknown keys comes after the whole file is read, too late for these).
TEST(ConfigErrors, AMisspeltRequiredKeyIsNamed) {
  ScratchDir dir;
  std::string text = gray_scott_config();
  text.replace(text.find("steps = 20"), 10, "step = 20");
  expect_refused(run_config(dir, text), {"key 'time'", "give exactly one of 'steps' and 't_end'",
                                         "'time.step' is not a key: did you mean 'time.steps'?"});
  text.replace(text.find("step = 20"), 9, "t_ned = 20.0");
  expect_refused(run_config(dir, text), {"'time.t_ned' is not a key: did you mean 'time.t_end'?"});
  const std::string equations = "[model]\nname = \"equations\"\npresett = \"gray_scott\"\n[grid]\nnx = 16\nny = 16\n"
                                "[time]\ndt = 1.0\nsteps = 2\n[run]\nbackend = \"serial\"\nprogress = false\n";
  expect_refused(run_config(dir, equations), {"key 'model.species'", "'model.presett' is not a key: did you mean 'model.preset'?"});
  text = gray_scott_config();
  text.replace(text.find("steps = 20"), 10, "dt_out = 20");  // two edits and more from either: no guess
  const Outcome o = run_config(dir, text);
  expect_refused(o, {"give exactly one of 'steps' and 't_end'"});
  EXPECT_FALSE(contains(o.output, "did you mean")) << o.output;
}

// run.steps_per_pass: 1 to 16, forward Euler's, not beside run.temporal_blocking = false; a count the
// run's schedules cannot take is refused before any step, naming what it can take.
TEST(ConfigErrors, StepsPerPassIsCheckedBeforeTheRun) {
  ScratchDir dir;
  write_file_bytes(dir / "cfg.toml", gray_scott_config());
  const auto with = [&](const std::vector<std::string>& sets) {
    std::vector<std::string> a{"run", dir.str("cfg.toml"), "--out", dir.str("out")};
    for (const std::string& s : sets) a.insert(a.end(), {"--set", s});
    return run_pdex(a);
  };
  expect_refused(with({"run.steps_per_pass=0"}), {"cfg.toml", "key 'run.steps_per_pass'", "expected 1 to 16"});
  expect_refused(with({"run.steps_per_pass=17"}), {"key 'run.steps_per_pass'", "expected 1 to 16"});
  expect_refused(with({"run.step_per_pass=4"}), {"key 'run.step_per_pass'", "did you mean 'run.steps_per_pass'?"});
  expect_refused(with({"run.rank=[1, 1]"}), {"key 'run.rank'", "did you mean 'run.ranks'?"});
  expect_refused(with({"run.steps_per_pass=4", "run.temporal_blocking=false"}), {"key 'run.steps_per_pass'", "set one of them"});
  expect_refused(with({"run.steps_per_pass=4", "time.scheme=\"theta\""}), {"key 'run.steps_per_pass'", "forward Euler's", "\"theta\""});
  const std::string y_sides = "grid.boundary={ left = \"periodic\", right = \"periodic\", bottom = { u = \"periodic\", v = \"neumann\" }, "
                              "top = { u = \"periodic\", v = \"neumann\" } }";  // the rows need one y axis for every species
  expect_refused(with({"run.steps_per_pass=4", y_sides}), {"run.steps_per_pass = 4", "on the CPU in f32, can go 1 step a pass"});
  EXPECT_FALSE(fs::exists(dir / "out" / "u_000000.npy")) << "refused before the first output";
  const Outcome ok = with({"run.steps_per_pass=3"});
  ASSERT_EQ(ok.status, 0) << ok.output;
  EXPECT_EQ(read_json(dir / "out" / "summary.json")["schedule"]["name"], "cache-blocked rows, 3 steps a pass");
}

// A text model goes several steps a pass where its program suits the schedule (equations_plan.hpp); on
// the CPU one whose operators nest (two rings of ghosts) is refused before the run, saying why.
TEST(ConfigErrors, StepsPerPassOfATextModel) {
  ScratchDir dir;
  write_file_bytes(dir / "cfg.toml", "[model]\nname = \"equations\"\npreset = \"gray_scott\"\n[grid]\nnx = 16\nny = 16\n"
                                     "[time]\ndt = 1.0\nsteps = 2\n[run]\nbackend = \"serial\"\nprogress = false\n");
  const auto with = [&](const std::vector<std::string>& sets) {
    std::vector<std::string> a{"run", dir.str("cfg.toml"), "--out", dir.str("out")};
    for (const std::string& s : sets) a.insert(a.end(), {"--set", s});
    return run_pdex(a);
  };
  const std::string nested = "model.equations.u=\"-lap(lap(u))*0.01 + Du*lap(u) - u*v^2 + F*(1 - u)\"";
  expect_refused(with({"run.steps_per_pass=4", nested}),
                 {"run.steps_per_pass = 4", "goes 1 step a pass on the CPU", "an operator is applied to an operator"});
  expect_refused(with({"run.steps_per_pass=4", "time.scheme=\"theta\""}), {"key 'run.steps_per_pass'", "forward Euler's", "\"theta\""});
  EXPECT_FALSE(fs::exists(dir / "out" / "u_000000.npy")) << "refused before the first output";
  for (const auto& [k, name] : {std::pair{1, "one pass a step, by cells"}, std::pair{4, "cache-blocked rows, 4 steps a pass"}}) {
    const Outcome ok = with({"run.steps_per_pass=" + std::to_string(k)});
    ASSERT_EQ(ok.status, 0) << ok.output;
    EXPECT_EQ(read_json(dir / "out" / "summary.json")["schedule"]["name"], name);
  }
}

// A grid that cannot fit must be refused at once, without trying to allocate it (the address space is
// capped at 4 GiB so that a regression fails here instead of exhausting the machine).
TEST(ConfigErrors, GridTooLargeForMemoryFailsFast) {
  ScratchDir dir;
  write_file_bytes(dir / "cfg.toml", gray_scott_config());
  const auto t0 = std::chrono::steady_clock::now();
  const Outcome o = run_pdex({"run", dir.str("cfg.toml"), "--set", "grid.nx=1000000", "--set", "grid.ny=1000000"},
                             "ulimit -v 4194304; ");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(o.status, input_error_status) << o.output;
  EXPECT_LT(seconds, 10.0) << o.output;
}

TEST(ConfigErrors, GridTooLargeForMemoryMessageNamesTheGridAndTheMemory) {
  ScratchDir dir;
  write_file_bytes(dir / "cfg.toml", gray_scott_config());
  const Outcome o = run_pdex({"run", dir.str("cfg.toml"), "--set", "grid.nx=1000000", "--set", "grid.ny=1000000"},
                             "ulimit -v 4194304; ");
  expect_refused(o, {"cfg.toml", "grid.nx", "GiB"});
}

TEST(ConfigErrors, MissingNpyFileIsNamed) {
  ScratchDir dir;
  const Outcome o = run_config(dir, gray_scott_config(), {"--set", "model.params.F={ file = \"feed.npy\" }"});
  expect_refused(o, {"cfg.toml", "key 'model.params.F.file'", "feed.npy", "cannot open file"});
}

TEST(ConfigErrors, MalformedNpyFilesAreRefused) {
  ScratchDir dir;
  write_file_bytes(dir / "bad.npy", "P5\n3 2\n255\nabcdef");
  expect_refused(run_config(dir, gray_scott_config(), {"--set", "initial.u={ file = \"bad.npy\" }"}),
                 {"cfg.toml", "key 'initial.u.file'", "bad.npy", "not a .npy file (bad magic)"});
  const std::vector<double> wrong(4 * 3, 1.0);
  io::write_npy(dir / "wrong.npy", wrong.data(), {4, 3});
  expect_refused(run_config(dir, gray_scott_config(), {"--set", "initial.v={ file = \"wrong.npy\" }"}),
                 {"cfg.toml", "key 'initial.v.file'", "has shape (4, 3); expected (24, 32)", "[y, x]"});
}

// A grid beyond this machine's memory (2^20 cells a side: far beyond any) is refused before anything of
// its size is allocated, with what it would need.
TEST(ConfigErrors, AGridBeyondMemoryIsRefusedBeforeAllocating) {
  ScratchDir dir;
  const Outcome o = run_config(dir, gray_scott_config(), {"--set", "grid.nx=1048576", "--set", "grid.ny=1048576", "--set", "grid.nz=1048576"});
  expect_refused(o, {"cfg.toml", "key 'grid.nx'", "1048576 x 1048576 x 1048576 grid needs about", "but this machine has"});
}

TEST(ConfigErrors, PeriodicOnOneSideOnlyIsRefused) {
  ScratchDir dir;
  const Outcome o = run_config(dir, gray_scott_config(),
                               {"--set", "grid.boundary={ left = \"periodic\", right = \"neumann\", bottom = \"periodic\", top = \"periodic\" }"});
  expect_refused(o, {"cfg.toml", "key 'grid.boundary'", "periodic sides come in pairs: left and right"});
}

TEST(ConfigErrors, UnknownModelListsTheModels) {
  ScratchDir dir;
  const Outcome o = run_config(dir, gray_scott_config(), {"--set", "model.name=grey_scott"});
  expect_refused(o, {"unknown model 'grey_scott'", "turing, gray_scott, fitzhugh_nagumo, brusselator, schnakenberg"});
}

TEST(ConfigErrors, UnknownModelMessageNamesFileAndKey) {
  ScratchDir dir;
  expect_refused(run_config(dir, gray_scott_config(), {"--set", "model.name=grey_scott"}), {"cfg.toml", "key 'model.name'"});
}

TEST(ConfigErrors, UnknownBackendIsRefusedInTheFileAndOnTheCommandLine) {
  ScratchDir dir;
  expect_refused(run_config(dir, gray_scott_config(), {"--set", "run.backend=gpu"}),
                 {"cfg.toml", "key 'run.backend'", "'gpu' is not one of \"auto\", \"serial\", \"openmp\", \"cuda\""});
  expect_refused(run_config(dir, gray_scott_config(), {"--backend", "gpu"}),
                 {"unknown backend 'gpu': expected serial, openmp, cuda or auto"});
}

TEST(ConfigErrors, UnknownPrecisionIsRefusedInTheFileAndOnTheCommandLine) {
  ScratchDir dir;
  expect_refused(run_config(dir, gray_scott_config(), {"--set", "run.precision=f16"}),
                 {"cfg.toml", "key 'run.precision'", "'f16' is not one of \"f32\", \"f64\""});
  expect_refused(run_config(dir, gray_scott_config(), {"--precision", "f16"}),
                 {"unknown precision 'f16': expected f32 or f64"});
}

TEST(ConfigErrors, AnUnknownOutputBackgroundChoiceIsRefusedNamingTheKey) {
  ScratchDir dir;
  const Outcome o = run_config(dir, gray_scott_config("background = \"always\"\n"));
  expect_refused(o, {"cfg.toml", "key 'output.background'", "\"auto\"", "\"never\""});
}

TEST(ConfigErrors, UnknownColormapIsRefused) {
  ScratchDir dir;
  const Outcome o = run_config(dir, gray_scott_config("colormap = \"rainbow\"\n"));
  expect_refused(o, {"unknown colormap 'rainbow'", "viridis"});
}

TEST(ConfigErrors, UnknownColormapMessageNamesFileAndKeyBeforeAnythingIsWritten) {
  ScratchDir dir;
  const Outcome o = run_config(dir, gray_scott_config("colormap = \"rainbow\"\n"));
  expect_refused(o, {"cfg.toml", "key 'output.colormap'"});
  EXPECT_FALSE(fs::exists(dir / "out"));
}

TEST(ConfigErrors, SetWithoutAnEqualsSignIsRefused) {
  ScratchDir dir;
  expect_refused(run_config(dir, gray_scott_config(), {"--set", "model.params.F"}),
                 {"--set 'model.params.F': expected key=value, e.g. --set model.params.F=0.035"});
}

TEST(ConfigErrors, MalformedTomlGivesTheLineNumber) {
  ScratchDir dir;
  const Outcome o = run_config(dir, "[model]\nname = \"gray_scott\"\n[grid\nnx = 8\n");
  expect_refused(o, {"cfg.toml:3:", "not valid TOML"});
}

TEST(ConfigErrors, MissingConfigurationFileIsNamed) {
  ScratchDir dir;
  expect_refused(run_pdex({"run", dir.str("nothere.toml")}), {"nothere.toml", "cannot open the configuration file"});
}

TEST(ConfigErrors, AFolderOrAnEmptyFileGivenAsTheConfigurationSaysSo) {
  ScratchDir dir;
  fs::create_directory(dir / "configs");
  expect_refused(run_pdex({"run", dir.str("configs")}), {"configs", "is a folder"});
  write_file_bytes(dir / "empty.toml", "");
  expect_refused(run_pdex({"run", dir.str("empty.toml")}), {"empty.toml", "the configuration file is empty"});
}

TEST(ConfigErrors, NanAndInfinitiesAreRefusedNamingTheKeyAndTheCell) {
  ScratchDir dir;
  expect_refused(run_config(dir, gray_scott_config(), {"--set", "model.params.F=nan"}),
                 {"cfg.toml", "key 'model.params.F'", "expected a finite number, found nan"});
  expect_refused(run_config(dir, gray_scott_config(), {"--set", "initial.u={ value = -inf }"}),
                 {"cfg.toml", "key 'initial.u.value'", "found an infinity"});
  std::vector<double> cells(24 * 32, 1.0);
  cells[3 * 32 + 5] = std::nan("");
  io::write_npy(dir / "holes.npy", cells.data(), {24, 32});
  expect_refused(run_config(dir, gray_scott_config(), {"--set", "initial.v={ file = \"holes.npy\" }"}),
                 {"cfg.toml", "key 'initial.v.file'", "NaN or infinite", "x=5, y=3"});
}

// Gray-Scott's explicit limit is 1 / (4 Du) = 1 / (4 * 0.2097) = 1.19218 with unit spacing.
TEST(ConfigErrors, DtAboveTheStableLimitGivesTheLargestStableDt) {
  ScratchDir dir;
  const Outcome o = run_config(dir, gray_scott_config(), {"--set", "time.dt=2.0"});
  expect_refused(o, {"cfg.toml", "key 'time.dt'", "dt = 2 exceeds the largest stable forward-Euler step 1.19218",
                     "use time.dt <= 1.19218", "time.force = true"});
}

TEST(ConfigErrors, ForceRunsAnywayAboveTheStableLimit) {
  ScratchDir dir;
  write_file_bytes(dir / "cfg.toml", gray_scott_config("", 16, 16, 2));
  const Outcome o = run_pdex({"run", dir.str("cfg.toml"), "--out", dir.str("out"), "--set", "time.dt=1.5", "--set", "time.force=true"});
  ASSERT_EQ(o.status, 0) << o.output;
  auto summary = read_json(dir / "out" / "summary.json");
  EXPECT_EQ(summary["status"], "ok");
  EXPECT_EQ(summary["stability"]["forced"], true);
  EXPECT_NEAR(summary["stability"]["dt_max"].get<double>(), 1 / (4 * 0.2097), 1e-9);
}

// One key wrong at a time (through --set, which reaches every key): each names the file, the key, and
// what was expected.
struct KeyCase {
  const char* name;
  const char* set;
  const char* key;
  const char* expected;
};

class OneKeyWrong : public ::testing::TestWithParam<KeyCase> {};

TEST_P(OneKeyWrong, IsRefusedNamingFileKeyAndExpectation) {
  const KeyCase& c = GetParam();
  ScratchDir dir;
  const Outcome o = run_config(dir, gray_scott_config(), {"--set", c.set});
  expect_refused(o, {"cfg.toml", std::string("key '") + c.key + "'", c.expected});
}

INSTANTIATE_TEST_SUITE_P(
    ConfigErrors, OneKeyWrong,
    ::testing::Values(
        KeyCase{"NyNegative", "grid.ny=-3", "grid.ny", "expected a positive cell count"},
        KeyCase{"NxNotInteger", "grid.nx=2.5", "grid.nx", "expected an integer, found a number"},
        KeyCase{"DyZero", "grid.dy=0.0", "grid.dy", "expected a positive spacing"},
        KeyCase{"BoundaryUnknown", "grid.boundary=sticky", "grid.boundary", "'sticky' is not one of \"periodic\", \"neumann\", \"dirichlet\""},
        KeyCase{"BoundaryDirichletWithoutValues", "grid.boundary=dirichlet", "grid.boundary", "a Dirichlet boundary needs values"},
        KeyCase{"BoundaryMissingSide", "grid.boundary={ left = \"neumann\", right = \"neumann\", bottom = \"neumann\" }", "grid.boundary", "missing side 'top'"},
        KeyCase{"DtZero", "time.dt=0.0", "time.dt", "expected a positive time step"},
        KeyCase{"StepsNegative", "time.steps=-1", "time.steps", "expected a non-negative number of steps"},
        KeyCase{"StepsAndEndTime", "time.t_end=10.0", "time", "give exactly one of 'steps' and 't_end'"},
        KeyCase{"MolSchemeRunsToATime", "time.scheme=rk4", "time.steps", "scheme 'rk4' runs to a time: give time.t_end"},
        KeyCase{"SchemeUnknown", "time.scheme=leapfrog", "time.scheme", "'leapfrog' is not one of"},
        KeyCase{"CheckEveryZero", "time.check_every=0", "time.check_every", "expected a positive number of steps"},
        KeyCase{"ClampNotBoolean", "model.clamp=yes", "model.clamp", "expected true or false, found a string"},
        KeyCase{"DiffusivityNegative", "model.params.Du=-0.1", "model.params.Du", "a diffusivity must be non-negative"},
        KeyCase{"ParamNotANumber", "model.params.F=\"high\"", "model.params.F", "expected a number, { value = x, noise = a, seed = s }"},
        KeyCase{"NoiseNegative", "initial.u={ value = 1.0, noise = -0.1 }", "initial.u.noise", "expected a non-negative amplitude"},
        KeyCase{"ValueAndFile", "initial.u={ value = 1.0, file = \"u.npy\" }", "initial.u", "give either 'value' or 'file', not both"},
        KeyCase{"AdvectionSchemeUnknown", "model.advection={ scheme = \"sideways\" }", "model.advection.scheme", "'sideways' is not one of \"none\", \"centered\", \"upwind\""},
        KeyCase{"AdvectionPresetWithoutStrength", "model.advection={ preset = \"rotation\" }", "model.advection.strength", "missing; expected a number"},
        KeyCase{"TensorNotPositiveDefinite", "model.diffusion={ kind = \"tensor\", xx = 1.0, xy = 2.0, yy = 1.0 }", "model.diffusion", "not symmetric positive definite at cell (x=0, y=0)"},
        KeyCase{"AlongFlowWithoutVelocity", "model.diffusion={ kind = \"tensor\", preset = \"along_flow\" }", "model.diffusion.preset", "needs a velocity in [model.advection]"},
        KeyCase{"AlongFlowRatioBelowOne", "model={ name = \"gray_scott\", advection = { velocity = [0.1, 0.0] }, diffusion = { kind = \"tensor\", preset = \"along_flow\", ratio = 0.5 } }", "model.diffusion.ratio", "expected a ratio >= 1"},
        KeyCase{"OutputEveryNegative", "output.every=-5", "output.every", "expected a non-negative number of steps"},
        KeyCase{"OutputFormatUnknown", "output.formats=[\"vti\"]", "output.formats", "unknown format 'vti'"},
        KeyCase{"OutputFieldUnknown", "output.fields=[\"w\"]", "output.fields", "unknown field 'w'"},
        KeyCase{"DirichletSideWithoutValue", "grid.boundary={ left = \"dirichlet\", right = \"neumann\", bottom = \"neumann\", top = \"neumann\" }", "grid.boundary.left", "a Dirichlet side needs its value"},
        KeyCase{"OutputScaleZero", "output.scale=0", "output.scale", "expected an integer from 1 to 16"},
        KeyCase{"OutputRangeReversed", "output.range=[1.0, 0.0]", "output.range", "expected [min, max] with min < max"},
        KeyCase{"ShapeUnknownKey", "initial.u={ value = 1.0, shapes = [{ shape = \"disc\", radius = 2.0, value = 1.0, colour = 3 }] }", "initial.u.shapes.0.colour", "unknown key in a shape"}),
    [](const ::testing::TestParamInfo<KeyCase>& p) { return std::string(p.param.name); });

// Full multigrid starts a multigrid solve to its tolerance: with another method, or with fixed cycles, the
// key is refused.
TEST(ConfigErrors, FullMultigridIsForMultigridSolvesToATolerance) {
  ScratchDir dir;
  expect_refused(run_config(dir, gray_scott_config(), {"--set", "time.scheme=theta", "--set", "solver.method=cg", "--set", "solver.fmg=true"}),
                 {"cfg.toml", "key 'solver.fmg'", "full multigrid is for solver.method = \"multigrid\""});
  expect_refused(run_config(dir, gray_scott_config(), {"--set", "time.scheme=theta", "--set", "solver.cycles=2", "--set", "solver.fmg=true"}),
                 {"cfg.toml", "key 'solver.fmg'", "fixed solver.cycles take V cycles"});
}

TEST(ConfigErrors, ShapeErrorsNameTheFullKey) {
  ScratchDir dir;
  expect_refused(run_config(dir, gray_scott_config(), {"--set", "initial.u={ value = 1.0, shapes = [{ shape = \"star\", value = 1.0 }] }"}),
                 {"cfg.toml", "key 'initial.u.shapes.0.shape'", "'star' is not one of"});
}

// 3D grids: what is not (yet) taken in 3D is refused naming its key, before any stepping.
TEST(ConfigErrors, WhatThreeDimensionsDoNotTakeIsRefusedByKey) {
  struct Case {
    std::vector<std::string> sets;
    std::string key, expected;
  };
  const std::vector<Case> cases{
      {{"grid.nz=0"}, "grid.nz", "expected a positive plane count"},
      {{"grid.dz=0.5"}, "grid.dz", "a 2D grid has no z spacing"},
      {{"model.diffusion={ kind = \"tensor\", xz = 0.1 }"}, "model.diffusion.xz", "a 2D grid's tensor has no z entries"},
      {{"grid.nz=4", "model.diffusion={ kind = \"tensor\", xz = 0.9, yz = 0.9 }"}, "model.diffusion", "det(M) > 0"},
      {{"grid.nz=4", "model.advection={ velocity = [0.1, 0.2] }"}, "model.advection.velocity", "expected an array of 3 numbers"},
      {{"model.advection={ z = 0.1 }"}, "model.advection.z", "a 2D grid's velocity has no z component"},
      {{"grid.nz=4", "output.slice={ axis = \"z\", index = 4 }"}, "output.slice.index", "expected a plane index from 0 to 3"},
      {{"output.projection=\"max\""}, "output.projection", "sections are pictures of 3D grids"},
      {{"grid.nz=4", "grid.boundary={ left = \"periodic\", right = \"periodic\", bottom = \"neumann\", top = \"neumann\" }"},
       "grid.boundary", "missing side 'front' (give all of left, right, bottom, top, front, back: the grid is 3D)"},
      {{"grid.boundary={ left = \"periodic\", right = \"periodic\", bottom = \"neumann\", top = \"neumann\", front = \"neumann\" }"},
       "grid.boundary.front", "a 2D grid has no z sides"},
      {{"grid.nz=4", "grid.boundary={ left = \"periodic\", right = \"periodic\", bottom = \"neumann\", top = \"neumann\", "
        "front = \"periodic\", back = \"neumann\" }"},
       "grid.boundary", "front and back must both be periodic or neither"}};
  for (const Case& c : cases) {
    ScratchDir dir;
    std::vector<std::string> extra;
    for (const std::string& set : c.sets) extra.insert(extra.end(), {"--set", set});
    SCOPED_TRACE(c.key);
    expect_refused(run_config(dir, gray_scott_config(), extra), {"cfg.toml", "key '" + c.key + "'", c.expected});
  }
}

// A family that runs on 2D grids only says so, and names the families that take 3D grids.
TEST(ConfigErrors, TwoDimensionalFamiliesRefuseThreeDimensionalGrids) {
  ScratchDir dir;
  const std::string text =
      "[model]\nname = \"mean_curvature\"\n[grid]\nnx = 16\nnz = 4\n[time]\ndt = 0.1\nsteps = 2\n[run]\nbackend = \"serial\"\nprogress = false\n";
  expect_refused(run_config(dir, text), {"cfg.toml", "key 'grid.nz'", "runs on 2D grids only", "advection_reaction_diffusion", "wave",
                                         "chemotaxis", "equations"});
}

}  // namespace
}  // namespace pdex::app_testing
