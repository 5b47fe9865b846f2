// `pdex run` on a 3D grid (grid.nz > 1): the volume as .npy [z][y][x] and VTK image data, PNG sections
// (output.slice, output.projection), and summary.json's grid and z sides.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "app_test_support.hpp"
#include "pdex/io/npy.hpp"

namespace pdex::app_testing {
namespace {

std::string gray_scott_3d_config() {
  std::string text = gray_scott_config("slice = [{ axis = \"z\", index = 1 }, { axis = \"x\" }]\nprojection = \"max\"\n");
  const std::string npy_only = "formats = [\"npy\"]";
  text.replace(text.find(npy_only), npy_only.size(), "formats = [\"npy\", \"png\", \"vtk\"]");
  const std::string unit_step = "dt = 1.0";  // the 3D limit is 1/(6 Du) = 0.79
  text.replace(text.find(unit_step), unit_step.size(), "dt = 0.5");
  const std::string periodic = "boundary = \"periodic\"";
  text.replace(text.find(periodic), periodic.size(),
               "nz = 6\nboundary = { left = \"periodic\", right = \"periodic\", bottom = \"periodic\", top = \"periodic\", "
               "front = \"neumann\", back = { kind = \"dirichlet\", value = 0.5 } }");
  return text;
}

TEST(Run3d, WritesTheVolumeItsSectionsAndItsGrid) {
  ScratchDir dir;
  write_file_bytes(dir / "cfg.toml", gray_scott_3d_config());
  const Outcome o = run_pdex({"run", dir.str("cfg.toml"), "--out", dir.str("out")});
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_TRUE(contains(o.output, "32 x 24 x 6")) << o.output;

  // The square of the initial state is a cube in 3D: 8 cells wide, as deep as the grid (6 planes).
  const io::NpyArray u0 = io::read_npy(dir / "out" / "u_000000.npy");
  ASSERT_EQ(u0.shape, (std::vector<std::size_t>{6, 24, 32}));
  for (int k = 0; k < 6; ++k) EXPECT_NEAR(u0.data[std::size_t((k * 24 + 12) * 32 + 16)], 0.5, 0.011) << "plane " << k;
  const io::NpyArray u = io::read_npy(dir / "out" / "u_000020.npy");
  EXPECT_EQ(u.shape, (std::vector<std::size_t>{6, 24, 32}));

  for (const char* png : {"u_000020_z1.png", "u_000020_x16.png", "u_000020_zmax.png", "v_000000_z1.png"})
    EXPECT_TRUE(fs::exists(dir / "out" / png)) << png;
  EXPECT_FALSE(fs::exists(dir / "out" / "u_000020.png"));
  const std::string vti = read_file_bytes(dir / "out" / "fields_000020.vti");
  EXPECT_TRUE(contains(vti, "WholeExtent=\"0 31 0 23 0 5\"")) << vti.substr(0, 400);

  const nlohmann::json s = read_json(dir / "out" / "summary.json");
  EXPECT_EQ(s["grid"]["nz"], 6);
  EXPECT_EQ(s["config"]["grid"]["boundary"]["back"]["u"]["kind"], "dirichlet");
  EXPECT_EQ(s["config"]["grid"]["boundary"]["front"]["v"]["kind"], "neumann");
  EXPECT_EQ(s["schedule"]["name"], "one pass a step, by cells");
}

// Serial and OpenMP write the same volume, bit for bit.
TEST(Run3d, OpenMPWritesTheSerialVolume) {
  ScratchDir dir;
  write_file_bytes(dir / "cfg.toml", gray_scott_3d_config());
  for (const char* backend : {"serial", "openmp"})
    ASSERT_EQ(run_pdex({"run", dir.str("cfg.toml"), "--out", dir.str(backend), "--backend", backend}).status, 0) << backend;
  EXPECT_EQ(read_file_bytes(dir / "serial" / "u_000020.npy"), read_file_bytes(dir / "openmp" / "u_000020.npy"));
}

// A diffusion tensor on a 3D grid from its six keys, and the along-flow preset with a z velocity: the
// summary carries the z entries; the preset's tensor diffuses along the flow (u spreads along z faster
// than across it).
TEST(Run3d, TakesADiffusionTensorWithItsZEntries) {
  ScratchDir dir;
  std::string text = gray_scott_3d_config();
  const std::string run = "[run]";
  text.replace(text.find(run), run.size(),
               "[model.diffusion]\nkind = \"tensor\"\nxx = 1.0\nxy = 0.1\nyy = 0.8\nxz = -0.2\nyz = 0.15\nzz = 0.6\n[run]");
  write_file_bytes(dir / "cfg.toml", text);
  const Outcome o = run_pdex({"run", dir.str("cfg.toml"), "--out", dir.str("out")});
  ASSERT_EQ(o.status, 0) << o.output;
  const nlohmann::json s = read_json(dir / "out" / "summary.json");
  EXPECT_EQ(s["config"]["model"]["diffusion"]["xz"], -0.2);
  EXPECT_EQ(s["config"]["model"]["diffusion"]["zz"], 0.6);

  ScratchDir flow;
  write_file_bytes(flow / "cfg.toml",
                   "[model]\nname = \"turing\"\n[model.params]\ns = 0.0\nDu = 2.0\n[model.advection]\nscheme = \"none\"\n"
                   "velocity = [0.0, 0.0, 1.0]\n[model.diffusion]\nkind = \"tensor\"\npreset = \"along_flow\"\nratio = 10.0\n"
                   "[grid]\nnx = 16\nny = 16\nnz = 16\nboundary = \"periodic\"\n[time]\ndt = 0.01\nsteps = 200\n"
                   "[initial]\nu = { value = 0.0, shapes = [{ shape = \"square\", size = 2.0, value = 1.0 }] }\nv = 0.0\n"
                   "[output]\nformats = [\"npy\"]\n[run]\nbackend = \"serial\"\nprogress = false\n");
  const Outcome f = run_pdex({"run", flow.str("cfg.toml"), "--out", flow.str("out")});
  ASSERT_EQ(f.status, 0) << f.output;
  const io::NpyArray u = io::read_npy(flow / "out" / "u_000200.npy");
  const auto at = [&](int i, int j, int k) { return u.data[std::size_t((k * 16 + j) * 16 + i)]; };
  EXPECT_GT(at(8, 8, 12), 5 * at(12, 8, 8)) << "along z " << at(8, 8, 12) << ", across " << at(12, 8, 8);
  EXPECT_GT(at(8, 8, 12), 5 * at(8, 12, 8));
}

}  // namespace
}  // namespace pdex::app_testing
