// Every example in examples/ runs as is: it loads, passes the stability check with its own dt, and
// writes where its header says (out/<name>). Loading is cheap; the runs themselves are not repeated here.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "app_test_support.hpp"
#include "pdex/app/run_config.hpp"
#include "pdex/app/simulation.hpp"
#include "pdex/models/ard/ard_spec.hpp"

namespace pdex::app_testing {
namespace {

std::vector<fs::path> examples() {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(fs::path(PDEX_SOURCE_DIR) / "examples"))
    if (e.path().extension() == ".toml") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

TEST(Examples, EveryExampleLoadsIsStableAndWritesToOutByName) {
  const auto files = examples();
  ASSERT_GE(files.size(), 10u) << "examples/ should hold the documented examples";
  for (const auto& file : files) {
    SCOPED_TRACE(file.string());
    RunConfig rc;
    ASSERT_NO_THROW(rc = load_run_config(file.string(), CliOverrides{})) << file;
    if (rc.clock().simulated_time) {  // Merson chooses its steps; the run is given by its end time
      EXPECT_GT(rc.clock().t_end, 0);
    } else {
      EXPECT_NO_THROW(check_stability(rc));
      EXPECT_GT(rc.clock().steps, 0);
    }
    EXPECT_EQ(rc.output.dir, "out/" + file.stem().string());
    const std::string text = read_file_bytes(file);
    EXPECT_TRUE(contains(text, "pdex run examples/" + file.filename().string())) << "header lacks the command";
    EXPECT_FALSE(contains(text, "TIME_")) << "header lacks the measured run times";
  }
}

TEST(Examples, TheSeedsTable1ConfigurationIsKept) {
  const RunConfig rc = load_run_config((fs::path(PDEX_SOURCE_DIR) / "examples" / "turing_spots.toml").string(), {});
  EXPECT_EQ(rc.model, "turing");
  const ArdSpec& spec = spec_of<ArdSpec>(*rc.setup);
  EXPECT_EQ(rc.grid().nx, 512);
  EXPECT_EQ(rc.grid().ny, 512);
  EXPECT_EQ(rc.clock().dt, 0.5);
  EXPECT_EQ(spec.dt, 0.5);
  EXPECT_EQ(rc.clock().steps, 50000);
  for (int side = 0; side < 4; ++side) EXPECT_EQ(spec.bc.side[side][0].kind, BcKind::periodic);
  EXPECT_TRUE(spec.params.at("alpha").varies()) << "alpha carries the seed's per-cell noise";
}

}  // namespace
}  // namespace pdex::app_testing
