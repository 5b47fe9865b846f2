// A run's field files as ParaView, h5py and movie players read them (docs/outputs.md): the .vti series
// and its .pvd, the HDF5 file and its XDMF, each holding bitwise the values of the .npy of the same step;
// movies with a frame per output; colour bars; a restarted run's own series; bad keys refused.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "app_test_support.hpp"
#include "pdex/io/npy.hpp"
#include "pdex/io/png_writer.hpp"
#include "support/field_files_read.hpp"

namespace pdex::app_testing {
namespace {

using pdex::testing::appended_array;
using pdex::testing::bytes_of;
using pdex::testing::elements;

fs::path example(const std::string& name) { return fs::path(PDEX_SOURCE_DIR) / "examples" / (name + ".toml"); }

Outcome run_example(const std::string& name, const fs::path& out, std::vector<std::string> sets) {
  std::vector<std::string> args{"run", example(name).string(), "--backend", "openmp", "--out", out.string(), "--set", "run.progress=false"};
  for (const auto& s : sets) args.push_back("--set"), args.push_back(s);
  return run_pdex(args);
}

// The values of an f32 run's .npy as the floats they are.
std::string npy_floats(const fs::path& file) {
  const io::NpyArray a = io::read_npy(file);
  return bytes_of(std::vector<float>(a.data.begin(), a.data.end()));
}

TEST(OutputFormats, VtkAndHdf5HoldTheNpyValuesOfEveryOutput) {
  ScratchDir dir;
  const Outcome o = run_example("turing_spots", dir / "out", {"grid.nx=24", "grid.ny=16", "time.steps=20", "output.every=10",
                                                              "output.formats=[\"npy\", \"vtk\", \"hdf5\"]"});
  ASSERT_EQ(o.status, 0) << o.output;
  const fs::path out = dir / "out";
  const auto sum = read_json(out / "summary.json");
  EXPECT_EQ(sum["run_files"]["hdf5"], (out / "fields.h5").string());
  const double dt = sum["dt"];

  const auto datasets = elements(read_file_bytes(out / "fields.pvd"), "DataSet");
  ASSERT_EQ(datasets.size(), 3u);
  const auto h5 = pdex::testing::open_h5(out / "fields.h5");
  ASSERT_GE(h5, 0);
  for (int k = 0; k < 3; ++k) {
    char six[16], ten[16];
    std::snprintf(six, sizeof six, "%06d", 10 * k);
    std::snprintf(ten, sizeof ten, "%010d", 10 * k);
    EXPECT_EQ(datasets[std::size_t(k)].at("file"), std::string("fields_") + six + ".vti");
    EXPECT_DOUBLE_EQ(std::stod(datasets[std::size_t(k)].at("timestep")), 10 * k * dt);
    const auto vti = pdex::testing::read_vti(out / (std::string("fields_") + six + ".vti"));
    const auto arrays = elements(vti.header, "DataArray");
    ASSERT_EQ(arrays.size(), 3u) << "u, v and the parameter given per cell";
    EXPECT_EQ(arrays[2].at("Name"), "alpha");
    for (int f = 0; f < 2; ++f) {
      const std::string name = f == 0 ? "u" : "v";
      const std::string npy = npy_floats(out / (name + "_" + six + ".npy"));
      EXPECT_EQ(arrays[std::size_t(f)].at("Name"), name);
      EXPECT_TRUE(appended_array(vti.appended, std::stoul(arrays[std::size_t(f)].at("offset"))) == npy) << name << " at " << six;
      const auto d = pdex::testing::read_dataset(h5, std::string("/steps/") + ten + "/" + name);
      EXPECT_TRUE(d.f32);
      EXPECT_EQ(d.dims, (std::vector<hsize_t>{16, 24}));
      EXPECT_TRUE(d.bytes == npy) << name << " at " << ten;
    }
  }
  const auto alpha_vti = appended_array(pdex::testing::read_vti(out / "fields_000000.vti").appended,
                                        std::stoul(elements(pdex::testing::read_vti(out / "fields_000000.vti").header, "DataArray")[2].at("offset")));
  EXPECT_TRUE(pdex::testing::read_dataset(h5, "/params/alpha").bytes == alpha_vti) << "the parameter in HDF5 as in VTK";
  EXPECT_EQ(pdex::testing::read_xdmf(out / "fields.xmf").size(), 3u);
  for (const auto& e : fs::recursive_directory_iterator(dir.path()))
    EXPECT_EQ(e.path().string().find(".partial"), std::string::npos) << e.path();
}

bool have(const char* program) { return std::system((std::string("command -v ") + program + " >/dev/null 2>&1").c_str()) == 0; }

std::string probe(const fs::path& movie) {
  const Outcome p = run_pdex({}, "ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=codec_name,nb_read_frames "
                                 "-of csv=p=0 " + shell_quote(movie.string()) + "; true #");
  return p.output;
}

TEST(OutputFormats, AMovieHasAFramePerOutputAndPicturesTheirColourBar) {
  if (!have("ffmpeg") || !have("ffprobe")) GTEST_SKIP() << "ffmpeg and ffprobe are not installed (apt-get install ffmpeg)";
  ScratchDir dir;
  const Outcome o = run_example("gray_scott_spots", dir / "out", {"grid.nx=40", "grid.ny=30", "time.steps=20", "output.every=5",
                                                                  "output.formats=[\"movie\", \"png\"]", "output.colorbar=true",
                                                                  "output.movie={ field = \"v\", formats = [\"mp4\", \"gif\"], fps = 10 }"});
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_EQ(probe(dir / "out" / "v.mp4"), "h264,5\n");
  EXPECT_EQ(probe(dir / "out" / "v.gif"), "gif,5\n");
  int w = 0, h = 0;
  io::read_png_rgb(dir / "out" / "u_000020.png", w, h);
  EXPECT_GT(w, 40) << "the colour bar is right of the field";
}

TEST(OutputFormats, ARestartedRunWritesItsOwnSeries) {
  ScratchDir dir;
  const std::vector<std::string> sets{"grid.nx=16", "grid.ny=16", "time.steps=20", "output.every=10", "output.checkpoint_every=10",
                                      "output.formats=[\"vtk\", \"hdf5\"]"};
  ASSERT_EQ(run_example("gray_scott_spots", dir / "out", sets).status, 0);
  const fs::path cp = dir / "out" / "checkpoints" / "step_0000000010";
  std::vector<std::string> args{"run", example("gray_scott_spots").string(), "--backend", "openmp", "--out", (dir / "out").string(),
                                "--restart", cp.string()};
  for (const auto& s : sets) args.push_back("--set"), args.push_back(s);
  const Outcome o = run_pdex(args);
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_TRUE(fs::exists(dir / "out" / "fields.h5")) << "the first part's file stays";
  EXPECT_TRUE(fs::exists(dir / "out" / "fields_from_10.h5"));
  EXPECT_EQ(elements(read_file_bytes(dir / "out" / "fields_from_10.pvd"), "DataSet").size(), 1u) << "step 20";
  EXPECT_EQ(elements(read_file_bytes(dir / "out" / "fields.pvd"), "DataSet").size(), 3u);
}

TEST(OutputFormats, BadFormatKeysAreRefusedNamingTheKey) {
  ScratchDir dir;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"output.formats=[\"vtkk\"]", "output.formats"},
      {"output.movie={ field = \"u\" }", "output.movie"},
      {"output.formats=[\"movie\"], output.fields=[\"u\"], output.movie={ field = \"v\" }", "output.movie.field"},
      {"output.formats=[\"movie\"], output.movie={ fps = 0 }", "output.movie.fps"},
      {"output.formats=[\"movie\"], output.movie={ formats = [\"avi\"] }", "output.movie.formats"},
  };
  for (const auto& [set, key] : cases) {
    std::vector<std::string> sets;
    std::string rest = set;
    for (std::size_t at; (at = rest.find(", output.")) != std::string::npos; rest = rest.substr(at + 2)) sets.push_back(rest.substr(0, at));
    sets.push_back(rest);
    const Outcome o = run_example("gray_scott_spots", dir / "out", sets);
    EXPECT_EQ(o.status, 2) << set << ": " << o.output;
    EXPECT_TRUE(contains(o.output, "key '" + key + "'")) << set << ": " << o.output;
  }
}

}  // namespace
}  // namespace pdex::app_testing
