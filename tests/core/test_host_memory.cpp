// The host memory a run may still take (core/host_memory.hpp), from files laid out as Linux's: the
// system's MemAvailable, a cgroup's limit less its usage but for its inactive page cache; and what a
// user's budget (PDEX_HOST_MEMORY) leaves.
#include <gtest/gtest.h>

#include <filesystem>
#include <limits>
#include <string>

#include "pdex/core/error.hpp"
#include "pdex/core/host_memory.hpp"
#include "support/scratch_dir.hpp"

namespace pdex {
namespace {

namespace fs = std::filesystem;
using testing::ScratchDir;

void write(const fs::path& file, const std::string& text) { testing::write_file_bytes(file, text); }

constexpr std::size_t mib = std::size_t(1) << 20;

struct Files {
  ScratchDir dir;
  Files() {
    write(dir / "meminfo", "MemTotal:       16384000 kB\nMemFree:         1024000 kB\nMemAvailable:    8192000 kB\n");
    fs::create_directories(dir / "cgroup");
  }
  std::size_t available() const { return available_bytes((dir / "meminfo").string(), (dir / "cgroup").string()); }
};

TEST(HostMemory, WithoutACgroupLimitItIsMemAvailable) {
  Files f;
  EXPECT_EQ(f.available(), std::size_t(8192000) * 1024);
  write(f.dir / "cgroup" / "memory.max", "max\n");  // no limit
  write(f.dir / "cgroup" / "memory.current", std::to_string(100 * mib) + "\n");
  EXPECT_EQ(f.available(), std::size_t(8192000) * 1024);
}

TEST(HostMemory, ACgroupLimitLessItsUsageButItsInactivePageCache) {
  Files f;
  write(f.dir / "cgroup" / "memory.max", std::to_string(1024 * mib) + "\n");
  write(f.dir / "cgroup" / "memory.current", std::to_string(900 * mib) + "\n");
  EXPECT_EQ(f.available(), 124 * mib);
  write(f.dir / "cgroup" / "memory.stat", "anon " + std::to_string(500 * mib) + "\nfile " + std::to_string(400 * mib) +
                                              "\ninactive_file " + std::to_string(300 * mib) + "\n");
  EXPECT_EQ(f.available(), 424 * mib);
  write(f.dir / "cgroup" / "memory.current", std::to_string(1100 * mib) + "\n");  // over the limit
  write(f.dir / "cgroup" / "memory.stat", "inactive_file 0\n");
  EXPECT_EQ(f.available(), 0u);
}

TEST(HostMemory, NothingReadableMeansNoKnownLimit) {
  ScratchDir dir;
  EXPECT_EQ(available_bytes((dir / "none").string(), (dir / "none").string()), std::numeric_limits<std::size_t>::max());
}

TEST(HostMemory, ABudgetLeavesItselfLessWhatTheProcessHolds) {
  EXPECT_EQ(budget_left("1000", 300), 700u);
  EXPECT_EQ(budget_left("8G", 0), std::size_t(8) << 30);
  EXPECT_EQ(budget_left("512m", 100 * mib), 412 * mib);
  EXPECT_EQ(budget_left("2K", 4096), 0u) << "a process over its budget has no room left";
  EXPECT_EQ(budget_left("1T", 0), std::size_t(1) << 40);
}

TEST(HostMemory, ABudgetThatIsNotBytesIsRefusedNamingTheVariable) {
  for (const char* bad : {"", "8GB", "-1", "eight", "1.5G", "G", "99999999999999999999", "20000000T"}) {
    try {
      budget_left(bad, 0);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("PDEX_HOST_MEMORY"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace pdex
