// Parameter ensembles (app/sweep.hpp): every member of a stacked run equals the same run alone, bit for
// bit, on every backend and kind of side (members never see each other's values); a sweep of one
// member equals `pdex run`; the outputs and the refusals of what an ensemble cannot run.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "app_test_support.hpp"
#include "pdex/app/simulation.hpp"
#include "pdex/app/sweep.hpp"
#include "pdex/io/npy.hpp"
#include "pdex/io/png_writer.hpp"

namespace pdex::app_testing {
namespace {

const std::string gray_scott = (fs::path(PDEX_SOURCE_DIR) / "examples" / "gray_scott_spots.toml").string();

CliOverrides small(Backend b, const std::string& boundary, std::vector<std::string> more = {}) {
  CliOverrides cli;
  cli.backend = std::string(backend_name(b));
  cli.precision = "f64";
  cli.sets = {"grid.nx=24", "grid.ny=20", "time.steps=60", "run.progress=false", "grid.boundary=" + boundary,
              "initial.u.shapes=[{shape=\"square\",center=[12.0,10.0],size=8.0,value=0.5}]",
              "initial.v.shapes=[{shape=\"square\",center=[12.0,10.0],size=8.0,value=0.25}]"};
  cli.sets.insert(cli.sets.end(), more.begin(), more.end());
  return cli;
}

// The final fields of one member run alone: its values set as --set would set them.
std::vector<std::vector<double>> alone(const CliOverrides& cli, const SweepResult& r, std::size_t m,
                                       const std::string& file = gray_scott) {
  CliOverrides one = cli;
  one.params.clear();
  for (std::size_t p = 0; p < r.params.size(); ++p) {
    char v[64];
    std::snprintf(v, sizeof v, "%.17g", r.member_values[m][p]);
    one.sets.push_back("model.params." + r.params[p].name + "=" + v);
  }
  RunOptions o;
  o.write_outputs = false;
  o.keep_final_values = true;
  return run_simulation(load_run_config(file, one), o).final_values;
}

void expect_member_equals_its_run(const CliOverrides& cli, const SweepResult& r, std::size_t m,
                                  const std::string& file = gray_scott) {
  const auto own = alone(cli, r, m, file);
  const std::size_t cells = r.cells();
  for (std::size_t f = 0; f < 2; ++f) {
    const std::vector<double> member(r.fields[f].begin() + std::ptrdiff_t(m * cells),
                                     r.fields[f].begin() + std::ptrdiff_t((m + 1) * cells));
    EXPECT_EQ(member, own[f]) << "member " << m << ", field " << r.field_names[f];
  }
}

void expect_members_equal_their_runs(Backend b, const std::string& boundary, std::vector<std::string> params,
                                     std::vector<std::string> sets = {}) {
  SCOPED_TRACE(std::string(backend_name(b)) + ", " + boundary + ", " + params[0]);
  CliOverrides cli = small(b, boundary, std::move(sets));
  cli.params = std::move(params);
  const SweepResult r = run_sweep(load_run_config(gray_scott, cli), cli, false);
  for (std::size_t m = 0; m < r.member_values.size(); ++m) expect_member_equals_its_run(cli, r, m);
}

const char* const boundaries[] = {
    "\"periodic\"", "\"neumann\"",
    "{left={kind=\"dirichlet\",u=1.0,v=0.0},right=\"neumann\",bottom={kind=\"dirichlet\",u=0.5,v=0.1},top=\"neumann\"}"};

// Each member's parameters read once (all of them numbers), and per cell (F varies across cells).
void expect_all_members_equal_their_runs(Backend b) {
  for (const char* boundary : boundaries) {
    expect_members_equal_their_runs(b, boundary, {"F=0.03,0.04", "k=0.055:0.065:3"});
    expect_members_equal_their_runs(b, boundary, {"k=0.055,0.06"}, {"model.params.F={value=0.035,noise=0.002,seed=5}"});
  }
}

TEST(Sweep, MembersComeInCOrder) {
  CliOverrides cli = small(Backend::serial, "\"periodic\"");
  cli.params = {"F=0.03,0.04", "k=0.055:0.065:3"};
  const SweepResult r = run_sweep(load_run_config(gray_scott, cli), cli, false);
  ASSERT_EQ(r.member_values.size(), 6u);
  EXPECT_EQ(r.member_values[1], (std::vector<double>{0.03, 0.06})) << "the last parameter varies fastest";
  EXPECT_EQ(r.member_values[5], (std::vector<double>{0.04, 0.065}));
}

TEST(Sweep, EveryMemberEqualsItsRunAloneOnTheHost) {
  for (Backend b : {Backend::serial, Backend::openmp}) expect_all_members_equal_their_runs(b);
}

TEST(Sweep, EveryMemberEqualsItsRunAloneOnTheGpu) {
  if (!backend_available(Backend::cuda)) GTEST_SKIP() << "no CUDA device: the ensemble's GPU kernel is not checked here";
  expect_all_members_equal_their_runs(Backend::cuda);
  // Enough members for the schedule's two rows a thread (a stacked field above 2048^2 cells); a few checked.
  CliOverrides cli = small(Backend::cuda, "\"periodic\"", {"grid.nx=128", "grid.ny=128", "time.steps=20"});
  cli.params = {"F=0.02:0.06:16", "k=0.04:0.07:16"};
  const SweepResult r = run_sweep(load_run_config(gray_scott, cli), cli, false);
  for (std::size_t m : {0, 17, 128, 255}) expect_member_equals_its_run(cli, r, m);
}

TEST(Sweep, OneMemberEqualsPdexRunAndTheOutputsAreWritten) {
  ScratchDir dir;
  const auto run = run_pdex({"run", gray_scott, "--backend", "serial", "--precision", "f32", "--out", (dir.path() / "run").string(),
                             "--set", "grid.nx=32", "--set", "grid.ny=24", "--set", "time.steps=50", "--set", "output.formats=[\"npy\"]",
                             "--set", "run.progress=false"});
  ASSERT_EQ(run.status, 0) << run.output;
  const auto sweep = run_pdex({"sweep", gray_scott, "--backend", "serial", "--precision", "f32", "--out", (dir.path() / "sweep").string(),
                               "--set", "grid.nx=32", "--set", "grid.ny=24", "--set", "time.steps=50", "--set", "run.progress=false",
                               "--param", "F=0.0367"});
  ASSERT_EQ(sweep.status, 0) << sweep.output;
  for (const char* field : {"u", "v"}) {
    const io::NpyArray single = io::read_npy(dir.path() / "run" / (std::string(field) + "_000050.npy"));
    const io::NpyArray stack = io::read_npy(dir.path() / "sweep" / (std::string(field) + ".npy"));
    EXPECT_EQ(stack.shape, (std::vector<std::size_t>{1, 24, 32}));
    EXPECT_EQ(stack.data, single.data) << field;
    int w = 0, h = 0;
    io::read_png_rgb(dir.path() / "sweep" / (std::string(field) + ".png"), w, h);
    EXPECT_GT(w, 32);
  }
  const nlohmann::json sum = read_json(dir.path() / "sweep" / "summary.json");
  EXPECT_EQ(sum["ensemble"]["members"], 1);
  EXPECT_EQ(sum["steps"], 50);
  EXPECT_EQ(sum["ensemble"]["params"]["F"], nlohmann::json::array({0.0367}));
}

TEST(Sweep, AnEnsembleSectionRunsWithPdexRun) {
  ScratchDir dir;
  const fs::path config = dir.path() / "map.toml";
  write_file_bytes(config, "[model]\nname = \"gray_scott\"\n[grid]\nnx = 16\nny = 12\n[time]\ndt = 1.0\nsteps = 20\n"
                           "[ensemble]\nF = { from = 0.02, to = 0.04, count = 3 }\nk = [0.05, 0.06]\n"
                           "[run]\nbackend = \"serial\"\nprogress = false\n[output]\ndir = \"" + (dir.path() / "out").string() + "\"\n");
  const auto o = run_pdex({"run", config.string()});
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_NE(o.output.find("6 members"), std::string::npos) << o.output;
  const io::NpyArray u = io::read_npy(dir.path() / "out" / "u.npy");
  EXPECT_EQ(u.shape, (std::vector<std::size_t>{6, 12, 16}));
  const nlohmann::json sum = read_json(dir.path() / "out" / "summary.json");
  EXPECT_EQ(sum["ensemble"]["member_values"][5], nlohmann::json::array({0.04, 0.06}));
  const auto compare = run_pdex({"compare", config.string(), "--backends", "serial,openmp"});
  EXPECT_NE(compare.status, 0);
  EXPECT_NE(compare.output.find("key 'ensemble': this runs one model"), std::string::npos) << compare.output;
}

TEST(Sweep, ParametersParse) {
  const std::vector<double> range = parse_sweep_param("F=0.01:0.03:3").values;
  ASSERT_EQ(range.size(), 3u);
  EXPECT_EQ(range[0], 0.01);
  EXPECT_DOUBLE_EQ(range[1], 0.02);
  EXPECT_EQ(range[2], 0.03) << "both ends exactly";
  EXPECT_EQ(parse_sweep_param("k=0.05,0.06").values, (std::vector<double>{0.05, 0.06}));
  EXPECT_EQ(parse_sweep_param("Du=0.2").name, "Du");
  for (const char* bad : {"F", "=1", "F=0.1:0.2", "F=0.1:0.2:0", "F=0.1:0.2:2.5", "F=a", "F=0.1,,0.2"})
    EXPECT_THROW(parse_sweep_param(bad), InputError) << bad;
}

TEST(Sweep, WhatAnEnsembleCannotRunIsRefusedBeforeTheRun) {
  const auto refused = [](std::vector<std::string> params, const std::string& says) {
    CliOverrides cli = small(Backend::serial, "\"periodic\"");
    cli.params = std::move(params);
    try {
      run_sweep(load_run_config(gray_scott, cli), cli, false);
      ADD_FAILURE() << "not refused: " << says;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
  };
  refused({"G=0.03,0.04"}, "no such parameter");
  refused({"Du=0.2,5.0"}, "member Du=5");  // unstable at dt = 1
}

// Schemes and grids that stack no members run them one after another: each member is its run alone.
void expect_members_in_turn(const std::string& file, CliOverrides cli, const std::string& because) {
  SCOPED_TRACE(because);
  cli.params = {"F=0.03,0.04"};
  const SweepResult r = run_sweep(load_run_config(file, cli), cli, false);
  EXPECT_NE(r.in_turn.find(because), std::string::npos) << r.in_turn;
  EXPECT_EQ(r.summary["ensemble"]["schedule"], "in turn");
  for (std::size_t m = 0; m < r.member_values.size(); ++m) expect_member_equals_its_run(cli, r, m, file);
  EXPECT_NE(r.fields[0][0], r.fields[0][r.cells() + 0]) << "the members differ";
}

TEST(Sweep, SchemesThatStackNoMembersRunThemInTurn) {
  expect_members_in_turn(gray_scott, small(Backend::openmp, "\"neumann\"", {"time.scheme=\"theta\""}), "time.scheme = \"theta\"");
  ScratchDir dir;
  const fs::path rk4 = dir.path() / "rk4.toml";
  write_file_bytes(rk4, "[model]\nname = \"gray_scott\"\n[grid]\nnx = 16\nny = 16\n[time]\nscheme = \"rk4\"\ndt = 1.0\n"
                        "t_end = 10.0\n[initial]\nu = { value = 1.0, noise = 0.1, seed = 3 }\n[run]\nprogress = false\n");
  CliOverrides cli;
  cli.backend = "serial";
  expect_members_in_turn(rk4.string(), cli, "time.scheme = \"rk4\"");
}

TEST(Sweep, A3dGridRunsItsMembersInTurnAndWritesVolumes) {
  ScratchDir dir;
  const std::vector<std::string> sets = {"grid.nz=6", "time.dt=0.5", "initial.u.shapes=[{shape=\"square\",center=[12.0,10.0,3.0],size=8.0,value=0.5}]",
                                         "initial.v.shapes=[{shape=\"square\",center=[12.0,10.0,3.0],size=8.0,value=0.25}]"};
  expect_members_in_turn(gray_scott, small(Backend::openmp, "\"neumann\"", sets), "a 3D grid");
  std::vector<std::string> args = {"sweep", gray_scott, "--backend", "serial", "--out", (dir.path() / "s").string(),
                                    "--param", "F=0.03,0.04,0.05", "--set", "output.projection=\"max\""};
  for (const std::string& set : small(Backend::serial, "\"periodic\"", sets).sets) args.insert(args.end(), {"--set", set});
  const auto o = run_pdex(args);
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_NE(o.output.find("one after another: a 3D grid"), std::string::npos) << o.output;
  EXPECT_EQ(io::read_npy(dir.path() / "s" / "v.npy").shape, (std::vector<std::size_t>{3, 6, 20, 24}));
  int w = 0, h = 0;
  io::read_png_rgb(dir.path() / "s" / "v_zmax.png", w, h);
  EXPECT_GT(w, 3 * 24);
  const nlohmann::json sum = read_json(dir.path() / "s" / "summary.json");
  EXPECT_EQ(sum["ensemble"]["member_steps"], nlohmann::json::array({60, 60, 60}));
  const double updates = sum["cell_updates_per_second"].get<double>() * sum["wall_seconds"]["stepping"].get<double>();
  EXPECT_NEAR(updates, 3.0 * 60 * 24 * 20 * 6, 1e-9 * updates);
}

TEST(Sweep, AMemberThatBlowsUpInTurnIsNotedAndTheOthersRun) {
  CliOverrides cli = small(Backend::serial, "\"neumann\"", {"time.scheme=\"theta\"", "time.force=true", "time.on_blowup=\"stop\""});
  cli.params = {"F=0.03,1e300"};
  const SweepResult r = run_sweep(load_run_config(gray_scott, cli), cli, false);
  EXPECT_EQ(r.nonfinite_members, std::vector<int>{1});
  ASSERT_EQ(r.member_errors.count(1), 1u);
  EXPECT_FALSE(r.member_errors.at(1).empty());
  EXPECT_TRUE(std::isnan(r.fields[0][r.cells()]));
  expect_member_equals_its_run(cli, r, 0);
}

TEST(Sweep, EveryFamilySweepsItsParameters) {
  ScratchDir dir;
  const fs::path wave = dir.path() / "wave.toml";
  write_file_bytes(wave, "[model]\nname = \"wave\"\n[model.params]\nc = 1.0\n[grid]\nnx = 16\nny = 12\nboundary = \"neumann\"\n"
                         "[time]\ndt = 0.5\nsteps = 20\n[initial]\nu = { value = 0.0, shapes = [{ shape = \"disc\", radius = 3.0, value = 1.0 }] }\n"
                         "[run]\nbackend = \"serial\"\nprogress = false\n");
  CliOverrides cli;
  cli.params = {"c=0.5,1.0"};
  const SweepResult r = run_sweep(load_run_config(wave.string(), cli), cli, false);
  EXPECT_EQ(r.in_turn, "the family steps one run at a time");
  for (std::size_t m = 0; m < 2; ++m) {
    CliOverrides one;
    one.sets = {m == 0 ? "model.params.c=0.5" : "model.params.c=1.0"};
    const auto own = run_simulation(load_run_config(wave.string(), one), final_values_only()).final_values;
    for (std::size_t f = 0; f < own.size(); ++f)
      EXPECT_EQ(std::vector<double>(r.fields[f].begin() + std::ptrdiff_t(m * r.cells()), r.fields[f].begin() + std::ptrdiff_t((m + 1) * r.cells())),
                own[f]) << "member " << m << ", field " << r.field_names[f];
  }
}

}  // namespace
}  // namespace pdex::app_testing
