// The schedule apart from the mathematics: solvers and models ask their layer's schedules (an executor's
// traits: linalg/schedules.hpp, time/schedules.hpp, models/ard/ard_schedules.hpp) for a fast path and
// never name a backend, and a backend's code lives in cuda/ folders. A source that tests the backend's
// name, or CUDA's build flag, outside core/ and those folders is the layering this test keeps out. And
// grid sizes go through the grid layer's types.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "app_test_support.hpp"

namespace pdex::app_testing {
namespace {

namespace fs = std::filesystem;

bool in_cuda_folder(const fs::path& p) {
  for (const auto& part : p)
    if (part == "cuda") return true;
  return false;
}

TEST(SourceLayout, LayersAskSchedulesNotBackends) {
  const fs::path root = fs::path(PDEX_SOURCE_DIR) / "src" / "pdex";
  int sources = 0;
  for (const char* layer : {"grid", "linalg", "time", "models", "config"})
    for (const auto& e : fs::recursive_directory_iterator(root / layer)) {
      if (!e.is_regular_file() || in_cuda_folder(e.path().lexically_relative(root))) continue;
      const std::string text = read_file_bytes(e.path());
      ++sources;
      for (const char* word : {"Backend::cuda", "PDEX_HAVE_CUDA", "__CUDACC__"})
        EXPECT_FALSE(contains(text, word)) << e.path() << " names " << word;
    }
  EXPECT_GT(sources, 50);
}

TEST(SourceLayout, CudaSourcesLiveInCudaFolders) {
  const fs::path root = fs::path(PDEX_SOURCE_DIR) / "src" / "pdex";
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    const fs::path rel = e.path().lexically_relative(root);
    const std::string ext = rel.extension().string();
    if ((ext == ".cuh" || ext == ".cu") && rel != "engine_cuda.cu") {
      EXPECT_TRUE(in_cuda_folder(rel)) << rel;
    }
  }
}

// Grid sizes travel as the grid layer's types (Grid2, Extents2, FieldView), never as a pair of ints, so
// that a third axis is an addition to those types rather than to every signature (a 3D grid's kernels
// in cuda/ folders are schedules of their own and may index as they need).
TEST(SourceLayout, GridSizesTravelAsExtents) {
  const fs::path root = fs::path(PDEX_SOURCE_DIR) / "src" / "pdex";
  int sources = 0;
  for (const char* layer : {"linalg", "time", "models", "config", "app"})
    for (const auto& e : fs::recursive_directory_iterator(root / layer)) {
      if (!e.is_regular_file() || in_cuda_folder(e.path().lexically_relative(root))) continue;
      const std::string text = read_file_bytes(e.path());
      ++sources;
      for (const char* pair : {"int nx, int ny", "int64_t nx, int64_t ny", "(nx + 2)", "* nx + i"})
        EXPECT_FALSE(contains(text, pair)) << e.path() << " has " << pair << ": take Grid2 or Extents2 (grid/extents.hpp)";
    }
  EXPECT_GT(sources, 100);
}

}  // namespace
}  // namespace pdex::app_testing
