// `mpirun -n P pdex run` (app/ranks.hpp, docs/parallel.md): the grid split into blocks, one per rank,
// their shared ghosts filled by the halo exchange. Forward Euler's results are those of one process
// bit for bit, for 1 to 4 ranks (3: an uneven split), periodic, Neumann and Dirichlet sides across the
// ranks' borders, 2D and 3D grids, automatic and given process grids, on the CPU and (with a device)
// on CUDA ranks; the summary names each rank's
// block and times. The theta scheme's solves over ranks (CG, BiCGStab) reach one process's result within
// their tolerance. A blow-up on one rank ends every rank with the first bad cell named, as one process
// does; what does not run over ranks is refused once, before any step.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "app_test_support.hpp"
#include "pdex/core/executor.hpp"
#include "pdex/io/npy.hpp"

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
      }
      EXPECT_EQ(s["fields"]["u"]["min"], read_json(one / "summary.json")["fields"]["u"]["min"]);
    }
  }
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
// result bit for bit over 3 ranks.
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
                                {"rk4_3d", to_time(deep, "rk4"), {}}};
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

// A text model (model.name = "equations") with a feed rate that varies along x, a tensor flux, a side
// whose value is an expression of y and t, and a 3D text model, by rk4 and forward Euler: the one-process
// result bit for bit over 4 ranks.
TEST_F(MpiRun, TextModelsGiveTheOneProcessResult) {
  ScratchDir dir;
  const std::string model =
      "[model]\nname = \"equations\"\nspecies = [\"u\", \"v\"]\n[model.equations]\n"
      "u = \"div(tensor(Du, 0.3*Du, Du)*grad(u)) - u*v^2 + F*(1 - u)\"\nv = \"Dv*lap(v) + u*v^2 - (F + k)*v\"\n"
      "[model.params]\nDu = 0.2\nDv = 0.1\nF = \"0.03 + 0.01*x/L_x\"\nk = 0.0649\n";
  const std::string start = "[initial]\nu = { value = 1.0, noise = 0.1, seed = 1 }\nv = { value = 0.25, noise = 0.1, seed = 2 }\n"
                            "[output]\nformats = [\"npy\"]\n[run]\nbackend = \"serial\"\nprogress = false\nprecision = \"f64\"\n";
  const auto flat_diffusion = [](std::string text) {  // tensor(...) is 2D
    const std::string flux = "div(tensor(Du, 0.3*Du, Du)*grad(u))";
    return text.replace(text.find(flux), flux.size(), "Du*lap(u)");
  };
  const std::vector<std::pair<std::string, std::string>> cases{
      {"flat", model + "[grid]\nnx = 30\nny = 26\nboundary = { left = { kind = \"dirichlet\", value = \"0.5 + 0.1*sin(y)*t\" }, "
               "right = \"neumann\", bottom = \"periodic\", top = \"periodic\" }\n[time]\nscheme = \"rk4\"\ndt = 0.5\nt_end = 20.0\n" + start},
      {"deep", flat_diffusion(model) + "[grid]\nnx = 16\nny = 12\nnz = 8\nboundary = \"neumann\"\n[time]\ndt = 0.4\nsteps = 40\n" + start}};
  for (const auto& [name, text] : cases) {
    SCOPED_TRACE(name);
    write_file_bytes(dir / "cfg.toml", text);
    const Outcome one = run_pdex({"run", dir.str("cfg.toml"), "--out", dir.str("one_" + name)});
    ASSERT_EQ(one.status, 0) << one.output;
    const Outcome four = run_ranks(4, {"run", dir.str("cfg.toml"), "--out", dir.str("four_" + name)});
    ASSERT_EQ(four.status, 0) << four.output;
    expect_same_outputs(dir / ("one_" + name), dir / ("four_" + name));
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

// The theta scheme over ranks, its solves by CG and BiCGStab (Jacobi-preconditioned) with products summed
// over the ranks: the one-process result within the solves' tolerance, with the iterations one process
// takes within 10%, for 2, 3 and 4 ranks, 2D and 3D, built-in and text models; multigrid is refused.
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
                        Case{"text", text_model, "bicgstab", 3}}) {
    SCOPED_TRACE(c.name);
    write_file_bytes(dir / "cfg.toml", c.text + theta + "method = \"" + c.method + "\"\n");
    ASSERT_EQ(run_pdex({"run", dir.str("cfg.toml"), "--out", dir.str("one_" + c.name)}).status, 0);
    const Outcome o = run_ranks(c.ranks, {"run", dir.str("cfg.toml"), "--out", dir.str("split_" + c.name)});
    ASSERT_EQ(o.status, 0) << o.output;
    EXPECT_LT(largest_difference(dir / ("one_" + c.name), dir / ("split_" + c.name)), 1e-8);
    const nlohmann::json one = read_json(dir / ("one_" + c.name) / "summary.json")["solver"],
                         split = read_json(dir / ("split_" + c.name) / "summary.json")["solver"];
    EXPECT_EQ(split["solves"], one["solves"]);
    EXPECT_GT(one["iterations"].get<double>(), 30.0) << "the solves did work";
    EXPECT_NEAR(split["iterations"].get<double>(), one["iterations"].get<double>(), 0.1 * one["iterations"].get<double>());
    EXPECT_EQ(split["unconverged"], 0);
  }
  write_file_bytes(dir / "cfg.toml", flat + theta + "method = \"multigrid\"\n");
  const Outcome mg = run_ranks(2, {"run", dir.str("cfg.toml"), "--out", dir.str("mg")});
  EXPECT_NE(mg.status, 0);
  EXPECT_TRUE(contains(mg.output, "over MPI ranks the theta scheme solves by solver.method = \"cg\"")) << mg.output;
}

// Heat by forward Euler over 3 ranks: one process's result bit for bit; the Poisson problem by CG over 2
// ranks and heat's theta scheme by Jacobi-preconditioned CG over 4 ranks in 3D: within the solves'
// tolerance, with the iterations one process takes within 10%. A Poisson problem with no Dirichlet side
// (fixed only up to a constant) is refused.
TEST_F(MpiRun, HeatAndPoissonRunOverRanks) {
  ScratchDir dir;
  const std::string run = "[output]\nformats = [\"npy\"]\n[run]\nbackend = \"serial\"\nprogress = false\n";
  const std::string disc = "[initial]\nu = { value = 0.0, shapes = [{ shape = \"disc\", radius = 6.0, value = 100.0 }], noise = 1.0 }\n";
  const std::string sides = "boundary = { left = { kind = \"dirichlet\", value = 1.0 }, right = \"neumann\", bottom = \"periodic\", "
                            "top = \"periodic\" }\n";
  struct Case {
    std::string name, text;
    int ranks;
    bool exact;
  };
  const std::vector<Case> cases{
      {"heat", "[model]\nname = \"heat\"\n[model.params]\nD = 0.2\n[grid]\nnx = 40\nny = 36\n" + sides +
                   "[time]\ndt = 1.0\nsteps = 60\n" + disc + run, 3, true},
      {"poisson", "[model]\nname = \"poisson\"\n[model.params]\nf = { value = 1.0, noise = 0.5 }\n[grid]\nnx = 40\nny = 36\n" + sides +
                      "[solver]\nmethod = \"cg\"\ntol = 1e-11\n" + run, 2, false},
      {"theta", "[model]\nname = \"heat\"\n[grid]\nnx = 16\nny = 12\nnz = 8\nboundary = \"neumann\"\n[time]\nscheme = \"theta\"\n"
                    "dt = 2.0\nsteps = 10\n[solver]\nmethod = \"pcg\"\ntol = 1e-11\n" + disc + run, 4, false}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    write_file_bytes(dir / "cfg.toml", c.text);
    const Outcome one = run_pdex({"run", dir.str("cfg.toml"), "--out", dir.str("one_" + c.name)});
    ASSERT_EQ(one.status, 0) << one.output;
    const Outcome o = run_ranks(c.ranks, {"run", dir.str("cfg.toml"), "--out", dir.str("split_" + c.name)});
    ASSERT_EQ(o.status, 0) << o.output;
    if (c.exact) {
      expect_same_outputs(dir / ("one_" + c.name), dir / ("split_" + c.name));
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

// CUDA ranks (one device each, or sharing the one there is): the one-GPU run's result bit for bit, 2D
// and 3D, f32 and f64.
TEST_F(MpiRun, GpuRanksGiveTheOneGpuResult) {
  if (!backend_available(Backend::cuda)) GTEST_SKIP() << "no CUDA device: " << backend_unavailable_reason(Backend::cuda);
  ScratchDir dir;
  std::string deep = mixed_sides_config("nz = 6\n");
  const std::string dt = "dt = 1.0";
  deep.replace(deep.find(dt), dt.size(), "dt = 0.5");
  const std::vector<std::pair<std::string, std::string>> cases{{"flat", mixed_sides_config()}, {"deep", deep}};
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
      expect_same_fields(dir / ("one_" + name + precision), dir / ("two_" + name + precision), "000060");
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
  const Outcome o = run_pdex({"bench", "scaling", "--ranks", "2", "--weak", "32", "--strong", "48", "--steps", "10", "--backend", "serial",
                              "--config", std::string(PDEX_SOURCE_DIR) + "/examples/gray_scott_spots.toml", "--dir", dir.str("runs"),
                              "--json", dir.str("scaling.json")},
                             "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none "
                             "PDEX_MPIRUN='mpirun --oversubscribe --bind-to none' ");
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
  }
  EXPECT_TRUE(contains(o.output, "efficiency")) << o.output;
}

// Refused on every rank alike, printed once, before any step.
TEST_F(MpiRun, WhatDoesNotRunOverRanksIsRefusedOnce) {
  ScratchDir dir;
  write_file_bytes(dir / "cfg.toml", mixed_sides_config());
  struct Case {
    std::vector<std::string> sets;
    std::string expected;
  };
  for (const Case& c : {Case{{"time.scheme=\"theta\""}, "over MPI ranks the theta scheme solves by solver.method"},
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
  write_file_bytes(dir / "wave.toml", "[model]\nname = \"wave\"\n[grid]\nnx = 16\n[time]\ndt = 0.1\nsteps = 2\n"
                                      "[run]\nbackend = \"serial\"\nprogress = false\n");
  const Outcome wave = run_ranks(2, {"run", dir.str("wave.toml"), "--out", dir.str("wave")});
  EXPECT_NE(wave.status, 0);
  EXPECT_TRUE(contains(wave.output, "this model does not run over MPI ranks yet")) << wave.output;
  const Outcome sweep = run_ranks(2, {"sweep", dir.str("cfg.toml"), "--param", "F=0.03,0.04"});
  EXPECT_NE(sweep.status, 0);
  EXPECT_TRUE(contains(sweep.output, "the other commands run in one process")) << sweep.output;
}

}  // namespace
}  // namespace pdex::app_testing
