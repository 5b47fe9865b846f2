// `mpirun -n P pdex run` (app/ranks.hpp, docs/parallel.md): the grid split into blocks, one per rank,
// their shared ghosts filled by the halo exchange. Forward Euler's results are those of one process
// bit for bit, for 1 to 4 ranks (3: an uneven split), periodic, Neumann and Dirichlet sides across the
// ranks' borders, 2D and 3D grids, automatic and given process grids, on the CPU and (with a device)
// on CUDA ranks; the summary names each rank's
// block and times. The theta scheme's solves over ranks (CG, BiCGStab) reach one process's result within
// their tolerance; so do heat, Poisson, the wave equation, Keller-Segel, chemotaxis-Stokes and the
// curvature flows. A blow-up on one rank ends every rank with the first bad cell named, as one process
// does; what does not run over ranks is refused once, before any step.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "app_test_support.hpp"
#include "pdex/core/executor.hpp"
#include "pdex/io/hdf5_series.hpp"
#include "pdex/io/npy.hpp"
#include "support/field_files_read.hpp"

namespace pdex::app_testing {
namespace {

class MpiRun : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!PDEX_MPI_RUNS) GTEST_SKIP() << "pdex was built without MPI (install libopenmpi-dev openmpi-bin and build again)";
    if (std::system("command -v mpirun > /dev/null 2>&1") != 0) GTEST_SKIP() << "no mpirun on PATH (openmpi-bin)";
  }
  // pdex ARGS over `ranks` ranks (OpenMPI: as root in containers, where shared memory's single-copy
  // transfers are not allowed either; more ranks than cores; one thread each).
  static Outcome run_ranks(int ranks, const std::vector<std::string>& args) {
    return run_pdex(args, "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none "
                          "OMP_NUM_THREADS=1 mpirun --oversubscribe --bind-to none -n " + std::to_string(ranks) + " ");
  }
  struct Runs {
    Outcome one, split;
    bool ok() const { return one.status == 0 && split.status == 0; }
  };
  // cfg.toml run in one process into one_NAME and over `ranks` ranks into split_NAME, `args` added to both.
  static Runs one_and_split(const ScratchDir& dir, const std::string& name, int ranks, const std::vector<std::string>& args = {}) {
    auto into = [&](const std::string& out) {
      std::vector<std::string> a{"run", dir.str("cfg.toml"), "--out", dir.str(out)};
      a.insert(a.end(), args.begin(), args.end());
      return a;
    };
    Runs r{run_pdex(into("one_" + name)), run_ranks(ranks, into("split_" + name))};
    EXPECT_EQ(r.one.status, 0) << r.one.output;
    EXPECT_EQ(r.split.status, 0) << r.split.output;
    return r;
  }
  // cfg.toml over 2 ranks into two_NAME with a checkpoint at `step`, continued from it over 3 ranks into
  // three_NAME; the checkpoint's directory.
  static fs::path continued_over_other_ranks(const ScratchDir& dir, const std::string& name, int step) {
    const Outcome two = run_ranks(2, {"run", dir.str("cfg.toml"), "--out", dir.str("two_" + name), "--set",
                                      "output.checkpoint_every=" + std::to_string(step)});
    EXPECT_EQ(two.status, 0) << two.output;
    char at[32];
    std::snprintf(at, sizeof at, "step_%010d", step);
    const fs::path checkpoint = dir / ("two_" + name) / "checkpoints" / at;
    const Outcome three = run_ranks(3, {"run", dir.str("cfg.toml"), "--out", dir.str("three_" + name), "--restart", checkpoint.string()});
    EXPECT_EQ(three.status, 0) << three.output;
    return checkpoint;
  }
};

// Gray-Scott on 40 x 36 cells with Dirichlet at the left, Neumann at the right, periodic y sides.
std::string mixed_sides_config(const std::string& grid_extra = "", const std::string& run_extra = "") {
  std::string text = gray_scott_config("", 40, 36, 60);
  const std::string periodic = "boundary = \"periodic\"";
  text.replace(text.find(periodic), periodic.size(),
               grid_extra + "boundary = { left = { kind = \"dirichlet\", value = 0.5 }, right = \"neumann\", "
                            "bottom = \"periodic\", top = \"periodic\"" +
                   (grid_extra.empty() ? "" : ", front = { kind = \"dirichlet\", value = 1.0 }, back = \"neumann\"") + " }");
  const std::string serial = "backend = \"serial\"";
  text.replace(text.find(serial), serial.size(), serial + "\n" + run_extra);
  return text;
}

void expect_same_fields(const fs::path& a, const fs::path& b, const std::string& step) {
  for (const char* f : {"u_", "v_"}) {
    const io::NpyArray x = io::read_npy(a / (f + step + ".npy")), y = io::read_npy(b / (f + step + ".npy"));
    EXPECT_EQ(x.shape, y.shape) << f;
    EXPECT_EQ(x.data, y.data) << f << step << ": " << a << " against " << b;
  }
}

// Every .npy output of two runs, value for value.
void expect_same_outputs(const fs::path& a, const fs::path& b) {
  const std::vector<std::string> files = file_names(a);
  ASSERT_EQ(files, file_names(b));
  for (const std::string& f : files) {
    if (f.ends_with(".npy")) {
      EXPECT_EQ(io::read_npy(a / f).data, io::read_npy(b / f).data) << f;
    }
  }
}

TEST_F(MpiRun, EveryRankCountGivesTheOneProcessResultBitForBit) {
  ScratchDir dir;
  for (const std::string precision : {"f64", "f32"}) {
    write_file_bytes(dir / "cfg.toml", mixed_sides_config());
    const fs::path one = dir / ("one_" + precision);
    ASSERT_EQ(run_pdex({"run", dir.str("cfg.toml"), "--out", one.string(), "--precision", precision}).status, 0);
    for (int ranks : {1, 2, 3, 4}) {
      SCOPED_TRACE(precision + " over " + std::to_string(ranks) + " ranks");
      const fs::path out = dir / (precision + "_" + std::to_string(ranks));
      const Outcome o = run_ranks(ranks, {"run", dir.str("cfg.toml"), "--out", out.string(), "--precision", precision});
      ASSERT_EQ(o.status, 0) << o.output;
      expect_same_fields(one, out, "000060");
      expect_same_fields(one, out, "000000");
      const nlohmann::json s = read_json(out / "summary.json");
      if (ranks > 1) {
        EXPECT_EQ(s["ranks"]["count"], ranks);
        EXPECT_EQ(s["ranks"]["per_rank"].size(), std::size_t(ranks));
        EXPECT_GE(s["ranks"]["per_rank"][1]["exchange_seconds"].get<double>(), 0.0);
        EXPECT_EQ(s["ranks"]["exchange_through"], "host memory");
      }
      EXPECT_EQ(s["fields"]["u"]["min"], read_json(one / "summary.json")["fields"]["u"]["min"]);
    }
  }
}

// summary.json's schedule is how the blocks step: split along y, as the whole grid (four steps a pass,
// cache-blocked rows, deep_block_sides); split along x, one pass a step.
TEST_F(MpiRun, TheSummaryNamesTheBlocksSchedule) {
  ScratchDir dir;
  write_file_bytes(dir / "cfg.toml", gray_scott_config("", 1024, 1024, 4));
  if (!one_and_split(dir, "big", 2).ok()) return;
  EXPECT_EQ(read_json(dir / "one_big" / "summary.json")["schedule"]["name"], "cache-blocked rows, 4 steps a pass");
  const nlohmann::json split = read_json(dir / "split_big" / "summary.json");
  EXPECT_EQ(split["schedule"]["name"], "cache-blocked rows, 4 steps a pass");
  EXPECT_FALSE(split["ranks"].contains("schedule"));
  const Outcome across = run_ranks(2, {"run", dir.str("cfg.toml"), "--out", dir.str("across"), "--set", "run.ranks=[2, 1]"});
  ASSERT_EQ(across.status, 0) << across.output;
  EXPECT_EQ(read_json(dir / "across" / "summary.json")["schedule"]["name"], "one pass a step, by cells");
}

// Split along y, a grid that one process steps four steps a pass goes so in every block too, its ghost
// rows four deep and exchanged once a pass: the one process's fields bit for bit, with periodic y sides
// over 2 ranks, walls (Dirichlet, Neumann) over 3, and a parameter per cell (Turing's noisy alpha, its
// field's ghost rows as deep), in f64 and f32; 10 steps with an output at 5 (a pass and a single step
// each time).
TEST_F(MpiRun, BlocksGoSeveralStepsAPassAsTheWholeGrid) {
  ScratchDir dir;
  const std::string periodic = "boundary = \"periodic\"";
  std::string walls = gray_scott_config("every = 5\n", 1024, 1024, 10);
  walls.replace(walls.find(periodic), periodic.size(),
                "boundary = { left = \"periodic\", right = \"periodic\", bottom = { kind = \"dirichlet\", value = 0.5 }, top = \"neumann\" }");
  std::string turing = turing_config(1024, 1024, 10);
  turing.replace(turing.find("[output]\n"), 9, "[output]\nevery = 5\n");
  const std::tuple<const char*, int, std::string> cases[] = {
      {"periodic", 2, gray_scott_config("every = 5\n", 1024, 1024, 10)}, {"walls", 3, walls}, {"turing", 2, turing}};
  for (const auto& [name, ranks, text] : cases) {
    write_file_bytes(dir / "cfg.toml", text);
    for (const std::string precision : {"f64", "f32"}) {
      SCOPED_TRACE(std::string(name) + " " + precision);
      const std::string run = std::string(name) + precision;
      ASSERT_TRUE(one_and_split(dir, run, ranks, {"--precision", precision}).ok());
      EXPECT_EQ(read_json(dir / ("split_" + run) / "summary.json")["schedule"]["name"], "cache-blocked rows, 4 steps a pass");
      expect_same_fields(dir / ("one_" + run), dir / ("split_" + run), "000005");
      expect_same_fields(dir / ("one_" + run), dir / ("split_" + run), "000010");
    }
  }
}

// run.steps_per_pass = 3 on a grid below the size that blocks by itself, split along y over 2 ranks: the
// blocks go 3 steps a pass with ghost rows 3 deep, one process's fields bit for bit (10 steps: passes
// and steps left over).
TEST_F(MpiRun, BlocksTakeTheStepsPerPassAsked) {
  ScratchDir dir;
  write_file_bytes(dir / "cfg.toml", gray_scott_config("every = 5\n", 256, 256, 10));
  ASSERT_TRUE(one_and_split(dir, "three", 2, {"--set", "run.steps_per_pass=3"}).ok());
  EXPECT_EQ(read_json(dir / "split_three" / "summary.json")["schedule"]["name"], "cache-blocked rows, 3 steps a pass");
  expect_same_fields(dir / "one_three", dir / "split_three", "000005");
  expect_same_fields(dir / "one_three", dir / "split_three", "000010");
}

// A 3D box split along each axis in turn and automatically: the bottom and top sides periodic across
// the ranks, Dirichlet and Neumann z sides.
TEST_F(MpiRun, ThreeDimensionalBlocksGiveTheOneProcessResult) {
  ScratchDir dir;
  std::string text = mixed_sides_config("nz = 6\n");
  const std::string dt = "dt = 1.0";  // the 3D limit is 1/(6 Du) = 0.79
  text.replace(text.find(dt), dt.size(), "dt = 0.5");
  write_file_bytes(dir / "cfg.toml", text);
  ASSERT_EQ(run_pdex({"run", dir.str("cfg.toml"), "--out", dir.str("one")}).status, 0);
  const std::vector<std::pair<std::string, int>> cases{{"[2, 1, 1]", 2}, {"[1, 2, 1]", 2}, {"[1, 1, 3]", 3}, {"", 4}};
  for (std::size_t n = 0; n < cases.size(); ++n) {
    const auto& [ranks, count] = cases[n];
    SCOPED_TRACE("run.ranks = " + ranks);
    const fs::path out = dir / ("split" + std::to_string(n));
    std::vector<std::string> args{"run", dir.str("cfg.toml"), "--out", out.string()};
    if (!ranks.empty()) args.insert(args.end(), {"--set", "run.ranks=" + ranks});
    const Outcome o = run_ranks(count, args);
    ASSERT_EQ(o.status, 0) << o.output;
    expect_same_fields(dir / "one", out, "000060");
  }
}

// rk4, Merson (its step sizes chosen from the largest error estimate over the ranks) and a diffusion
// tensor that varies per cell (its coefficients read beyond a block's sides), in 2D and 3D: the one-process
// result bit for bit over 3 ranks, each stage's interior computed while its border's slabs travel (split
// along x, y and z).
TEST_F(MpiRun, RungeKuttaSchemesAndTensorsGiveTheOneProcessResult) {
  ScratchDir dir;
  std::string deep = mixed_sides_config("nz = 6\n");
  const std::string dt = "dt = 1.0";
  deep.replace(deep.find(dt), dt.size(), "dt = 0.5");
  const std::string tensor = "model.diffusion={ kind = \"tensor\", xx = { value = 1.0, noise = 0.3, seed = 3 }, xy = 0.2 }";
  const std::string tensor3 = "model.diffusion={ kind = \"tensor\", xx = { value = 1.0, noise = 0.3, seed = 3 }, xy = 0.2, xz = -0.1, yz = 0.15 }";
  struct Case {
    std::string name, text;
    std::vector<std::string> sets;
  };
  const auto to_time = [](std::string text, const std::string& scheme) {  // the method of lines runs to a time
    const std::string steps = "steps = 60";
    return text.replace(text.find(steps), steps.size(), "t_end = 30.0\nscheme = \"" + scheme + "\"");
  };
  const std::vector<Case> cases{{"rk4", to_time(mixed_sides_config(), "rk4"), {}},
                                {"merson", to_time(mixed_sides_config(), "merson"), {}},
                                {"tensor", mixed_sides_config(), {tensor, "time.dt=0.5"}},
                                {"tensor3", deep, {tensor3}},
                                {"rk4_3d", to_time(deep, "rk4"), {}},
                                {"rk4_x", to_time(mixed_sides_config(), "rk4"), {"run.ranks=[3, 1]"}},
                                {"merson_3d_z", to_time(deep, "merson"), {"run.ranks=[1, 1, 3]"}}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    write_file_bytes(dir / "cfg.toml", c.text);
    std::vector<std::string> args{"run", dir.str("cfg.toml"), "--precision", "f64"};
    for (const std::string& s : c.sets) args.insert(args.end(), {"--set", s});
    auto with_out = [&](const std::string& out) {
      std::vector<std::string> a = args;
      a.insert(a.end(), {"--out", dir.str(out)});
      return a;
    };
    const Outcome one = run_pdex(with_out("one_" + c.name));
    ASSERT_EQ(one.status, 0) << one.output;
    const Outcome three = run_ranks(3, with_out("three_" + c.name));
    ASSERT_EQ(three.status, 0) << three.output;
    expect_same_outputs(dir / ("one_" + c.name), dir / ("three_" + c.name));
  }
}

// The exchanges of a run over ranks that overlapped a step's interior (summary.json's ranks.exchanges).
int overlapped_exchanges(const fs::path& out) { return read_json(out / "summary.json")["ranks"]["exchanges"]["overlapped"].get<int>(); }

// A text model (model.name = "equations") with a feed rate that varies along x, a tensor flux, a side
// whose value is an expression of y and t, the same with plain sides by Merson, and a 3D text model with
// a 3D tensor flux (its cross derivatives read the edges of the blocks' halos), by rk4, Merson and
// forward Euler: the one-process result bit for bit over 4 ranks. Stages overlap their exchanges but
// where a side's value is an expression (its ghosts are written once every cell is done).
TEST_F(MpiRun, TextModelsGiveTheOneProcessResult) {
  ScratchDir dir;
  const std::string model =
      "[model]\nname = \"equations\"\nspecies = [\"u\", \"v\"]\n[model.equations]\n"
      "u = \"div(tensor(Du, 0.3*Du, Du)*grad(u)) - u*v^2 + F*(1 - u)\"\nv = \"Dv*lap(v) + u*v^2 - (F + k)*v\"\n"
      "[model.params]\nDu = 0.2\nDv = 0.1\nF = \"0.03 + 0.01*x/L_x\"\nk = 0.0649\n";
  const std::string start = "[initial]\nu = { value = 1.0, noise = 0.1, seed = 1 }\nv = { value = 0.25, noise = 0.1, seed = 2 }\n"
                            "[output]\nformats = [\"npy\"]\n[run]\nbackend = \"serial\"\nprogress = false\nprecision = \"f64\"\n";
  const auto deep_tensor = [](std::string text) {  // a 3D grid's tensor has six entries
    const std::string flux = "div(tensor(Du, 0.3*Du, Du)*grad(u))";
    return text.replace(text.find(flux), flux.size(), "div(tensor(Du, 0.3*Du, Du, 0.1*Du, -0.2*Du, Du)*grad(u))");
  };
  const std::vector<std::pair<std::string, std::string>> cases{
      {"flat", model + "[grid]\nnx = 30\nny = 26\nboundary = { left = { kind = \"dirichlet\", value = \"0.5 + 0.1*sin(y)*t\" }, "
               "right = \"neumann\", bottom = \"periodic\", top = \"periodic\" }\n[time]\nscheme = \"rk4\"\ndt = 0.5\nt_end = 20.0\n" + start},
      {"plain", model + "[grid]\nnx = 30\nny = 26\nboundary = { left = \"periodic\", right = \"periodic\", "
                "bottom = { kind = \"dirichlet\", value = 0.3 }, top = \"neumann\" }\n[time]\nscheme = \"merson\"\n"
                "dt = 0.5\nt_end = 20.0\n" + start},
      {"deep", deep_tensor(model) + "[grid]\nnx = 16\nny = 12\nnz = 8\nboundary = \"neumann\"\n[time]\ndt = 0.4\nsteps = 40\n" + start}};
  for (const auto& [name, text] : cases) {
    SCOPED_TRACE(name);
    write_file_bytes(dir / "cfg.toml", text);
    const Outcome one = run_pdex({"run", dir.str("cfg.toml"), "--out", dir.str("one_" + name)});
    ASSERT_EQ(one.status, 0) << one.output;
    const Outcome four = run_ranks(4, {"run", dir.str("cfg.toml"), "--out", dir.str("four_" + name)});
    ASSERT_EQ(four.status, 0) << four.output;
    expect_same_outputs(dir / ("one_" + name), dir / ("four_" + name));
    const int overlapped = overlapped_exchanges(dir / ("four_" + name));
    if (name == "flat") EXPECT_EQ(overlapped, 0);
    else EXPECT_GE(overlapped, name == "deep" ? 40 : 5);
  }
}

// Largest difference between two runs' .npy outputs, over every file.
double largest_difference(const fs::path& a, const fs::path& b) {
  double most = 0;
  for (const std::string& f : file_names(a)) {
    if (!f.ends_with(".npy")) continue;
    const io::NpyArray x = io::read_npy(a / f), y = io::read_npy(b / f);
    EXPECT_EQ(x.data.size(), y.data.size()) << f;
    for (std::size_t k = 0; k < std::min(x.data.size(), y.data.size()); ++k) most = std::max(most, std::abs(x.data[k] - y.data[k]));
  }
  return most;
}

// A configuration run in one process and over `ranks` ranks, whose results agree bit for bit (exact) or
// within the solves' tolerance.
struct SplitCase {
  std::string name, text;
  int ranks;
  bool exact;
};

// The files of runs a and b agree within tol (0: bit for bit).
void expect_files_near(const fs::path& a, const fs::path& b, const std::vector<std::string>& files, double tol) {
  for (const std::string& f : files) {
    const io::NpyArray x = io::read_npy(a / f), y = io::read_npy(b / f);
    ASSERT_EQ(x.data.size(), y.data.size()) << f;
    for (std::size_t k = 0; k < x.data.size(); ++k)
      if (!(std::abs(x.data[k] - y.data[k]) <= tol)) {
        ADD_FAILURE() << f << " cell " << k << ": " << x.data[k] << " in " << a << ", " << y.data[k] << " in " << b;
        break;
      }
  }
}

// The theta scheme over ranks, its solves by CG and BiCGStab (Jacobi-preconditioned) with products summed
// over the ranks, and by multigrid: the one-process result within the solves' tolerance, with the
// iterations one process takes within 10%, for 2, 3 and 4 ranks, 2D and 3D, built-in and text models.
TEST_F(MpiRun, TheThetaSchemeSolvesOverRanksWithinTheSolversTolerance) {
  ScratchDir dir;
  const std::string theta = "\n[solver]\ntol = 1e-11\n";
  std::string flat = mixed_sides_config(), deep = mixed_sides_config("nz = 6\n");
  const std::string steps = "steps = 60";
  for (std::string* text : {&flat, &deep}) text->replace(text->find(steps), steps.size(), "steps = 30\nscheme = \"theta\"");
  std::string text_model = "[model]\nname = \"equations\"\npreset = \"gray_scott\"\n" + flat.substr(flat.find("[grid]"));
  struct Case {
    std::string name, text, method;
    int ranks;
  };
  for (const Case& c : {Case{"cg", flat, "cg", 2}, Case{"bicgstab", flat, "bicgstab", 3}, Case{"deep", deep, "pcg", 4},
                        Case{"text", text_model, "bicgstab", 3}, Case{"mg", flat, "multigrid", 3},
                        Case{"deep_mg", deep, "multigrid", 4}}) {
    SCOPED_TRACE(c.name);
    write_file_bytes(dir / "cfg.toml", c.text + theta + "method = \"" + c.method + "\"\n");
    ASSERT_EQ(run_pdex({"run", dir.str("cfg.toml"), "--out", dir.str("one_" + c.name)}).status, 0);
    const Outcome o = run_ranks(c.ranks, {"run", dir.str("cfg.toml"), "--out", dir.str("split_" + c.name)});
    ASSERT_EQ(o.status, 0) << o.output;
    EXPECT_LT(largest_difference(dir / ("one_" + c.name), dir / ("split_" + c.name)), 1e-8);
    const nlohmann::json one = read_json(dir / ("one_" + c.name) / "summary.json")["solver"],
                         split = read_json(dir / ("split_" + c.name) / "summary.json")["solver"];
    EXPECT_EQ(split["solves"], one["solves"]);
    EXPECT_GT(one["iterations"].get<double>(), 29.0) << "the solves did work";
    EXPECT_NEAR(split["iterations"].get<double>(), one["iterations"].get<double>(), 0.1 * one["iterations"].get<double>());
    EXPECT_EQ(split["unconverged"], 0);
    EXPECT_GE(overlapped_exchanges(dir / ("split_" + c.name)), split["iterations"].get<int>())
        << "every product (and the finest level's smoothing) overlaps its exchange";
  }
  // A checkpoint over 2 ranks keeps the previous level (the next solve's start), gathered: continued over
  // 3 ranks it gives the run straight through within the solves' tolerance.
  write_file_bytes(dir / "cfg.toml", flat + theta + "method = \"cg\"\n");
  const fs::path halfway = continued_over_other_ranks(dir, "cg", 15);
  EXPECT_EQ(io::read_npy(halfway / "extra_previous.npy").shape, (std::vector<std::size_t>{2, 36, 40}));
  expect_files_near(dir / "one_cg", dir / "three_cg", {"u_000030.npy", "v_000030.npy"}, 1e-8);
}

// Multigrid over ranks (linalg/block_multigrid.hpp): the fine levels distributed (smoothing colour by
// colour, the transfers reading the neighbours' cells across the shared sides), the coarse ones gathered
// onto every rank. The cycles do one process's arithmetic, so Poisson with mixed sides over 3 ranks (one
// distributed level), over 2 x 2 ranks by W cycles (two), in 3D over 4 ranks, on an odd grid gathered at
// once, and theta steps with a diffusion tensor (2D, and 3D over 4 ranks), a diffusivity varying per
// cell, and a Robin side (f32) end with one process's fields bit for bit after as many cycles; as CG's
// preconditioner (the products summed over the ranks in another order) within the tolerance, with the
// iterations within 10%.
TEST_F(MpiRun, MultigridRunsOverRanks) {
  ScratchDir dir;
  const std::string run = "[output]\nformats = [\"npy\"]\n[run]\nbackend = \"serial\"\nprecision = \"f64\"\nprogress = false\n";
  auto poisson = [&](const std::string& grid, const std::string& solver) {
    return "[model]\nname = \"poisson\"\n[model.params]\nf = { value = 1.0, noise = 0.5 }\n[grid]\n" + grid +
           "boundary = { left = { kind = \"dirichlet\", value = 1.0 }, right = \"neumann\", bottom = \"periodic\", top = \"periodic\"" +
           (grid.find("nz") == std::string::npos ? "" : ", front = \"neumann\", back = { kind = \"dirichlet\", value = 0.0 }") +
           " }\n[solver]\ntol = 1e-10\n" + solver + run;
  };
  // Gray-Scott's theta step with a varying diffusion tensor (restricted as a coefficient on every level),
  // on a 2D grid and on a 3D one (six entries, eight colours).
  auto tensor_theta = [](const std::string& grid, const std::string& entries) {
    std::string text = mixed_sides_config(grid, "precision = \"f64\"\n");
    const std::string steps = "steps = 60";
    text.replace(text.find(steps), steps.size(), "steps = 10\nscheme = \"theta\"");
    return text + "[solver]\nmethod = \"multigrid\"\ntol = 1e-10\n[model.diffusion]\nkind = \"tensor\"\n"
                  "xx = { value = 1.0, noise = 0.3, seed = 3 }\nxy = 0.2\n" + entries;
  };
  // Gray-Scott's theta step with a diffusivity varying per cell (restricted and exchanged on every
  // distributed level, gathered below), and as a text model with a Robin side (respaced on every level) in f32.
  auto gray_scott = [&](const std::string& model, const std::string& left, const std::string& precision) {
    return "[model]\n" + model + "[grid]\nnx = 96\nny = 64\nboundary = { left = " + left +
           ", right = \"neumann\", bottom = \"periodic\", top = \"periodic\" }\n[time]\nscheme = \"theta\"\ndt = 4.0\nsteps = 20\n"
           "[solver]\nmethod = \"multigrid\"\ntol = 1e-10\n[initial]\n"
           "u = { value = 1.0, noise = 0.01, seed = 1, shapes = [{ shape = \"square\", size = 20.0, value = 0.5 }] }\n"
           "v = { value = 0.0, noise = 0.01, seed = 2, shapes = [{ shape = \"square\", size = 20.0, value = 0.25 }] }\n"
           "[output]\nformats = [\"npy\"]\n[run]\nbackend = \"serial\"\nprogress = false\nprecision = \"" + precision + "\"\n";
  };
  const std::string per_cell = gray_scott("name = \"gray_scott\"\n[model.params]\nDu = { value = 0.2, noise = 0.05, seed = 4 }\n",
                                          "{ kind = \"dirichlet\", value = 0.5 }", "f64");
  const std::string robin = gray_scott("name = \"equations\"\npreset = \"gray_scott\"\n", "{ kind = \"robin\", a = 1.0, b = 2.0, value = 0.5 }", "f32");
  const std::vector<SplitCase> cases{{"three", poisson("nx = 40\nny = 36\n", ""), 3, true},
                                     {"w_cycles", poisson("nx = 128\nny = 128\n", "cycle = \"W\"\n"), 4, true},
                                     {"deep", poisson("nx = 32\nny = 24\nnz = 16\n", ""), 4, true},
                                     {"odd", poisson("nx = 41\nny = 36\n", ""), 3, true},
                                     {"tensor", tensor_theta("", ""), 3, true},
                                     {"tensor_3d", tensor_theta("nz = 8\n", "xz = -0.1\nyz = 0.15\nzz = 0.8\n"), 4, true},
                                     {"per_cell", per_cell, 4, true},
                                     {"robin_f32", robin, 3, true},
                                     {"pcg", poisson("nx = 64\nny = 48\n", "method = \"pcg\"\npreconditioner = \"multigrid\"\n"), 2, false}};
  for (const SplitCase& c : cases) {
    SCOPED_TRACE(c.name);
    write_file_bytes(dir / "cfg.toml", c.text);
    ASSERT_TRUE(one_and_split(dir, c.name, c.ranks).ok());
    const nlohmann::json a = read_json(dir / ("one_" + c.name) / "summary.json")["solver"],
                         b = read_json(dir / ("split_" + c.name) / "summary.json")["solver"];
    EXPECT_GT(a["iterations"].get<double>(), 3.0) << "the solves did work";
    EXPECT_EQ(b["unconverged"], 0);
    const int least = c.name == "odd" ? 0 : 2 * b["iterations"].get<int>();  // "odd" is gathered at once: no block sweeps
    EXPECT_GE(overlapped_exchanges(dir / ("split_" + c.name)), least) << "the smoothing overlaps its exchanges";
    if (c.exact) {
      expect_same_outputs(dir / ("one_" + c.name), dir / ("split_" + c.name));
      EXPECT_EQ(b["iterations"], a["iterations"]);
      continue;
    }
    EXPECT_LT(largest_difference(dir / ("one_" + c.name), dir / ("split_" + c.name)), 1e-8);
    EXPECT_NEAR(b["iterations"].get<double>(), a["iterations"].get<double>(), std::max(1.0, 0.1 * a["iterations"].get<double>()));
  }
}

// The relaxations over ranks, colour by colour with an exchange after each: red-black colours agree
// across the blocks (each starts at an even index), so the sweeps do one process's arithmetic and the
// solves end where one process's do, bit for bit, after the same sweeps: Poisson by SOR over 3 ranks,
// heat's theta scheme by Jacobi over 2 and by Gauss-Seidel over 4 ranks in 3D, Gray-Scott's with a diffusion
// tensor (four colours) by SOR over 3. An odd count of cells along a split axis is refused for the
// Gauss-Seidel sweeps.
TEST_F(MpiRun, TheRelaxationsSolveOverRanksAsOneProcess) {
  ScratchDir dir;
  const std::string run = "[output]\nformats = [\"npy\"]\n[run]\nbackend = \"serial\"\nprogress = false\n";
  const std::string sides = "boundary = { left = { kind = \"dirichlet\", value = 1.0 }, right = \"neumann\", bottom = \"periodic\", "
                            "top = \"periodic\" }\n";
  const std::string poisson = "[model]\nname = \"poisson\"\n[model.params]\nf = { value = 1.0, noise = 0.5 }\n[grid]\nnx = 40\nny = 36\n" +
                              sides + "[solver]\ntol = 1e-6\nmax_iter = 20000\n" + run;
  const std::string heat3 = "[model]\nname = \"heat\"\n[grid]\nnx = 16\nny = 12\nnz = 8\nboundary = \"neumann\"\n[time]\n"
                            "scheme = \"theta\"\ndt = 2.0\nsteps = 5\n[solver]\ntol = 1e-8\n"
                            "[initial]\nu = { value = 0.0, shapes = [{ shape = \"disc\", radius = 4.0, value = 100.0 }], noise = 1.0 }\n" + run;
  const std::string heat = "[model]\nname = \"heat\"\n[grid]\nnx = 40\nny = 36\n" + sides + "[time]\nscheme = \"theta\"\ndt = 1.0\n"
                           "steps = 5\n[solver]\ntol = 1e-9\n"
                           "[initial]\nu = { value = 0.0, shapes = [{ shape = \"disc\", radius = 6.0, value = 100.0 }], noise = 1.0 }\n" + run;
  std::string tensor = mixed_sides_config();
  const std::string steps = "steps = 60";
  tensor.replace(tensor.find(steps), steps.size(), "steps = 10\nscheme = \"theta\"");
  tensor += "[solver]\nmethod = \"sor\"\ntol = 1e-9\n";
  struct Case {
    std::string name, text, method;
    int ranks;
  };
  for (const Case& c : {Case{"sor", poisson, "sor", 3}, Case{"jacobi", heat, "jacobi", 2}, Case{"rbgs3d", heat3, "rbgs", 4},
                        Case{"tensor", tensor, "", 3}}) {
    SCOPED_TRACE(c.name);
    write_file_bytes(dir / "cfg.toml", c.text);
    const std::string set = c.name == "tensor" ? "model.diffusion={ kind = \"tensor\", xx = { value = 1.0, noise = 0.3, seed = 3 }, xy = 0.2 }"
                                               : "solver.method=\"" + c.method + "\"";
    ASSERT_TRUE(one_and_split(dir, c.name, c.ranks, {"--precision", "f64", "--set", set}).ok());
    expect_same_outputs(dir / ("one_" + c.name), dir / ("split_" + c.name));
    const nlohmann::json a = read_json(dir / ("one_" + c.name) / "summary.json")["solver"],
                         b = read_json(dir / ("split_" + c.name) / "summary.json")["solver"];
    EXPECT_GT(a["iterations"].get<double>(), 20.0) << "the solves did work";
    EXPECT_EQ(b["iterations"], a["iterations"]);
    EXPECT_EQ(b["unconverged"], 0);
    EXPECT_GE(overlapped_exchanges(dir / ("split_" + c.name)), b["iterations"].get<int>()) << "every sweep overlaps its exchanges";
  }
  write_file_bytes(dir / "cfg.toml", poisson);
  const Outcome odd = run_ranks(3, {"run", dir.str("cfg.toml"), "--out", dir.str("odd"), "--set", "grid.nx=41", "--set", "solver.method=\"rbgs\""});
  EXPECT_NE(odd.status, 0);
  EXPECT_TRUE(contains(odd.output, "need an even number of cells along every axis")) << odd.output;
}

// Heat by forward Euler on 40 x 36 cells from a noisy disc, Dirichlet left, Neumann right, periodic y.
const std::string heat_run = "[output]\nformats = [\"npy\"]\n[run]\nbackend = \"serial\"\nprogress = false\n";
const std::string heat_disc = "[initial]\nu = { value = 0.0, shapes = [{ shape = \"disc\", radius = 6.0, value = 100.0 }], noise = 1.0 }\n";
const std::string heat_sides = "boundary = { left = { kind = \"dirichlet\", value = 1.0 }, right = \"neumann\", bottom = \"periodic\", "
                               "top = \"periodic\" }\n";
std::string heat_config() {
  return "[model]\nname = \"heat\"\n[model.params]\nD = 0.2\n[grid]\nnx = 40\nny = 36\n" + heat_sides + "[time]\ndt = 1.0\nsteps = 60\n" +
         heat_disc + heat_run;
}

// Heat by forward Euler over 3 ranks: one process's result bit for bit; the Poisson problem by CG over 2
// ranks and heat's theta scheme by Jacobi-preconditioned CG over 4 ranks in 3D: within the solves'
// tolerance, with the iterations one process takes within 10%. A Poisson problem with no Dirichlet side
// (fixed only up to a constant) is refused.
TEST_F(MpiRun, HeatAndPoissonRunOverRanks) {
  ScratchDir dir;
  const std::string run = heat_run, disc = heat_disc, sides = heat_sides;
  const std::vector<SplitCase> cases{
      {"heat", heat_config(), 3, true},
      {"poisson", "[model]\nname = \"poisson\"\n[model.params]\nf = { value = 1.0, noise = 0.5 }\n[grid]\nnx = 40\nny = 36\n" + sides +
                      "[solver]\nmethod = \"cg\"\ntol = 1e-11\n" + run, 2, false},
      {"theta", "[model]\nname = \"heat\"\n[grid]\nnx = 16\nny = 12\nnz = 8\nboundary = \"neumann\"\n[time]\nscheme = \"theta\"\n"
                    "dt = 2.0\nsteps = 10\n[solver]\nmethod = \"pcg\"\ntol = 1e-11\n" + disc + run, 4, false}};
  for (const SplitCase& c : cases) {
    SCOPED_TRACE(c.name);
    write_file_bytes(dir / "cfg.toml", c.text);
    ASSERT_TRUE(one_and_split(dir, c.name, c.ranks).ok());
    if (c.exact) {
      expect_same_outputs(dir / ("one_" + c.name), dir / ("split_" + c.name));
      EXPECT_GE(overlapped_exchanges(dir / ("split_" + c.name)), 60) << "forward Euler overlaps its exchanges";
      continue;
    }
    EXPECT_LT(largest_difference(dir / ("one_" + c.name), dir / ("split_" + c.name)), 1e-7);
    const nlohmann::json a = read_json(dir / ("one_" + c.name) / "summary.json")["solver"],
                         b = read_json(dir / ("split_" + c.name) / "summary.json")["solver"];
    EXPECT_GT(a["iterations"].get<double>(), 10.0) << "the solves did work";
    EXPECT_NEAR(b["iterations"].get<double>(), a["iterations"].get<double>(), 0.1 * a["iterations"].get<double>());
  }
  write_file_bytes(dir / "cfg.toml", "[model]\nname = \"poisson\"\n[grid]\nnx = 16\nboundary = \"neumann\"\n[solver]\nmethod = \"cg\"\n" + run);
  const Outcome singular = run_ranks(2, {"run", dir.str("cfg.toml"), "--out", dir.str("singular")});
  EXPECT_NE(singular.status, 0);
  EXPECT_TRUE(contains(singular.output, "fixed only up to a constant")) << singular.output;
}

// The wave equation with drops on 40 x 36 cells (`grid` adds nz), `time` added to [time].
std::string wave_config(const std::string& grid, const std::string& time) {
  return "[model]\nname = \"wave\"\n[model.params]\nc = 0.8\n[model.drops]\nevery = 7\nradius = 2.5\n"
         "[grid]\nnx = 40\nny = 36\n" + grid +
         "boundary = { left = { kind = \"dirichlet\", value = 0.0 }, right = \"neumann\", bottom = \"periodic\", top = \"periodic\"" +
         (grid.empty() ? "" : ", front = \"neumann\", back = { kind = \"dirichlet\", value = 0.0 }") + " }\n"
         "[time]\ndt = 0.5\nsteps = 60\n" + time +
         "[initial]\nu = { value = 0.0, shapes = [{ shape = \"disc\", radius = 6.0, value = 1.0 }] }\n"
         "[output]\nformats = [\"npy\"]\nevery = 20\n[run]\nbackend = \"serial\"\nprecision = \"f64\"\nprogress = false\n";
}

// The wave equation with drops falling on the whole grid: explicit over 3 ranks in 2D and 4 in 3D, one
// process's result bit for bit (the drops drawn alike on every rank, each placing its part of the dent);
// Crank-Nicolson by CG over 2 ranks within the solves' tolerance; a checkpoint written over 2 ranks
// (the previous level gathered, shape (1, ny, nx)) continues over 3 to the run straight through, bit for
// bit; Crank-Nicolson by multigrid over 2 ranks within the solves' tolerance.
TEST_F(MpiRun, TheWaveEquationRunsOverRanks) {
  ScratchDir dir;
  const auto wave = wave_config;
  const std::vector<SplitCase> cases{
      {"flat", wave("", ""), 3, true},
      {"deep", wave("nz = 6\n", ""), 4, true},
      {"cn", wave("", "scheme = \"crank_nicolson\"\n[solver]\nmethod = \"cg\"\ntol = 1e-11\n"), 2, false}};
  for (const SplitCase& c : cases) {
    SCOPED_TRACE(c.name);
    write_file_bytes(dir / "cfg.toml", c.text);
    ASSERT_TRUE(one_and_split(dir, c.name, c.ranks).ok());
    if (c.exact) {
      expect_same_outputs(dir / ("one_" + c.name), dir / ("split_" + c.name));
      EXPECT_GE(overlapped_exchanges(dir / ("split_" + c.name)), 60) << "the explicit scheme overlaps its exchanges";
    } else
      EXPECT_LT(largest_difference(dir / ("one_" + c.name), dir / ("split_" + c.name)), 1e-8);
    if (c.name == "deep") continue;
    const fs::path halfway = continued_over_other_ranks(dir, c.name, 30);
    EXPECT_EQ(io::read_npy(halfway / "extra_previous.npy").shape, (std::vector<std::size_t>{1, 36, 40}));
    expect_files_near(dir / ("one_" + c.name), dir / ("three_" + c.name), {"u_000040.npy", "u_000060.npy"}, c.exact ? 0.0 : 1e-8);
  }
  write_file_bytes(dir / "cfg.toml", wave("", "scheme = \"crank_nicolson\"\n[solver]\nmethod = \"multigrid\"\ntol = 1e-11\n"));
  ASSERT_TRUE(one_and_split(dir, "mg", 2).ok());
  EXPECT_LT(largest_difference(dir / "one_mg", dir / "split_mg"), 1e-8);
}

// Keller-Segel over ranks: the parabolic variant one process's result bit for bit (3 ranks in 2D, 4 in
// 3D), with the growth warning printed once, at the same step; the elliptic variant by CG (2 ranks)
// within the solves' tolerance, its solved c carried by a checkpoint over 2 ranks into a run over 3.
TEST_F(MpiRun, KellerSegelRunsOverRanks) {
  ScratchDir dir;
  // c's peak draws n toward it: max n grows past the warning's factor by step 20.
  auto ks = [](const std::string& model, const std::string& grid, const std::string& mu) {
    return "[model]\nname = \"keller_segel\"\n" + model + "[model.params]\nchi = 1.0\n"
           "[grid]\nnx = 30\nny = 26\n" + grid + "[time]\ndt = 1e-5\nsteps = 60\n"
           "[initial]\nn = { preset = \"gaussian\", amplitude = 60.0, sigma2 = 0.05, mu = " + mu + " }\n"
           "c = { preset = \"gaussian\", amplitude = 5.0, sigma2 = 0.02, mu = " + mu + " }\n"
           "[output]\nformats = [\"npy\"]\nevery = 20\n[run]\nbackend = \"serial\"\nprecision = \"f64\"\nprogress = false\n";
  };
  const std::vector<SplitCase> cases{
      {"flat", ks("growth_warning = 1.2\n", "", "[0.4, 0.55]"), 3, true},
      {"deep", ks("growth_warning = 1.2\n", "nz = 6\n", "[0.4, 0.55, 0.5]"), 4, true},
      {"elliptic", ks("variant = \"elliptic\"\ngrowth_warning = 1.02\n", "", "[0.4, 0.55]") + "[solver]\nmethod = \"cg\"\ntol = 1e-11\n", 2,
       false}};
  for (const SplitCase& c : cases) {
    SCOPED_TRACE(c.name);
    write_file_bytes(dir / "cfg.toml", c.text);
    const Runs r = one_and_split(dir, c.name, c.ranks);
    ASSERT_TRUE(r.ok());
    if (c.exact) {
      expect_same_outputs(dir / ("one_" + c.name), dir / ("split_" + c.name));
      EXPECT_GE(overlapped_exchanges(dir / ("split_" + c.name)), 60) << "the explicit scheme overlaps its exchanges";
    } else
      EXPECT_LT(largest_difference(dir / ("one_" + c.name), dir / ("split_" + c.name)), 1e-8);
    // The warning's line ("pdex: warning at step 20: max n = ...") as one process prints it, once.
    const auto line = [](const std::string& out) {
      const std::size_t at = out.find("times its initial maximum");
      return at == std::string::npos ? std::string() : out.substr(out.rfind('\n', at) + 1, 40);
    };
    ASSERT_FALSE(line(r.one.output).empty()) << r.one.output;
    EXPECT_EQ(line(r.split.output), line(r.one.output)) << r.split.output;
    EXPECT_EQ(r.split.output.find("times its initial maximum", r.split.output.find("times its initial maximum") + 1), std::string::npos)
        << "warned more than once: " << r.split.output;
  }
  write_file_bytes(dir / "cfg.toml", cases[2].text);
  const fs::path halfway = continued_over_other_ranks(dir, "elliptic", 30);
  EXPECT_EQ(io::read_npy(halfway / "extra_state.npy").shape, (std::vector<std::size_t>{2, 26, 30}));
  expect_files_near(dir / "one_elliptic", dir / "three_elliptic", {"n_000060.npy", "c_000060.npy"}, 1e-8);
}

// Chemotaxis-Stokes (seed 002) over 3 ranks, its pressure by CG, S varying per cell (its ghost ring cut
// with the blocks, as is phi's): every field, P included, within the solves' tolerance of one process,
// and a checkpoint over 2 ranks (P gathered) continued over 3 likewise.
TEST_F(MpiRun, ChemotaxisStokesRunsOverRanks) {
  ScratchDir dir;
  write_file_bytes(dir / "cfg.toml", "[model]\nname = \"chemotaxis_stokes\"\n[model.S]\nxx = { value = 1.0, noise = 0.2, seed = 3 }\n"
                                     "[grid]\nnx = 30\nny = 26\n[time]\ndt = 1e-7\nsteps = 40\n"
                                     "[solver]\nmethod = \"cg\"\ntol = 1e-12\n"
                                     "[output]\nformats = [\"npy\"]\nevery = 20\n[run]\nbackend = \"serial\"\nprecision = \"f64\"\nprogress = false\n");
  ASSERT_TRUE(one_and_split(dir, "stokes", 3).ok());
  EXPECT_EQ(file_names(dir / "one_stokes"), file_names(dir / "split_stokes"));
  EXPECT_LT(largest_difference(dir / "one_stokes", dir / "split_stokes"), 1e-8);
  const io::NpyArray p = io::read_npy(dir / "one_stokes" / "P_000040.npy");
  EXPECT_GT(*std::max_element(p.data.begin(), p.data.end()) - *std::min_element(p.data.begin(), p.data.end()), 1e-3) << "P is not flat";
  const fs::path halfway = continued_over_other_ranks(dir, "stokes", 20);
  EXPECT_EQ(io::read_npy(halfway / "extra_P.npy").shape, (std::vector<std::size_t>{1, 26, 30}));
  expect_files_near(dir / "one_stokes", dir / "three_stokes", {"n_000040.npy", "u1_000040.npy", "P_000040.npy"}, 1e-8);
}

// The curvature flows of seed 003 over ranks: mean-curvature flow by Merson (3 ranks) and Willmore flow,
// whose w gets its shared ghosts between its two passes, by Merson (4 ranks), one process's result and
// steps bit for bit; the manufactured-solution verification is refused.
TEST_F(MpiRun, CurvatureFlowsRunOverRanks) {
  ScratchDir dir;
  auto flow = [](const std::string& name, const std::string& t_end) {
    return "[model]\nname = \"" + name + "\"\n[grid]\nnx = 32\nny = 28\ndx = 0.125\nx0 = -2.0\ny0 = -1.75\n"
           "boundary = { left = \"neumann\", right = { kind = \"dirichlet\", value = 0.0 }, bottom = \"periodic\", top = \"periodic\" }\n"
           "[time]\nscheme = \"merson\"\ntol = 1e-6\nt_end = " + t_end + "\n"
           "[initial]\nphi = { preset = \"radial_sine\", k = 1.5 }\n"
           "[output]\nformats = [\"npy\"]\n[run]\nbackend = \"serial\"\nprogress = false\n";
  };
  const std::vector<std::pair<std::string, int>> cases{{"mean_curvature", 3}, {"willmore", 4}};
  for (const auto& [name, ranks] : cases) {
    SCOPED_TRACE(name);
    write_file_bytes(dir / "cfg.toml", flow(name, name == "willmore" ? "0.0005" : "0.2"));
    ASSERT_TRUE(one_and_split(dir, name, ranks).ok());
    expect_same_outputs(dir / ("one_" + name), dir / ("split_" + name));
    const nlohmann::json a = read_json(dir / ("one_" + name) / "summary.json"), b = read_json(dir / ("split_" + name) / "summary.json");
    EXPECT_GT(a["steps"].get<int64_t>(), 10) << "the flow took steps";
    EXPECT_EQ(a["steps"], b["steps"]);
  }
  write_file_bytes(dir / "cfg.toml", "[model]\nname = \"mean_curvature\"\nforcing = \"manufactured\"\n[grid]\nnx = 16\nboundary = \"neumann\"\n"
                                     "[time]\nt_end = 0.01\n[run]\nbackend = \"serial\"\nprogress = false\n");
  const Outcome m = run_ranks(2, {"run", dir.str("cfg.toml"), "--out", dir.str("manufactured")});
  EXPECT_NE(m.status, 0);
  EXPECT_TRUE(contains(m.output, "runs with one process")) << m.output;
}

// CUDA ranks (one device each, or sharing the one there is): the one-GPU run's result bit for bit, 2D
// and 3D, f32 and f64, forward Euler and Merson, built-in and text models (whose NVRTC stages overlap
// the exchange box by box), heat and the wave equation in 3D; the theta scheme's solves within their
// tolerance.
TEST_F(MpiRun, GpuRanksGiveTheOneGpuResult) {
  if (!backend_available(Backend::cuda)) GTEST_SKIP() << "no CUDA device: " << backend_unavailable_reason(Backend::cuda);
  ScratchDir dir;
  std::string deep = mixed_sides_config("nz = 6\n");
  const std::string dt = "dt = 1.0";
  deep.replace(deep.find(dt), dt.size(), "dt = 0.5");
  std::string merson = deep;
  const std::string steps = "steps = 60";
  merson.replace(merson.find(steps), steps.size(), "t_end = 30.0\nscheme = \"merson\"");
  const std::string text_model = "[model]\nname = \"equations\"\npreset = \"gray_scott\"\n" + merson.substr(merson.find("[grid]"));
  const std::vector<std::pair<std::string, std::string>> cases{
      {"flat", mixed_sides_config()}, {"deep", deep}, {"merson", merson}, {"text", text_model},
      {"heat", heat_config()},         {"wave", wave_config("nz = 6\n", "")}};
  for (const auto& [name, text] : cases)
    for (const std::string precision : {"f32", "f64"}) {
      SCOPED_TRACE(name + " " + precision);
      write_file_bytes(dir / "cfg.toml", text);
      const std::vector<std::string> args{"run", dir.str("cfg.toml"), "--backend", "cuda", "--precision", precision};
      auto with_out = [&](const std::string& out) {
        std::vector<std::string> a = args;
        a.insert(a.end(), {"--out", dir.str(out)});
        return a;
      };
      ASSERT_EQ(run_pdex(with_out("one_" + name + precision)).status, 0);
      const Outcome o = run_ranks(2, with_out("two_" + name + precision));
      ASSERT_EQ(o.status, 0) << o.output;
      expect_same_outputs(dir / ("one_" + name + precision), dir / ("two_" + name + precision));
      // Page-locked host memory, or the device's where the MPI library reads it (CUDA-aware).
      const std::string through = read_json(dir / ("two_" + name + precision) / "summary.json")["ranks"]["exchange_through"];
      EXPECT_TRUE(through == "pinned host memory" || through == "device memory") << through;
      EXPECT_GT(overlapped_exchanges(dir / ("two_" + name + precision)), 0);
    }
  // The theta scheme's solves over CUDA ranks (block_sweeps.hpp's colour sweeps on the device, the
  // products over boxes), within the solves' tolerance of one GPU's, every product or cycle overlapping.
  std::string theta = mixed_sides_config();
  theta.replace(theta.find(steps), steps.size(), "steps = 10\nscheme = \"theta\"");
  for (const std::string method : {"cg", "multigrid", "sor"}) {
    SCOPED_TRACE(method);
    write_file_bytes(dir / "cfg.toml", theta + "[solver]\ntol = 1e-11\nmax_iter = 20000\nmethod = \"" + method + "\"\n");
    const std::vector<std::string> args{"run", dir.str("cfg.toml"), "--backend", "cuda", "--precision", "f64", "--out"};
    auto with_out = [&](const std::string& out) {
      std::vector<std::string> a = args;
      a.push_back(dir.str(out));
      return a;
    };
    ASSERT_EQ(run_pdex(with_out("one_" + method)).status, 0);
    const Outcome o = run_ranks(2, with_out("two_" + method));
    ASSERT_EQ(o.status, 0) << o.output;
    EXPECT_LT(largest_difference(dir / ("one_" + method), dir / ("two_" + method)), 1e-8);
    const nlohmann::json split = read_json(dir / ("two_" + method) / "summary.json")["solver"];
    EXPECT_EQ(split["unconverged"], 0);
    EXPECT_GE(overlapped_exchanges(dir / ("two_" + method)), split["iterations"].get<int>());
  }
}

// A checkpoint written over 2 ranks continues over 3 to the result of one process straight through, bit
// for bit, for forward Euler and for Merson, whose clock travels in the checkpoint.
TEST_F(MpiRun, CheckpointsWrittenOverRanksContinueOverOtherRanks) {
  ScratchDir dir;
  std::string merson = mixed_sides_config();
  const std::string steps = "steps = 60";
  merson.replace(merson.find(steps), steps.size(), "t_end = 30.0\nscheme = \"merson\"");
  const std::vector<std::pair<std::string, std::string>> cases{{"euler", mixed_sides_config()}, {"merson", merson}};
  for (const auto& [name, text] : cases) {
    SCOPED_TRACE(name);
    write_file_bytes(dir / "cfg.toml", text);
    const std::string every = name == "euler" ? "output.checkpoint_every=30" : "output.checkpoint_every=15.0";
    // Merson lands on the checkpoint times: the run straight through takes them too.
    ASSERT_EQ(run_pdex({"run", dir.str("cfg.toml"), "--out", dir.str("one_" + name), "--set", every}).status, 0);
    const Outcome two = run_ranks(2, {"run", dir.str("cfg.toml"), "--out", dir.str("two_" + name), "--set", every});
    ASSERT_EQ(two.status, 0) << two.output;
    std::vector<std::string> saved = file_names(dir / ("two_" + name) / "checkpoints");
    std::erase_if(saved, [](const std::string& f) { return !f.starts_with("step_"); });
    ASSERT_GE(saved.size(), 2u);
    const fs::path halfway = dir / ("two_" + name) / "checkpoints" / saved.front();
    const Outcome three = run_ranks(3, {"run", dir.str("cfg.toml"), "--out", dir.str("three_" + name), "--restart", halfway.string()});
    ASSERT_EQ(three.status, 0) << three.output;
    const std::vector<std::string> last = file_names(dir / ("one_" + name));
    for (const std::string& f : last) {
      if (f.ends_with(".npy") && fs::exists(dir / ("three_" + name) / f) && !f.ends_with("_000000.npy")) {
        EXPECT_EQ(io::read_npy(dir / ("one_" + name) / f).data, io::read_npy(dir / ("three_" + name) / f).data) << f;
      }
    }
    EXPECT_EQ(read_json(dir / ("three_" + name) / "summary.json")["steps"], read_json(dir / ("one_" + name) / "summary.json")["steps"]);
  }
}

// pdex compare --ranks: the run in one process against the same over 3 ranks, no difference.
// Every dataset of a run's HDF5 file, by path (/steps/<step>/<field>, /params/<name>), and its XDMF text.
struct Hdf5Contents {
  std::map<std::string, pdex::testing::Dataset> datasets;
  std::string xdmf;
};
Hdf5Contents hdf5_contents(const fs::path& out) {
  Hdf5Contents c;
  const auto h5 = pdex::testing::open_h5(out / "fields.h5");
  if (h5 < 0) {
    ADD_FAILURE() << "no " << out / "fields.h5";
    return c;
  }
  for (const char* group : {"/steps", "/params"}) {
    // Under /steps a dataset is <step>/<field>, a level below the step's group; under /params, every link.
    std::vector<std::string> names;
    auto visit = [](hid_t, const char* name, const H5L_info_t*, void* found) -> herr_t {
      static_cast<std::vector<std::string>*>(found)->push_back(name);
      return 0;
    };
    if (H5Lexists(h5, group, H5P_DEFAULT) > 0) {
      const pdex::testing::H5Id g(H5Gopen2(h5, group, H5P_DEFAULT), H5Gclose);
      H5Lvisit(g, H5_INDEX_NAME, H5_ITER_INC, visit, &names);
    }
    if (std::string(group) == "/steps") std::erase_if(names, [](const std::string& n) { return n.find('/') == std::string::npos; });
    for (const std::string& n : names) c.datasets[std::string(group) + "/" + n] = pdex::testing::read_dataset(h5, std::string(group) + "/" + n);
  }
  c.xdmf = read_file_bytes(out / "fields.xmf");
  return c;
}

// Over ranks with parallel HDF5 every rank writes its block into the run's HDF5 file (rank 0 the
// parameters given per cell): the file holds one process's datasets bit for bit, in 2D (a noisy
// parameter, f64 and f32, 3 ranks) and 3D (4 ranks, .npy files gathered beside it).
TEST_F(MpiRun, EveryRankWritesItsBlockIntoTheHdf5File) {
  if (!io::writes_over_ranks()) GTEST_SKIP() << "this HDF5 library has no MPI-IO (install libhdf5-openmpi-dev and configure again)";
  ScratchDir dir;
  std::string flat = turing_config(40, 32, 100), deep = mixed_sides_config("nz = 6\n");
  const std::string npy = "formats = [\"npy\"]";
  flat.replace(flat.find(npy), npy.size(), "formats = [\"hdf5\"]\nevery = 25");
  deep.replace(deep.find(npy), npy.size(), "formats = [\"hdf5\", \"npy\"]\nevery = 20");
  deep.replace(deep.find("dt = 1.0"), 8, "dt = 0.5");
  struct Case {
    std::string name, config, precision;
    int ranks;
    std::size_t datasets;
  };
  for (const Case& c : {Case{"flat64", flat, "f64", 3, 5 * 2 + 1}, Case{"flat32", flat, "f32", 3, 5 * 2 + 1},
                        Case{"deep", deep, "f32", 4, 4 * 2}}) {
    SCOPED_TRACE(c.name);
    write_file_bytes(dir / "cfg.toml", c.config);
    if (!one_and_split(dir, c.name, c.ranks, {"--precision", c.precision}).ok()) continue;
    const Hdf5Contents one = hdf5_contents(dir / ("one_" + c.name)), split = hdf5_contents(dir / ("split_" + c.name));
    EXPECT_EQ(one.datasets.size(), c.datasets);
    ASSERT_EQ(split.datasets.size(), one.datasets.size());
    for (const auto& [path, d] : one.datasets) {
      const pdex::testing::Dataset& e = split.datasets.at(path);
      EXPECT_EQ(e.dims, d.dims) << path;
      EXPECT_EQ(e.f32, d.f32) << path;
      EXPECT_TRUE(e.bytes == d.bytes) << path;
    }
    EXPECT_EQ(split.xdmf, one.xdmf);
    if (c.name == "deep") expect_same_outputs(dir / "one_deep", dir / "split_deep");
    for (const auto& f : fs::directory_iterator(dir / ("split_" + c.name))) EXPECT_NE(f.path().extension(), ".partial");
  }
}

TEST_F(MpiRun, CompareTakesARunOverRanks) {
  ScratchDir dir;
  write_file_bytes(dir / "cfg.toml", mixed_sides_config());
  const Outcome o = run_pdex({"compare", dir.str("cfg.toml"), "--backends", "serial", "--ranks", "3", "--out", dir.str("cmp")},
                             "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none "
                             "PDEX_MPIRUN='mpirun --oversubscribe --bind-to none' ");
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_TRUE(contains(o.output, "time ratio serial / serial, 3 ranks")) << o.output;
  const nlohmann::json j = read_json(dir / "cmp" / "compare.json");
  EXPECT_EQ(j["runs"][1]["ranks"], 3);
  for (const char* f : {"u", "v"}) EXPECT_EQ(j["differences"][f]["linf"].get<double>(), 0.0) << f;
}

// Discs of 1e300 in the corner of rank 3's block (of 2 x 2): u v^2 overflows there only, and the run
// stops naming the cell one process names, with the outputs before it written.
TEST_F(MpiRun, ABlowUpOnOneRankEndsTheRunAsOneProcessDoes) {
  ScratchDir dir;
  const std::string disc = "shapes = [{ shape = \"disc\", center = [35.0, 31.0], radius = 2.0, value = 1e300 }]";
  write_file_bytes(dir / "cfg.toml", "[model]\nname = \"gray_scott\"\n[grid]\nnx = 40\nny = 36\n"
                                     "[time]\ndt = 1.0\nsteps = 60\n[initial]\nu = { value = 1.0, " + disc + " }\n"
                                     "v = { value = 0.25, " + disc + " }\n[output]\nformats = [\"npy\"]\nevery = 10\n"
                                     "[run]\nbackend = \"serial\"\nprogress = false\n");
  const Outcome one = run_pdex({"run", dir.str("cfg.toml"), "--out", dir.str("one")});
  ASSERT_EQ(one.status, 3) << one.output;
  const Outcome four = run_ranks(4, {"run", dir.str("cfg.toml"), "--out", dir.str("four")});
  EXPECT_EQ(four.status, 3) << four.output;
  const auto cell = one.output.find("at cell x=");
  ASSERT_NE(cell, std::string::npos) << one.output;
  EXPECT_TRUE(contains(four.output, one.output.substr(cell, one.output.find('.', cell) - cell))) << four.output;
  EXPECT_EQ(read_json(dir / "four" / "summary.json")["status"], "failed");
  EXPECT_TRUE(fs::exists(dir / "four" / "u_000000.npy"));
}

// pdex bench scaling over 1 and 2 ranks, weak and strong, with OpenMP threads beside: a row each, the
// weak grid twice as tall over 2 ranks, the one-rank rows the reference of the efficiencies.
TEST_F(MpiRun, TheScalingBenchmarkRunsWeakAndStrong) {
  ScratchDir dir;
  auto bench = [&](const std::string& example, const std::vector<std::string>& args) {
    std::vector<std::string> a{"bench", "scaling", "--backend", "serial", "--config", std::string(PDEX_SOURCE_DIR) + "/examples/" + example};
    a.insert(a.end(), args.begin(), args.end());
    return run_pdex(a, "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none "
                       "PDEX_MPIRUN='mpirun --oversubscribe --bind-to none' ");
  };
  const Outcome o = bench("gray_scott_spots.toml", {"--ranks", "2", "--weak", "32", "--strong", "48", "--steps", "10", "--dir", dir.str("runs"),
                                                    "--json", dir.str("scaling.json")});
  ASSERT_EQ(o.status, 0) << o.output;
  const nlohmann::json rows = read_json(dir / "scaling.json")["rows"];
  ASSERT_EQ(rows.size(), 6u) << rows.dump();
  for (const auto& r : rows) {
    EXPECT_GT(r["stepping_seconds"].get<double>(), 0.0) << r.dump();
    if (r["ranks"] == 1) {
      EXPECT_DOUBLE_EQ(r["efficiency"].get<double>(), 1.0) << r.dump();
    }
    if (r["mode"] == "weak") {
      EXPECT_EQ(r["grid"][1], 32 * r["ranks"].get<int>()) << r.dump();
    }
    if (r["mode"] == "strong" && r["ranks"] == 2) {
      EXPECT_GT(r["exchange_share"].get<double>(), 0.0) << r.dump();
    }
    EXPECT_EQ(r["schedule"], "one pass a step, by cells") << r.dump();  // small grids, and blocks
  }
  EXPECT_TRUE(contains(o.output, "efficiency")) << o.output;
  // --solve: a multigrid Poisson solve a run, its cycles the same over 1 and 2 ranks.
  const Outcome solve = bench("poisson_torsion.toml", {"--solve", "--ranks", "2", "--weak", "64", "--strong", "0", "--dir", dir.str("solves"),
                                                      "--json", dir.str("solve.json")});
  ASSERT_EQ(solve.status, 0) << solve.output;
  const nlohmann::json solves = read_json(dir / "solve.json")["rows"];
  ASSERT_EQ(solves.size(), 2u) << solves.dump();
  EXPECT_GT(solves[0]["iterations"].get<int>(), 3) << solves.dump();
  EXPECT_NEAR(solves[1]["iterations"].get<double>(), solves[0]["iterations"].get<double>(), 1.0) << solves.dump();
}

// Refused on every rank alike, printed once, before any step.
TEST_F(MpiRun, WhatDoesNotRunOverRanksIsRefusedOnce) {
  ScratchDir dir;
  write_file_bytes(dir / "cfg.toml", mixed_sides_config());
  struct Case {
    std::vector<std::string> sets;
    std::string expected;
  };
  for (const Case& c : {Case{{"time.on_blowup=\"retry\""}, "\"retry\" runs in one process; over MPI ranks a blow-up stops the run"},
                        Case{{"run.ranks=[3, 1]"}, "makes 3 blocks, but the job has 2 ranks"},
                        Case{{"grid.nx=1", "run.ranks=[2, 1]"}, "leaves a block of the grid (1 x 36) without cells"}}) {
    std::vector<std::string> args{"run", dir.str("cfg.toml"), "--out", dir.str("out")};
    for (const std::string& s : c.sets) args.insert(args.end(), {"--set", s});
    const Outcome o = run_ranks(2, args);
    EXPECT_NE(o.status, 0) << o.output;
    const auto first = o.output.find(c.expected);
    EXPECT_NE(first, std::string::npos) << o.output;
    EXPECT_EQ(o.output.find(c.expected, first + 1), std::string::npos) << "printed more than once: " << o.output;
  }
  const Outcome sweep = run_ranks(2, {"sweep", dir.str("cfg.toml"), "--param", "F=0.03,0.04"});
  EXPECT_NE(sweep.status, 0);
  EXPECT_TRUE(contains(sweep.output, "the other commands run in one process")) << sweep.output;
  const Outcome fmg = run_ranks(2, {"run", std::string(PDEX_SOURCE_DIR) + "/examples/poisson_torsion.toml", "--out", dir.str("fmg"),
                                    "--set", "solver.fmg=true"});
  EXPECT_NE(fmg.status, 0);
  EXPECT_TRUE(contains(fmg.output, "solver.fmg: full multigrid runs with one process")) << fmg.output;
}

}  // namespace
}  // namespace pdex::app_testing
