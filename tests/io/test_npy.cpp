// .npy reading and writing: exact round trips, and files laid out byte by byte as NumPy writes them.
#include "pdex/io/npy.hpp"

#include <gtest/gtest.h>

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <csignal>
#include <filesystem>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "npy_bytes.hpp"
#include "pdex/core/error.hpp"
#include "pdex/io/atomic_file.hpp"
#include "support/scratch_dir.hpp"

namespace pdex::io {
namespace {

using testing::npy_file_bytes;
using testing::raw_bytes;
using pdex::testing::read_file_bytes;
using pdex::testing::ScratchDir;
using pdex::testing::write_file_bytes;

// Values that expose any lossy step: signed zero, subnormals, extremes, infinities, a non-dyadic fraction.
template <class T>
std::vector<T> tricky_values(std::size_t n) {
  using lim = std::numeric_limits<T>;
  const std::vector<T> special{T(-0.0), lim::denorm_min(), lim::min(), lim::max(), lim::lowest(),
                               lim::infinity(), -lim::infinity(), T(1) / T(3), lim::epsilon()};
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = i < special.size() ? special[i] : T(0.37) * T(i) - T(5);
  return v;
}

template <class T>
void expect_round_trip_exact(const std::vector<std::size_t>& shape) {
  ScratchDir dir;
  std::size_t count = 1;
  for (std::size_t e : shape) count *= e;
  const std::vector<T> values = tricky_values<T>(count);
  write_npy(dir / "a.npy", values.data(), shape);
  const NpyArray back = read_npy(dir / "a.npy");
  EXPECT_EQ(back.shape, shape);
  ASSERT_EQ(back.data.size(), count);
  for (std::size_t i = 0; i < count; ++i) {
    // Compare bits so -0.0 and the exact value of every float survive the trip.
    EXPECT_EQ(std::bit_cast<std::uint64_t>(back.data[i]), std::bit_cast<std::uint64_t>(static_cast<double>(values[i])))
        << "element " << i << ": wrote " << values[i] << ", read " << back.data[i];
  }
}

TEST(NpyRoundTrip, Float64IsExactFor1D2D3DShapes) {
  expect_round_trip_exact<double>({17});
  expect_round_trip_exact<double>({3, 5});
  expect_round_trip_exact<double>({2, 3, 4});
}

TEST(NpyRoundTrip, Float32IsExactFor1D2D3DShapes) {
  expect_round_trip_exact<float>({17});
  expect_round_trip_exact<float>({3, 5});
  expect_round_trip_exact<float>({2, 3, 4});
}

TEST(NpyRoundTrip, ScalarAndEmptyArraysKeepTheirShape) {
  expect_round_trip_exact<double>({});
  expect_round_trip_exact<double>({0, 4});
  expect_round_trip_exact<float>({0});
}

TEST(NpyRoundTrip, NanSurvives) {
  ScratchDir dir;
  const std::vector<float> values{1.0f, std::numeric_limits<float>::quiet_NaN()};
  write_npy(dir / "n.npy", values.data(), {2});
  const NpyArray back = read_npy(dir / "n.npy");
  EXPECT_EQ(back.data[0], 1.0);
  EXPECT_TRUE(std::isnan(back.data[1]));
}

TEST(NpyWrite, HeaderIsVersion1AlignedTo64BytesLikeNumpySave) {
  ScratchDir dir;
  const std::vector<double> values(12, 0.5);
  write_npy(dir / "h.npy", values.data(), {3, 4});
  const std::string bytes = read_file_bytes(dir / "h.npy");
  ASSERT_GE(bytes.size(), 10u);
  EXPECT_EQ(bytes.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  const std::size_t header_len = static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8);
  EXPECT_EQ((10 + header_len) % 64, 0u);
  EXPECT_EQ(bytes.size(), 10 + header_len + 12 * sizeof(double));
  const std::string header = bytes.substr(10, header_len);
  EXPECT_EQ(header.rfind("{'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }", 0), 0u) << header;
  EXPECT_EQ(header.back(), '\n');
}

TEST(NpyWrite, OneDimensionalShapeIsAOneElementTuple) {
  ScratchDir dir;
  const std::vector<float> values(5, 1.0f);
  write_npy(dir / "v.npy", values.data(), {5});
  EXPECT_NE(read_file_bytes(dir / "v.npy").find("'descr': '<f4', 'fortran_order': False, 'shape': (5,), }"),
            std::string::npos);
}

TEST(NpyWrite, UnwritablePathThrowsErrorNamingTheFile) {
  ScratchDir dir;
  const double v = 1.0;
  try {
    write_npy(dir / "no_such_dir" / "out.npy", &v, {1});
    FAIL() << "expected pdex::Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("out.npy"), std::string::npos) << e.what();
  }
}

// A write that fails partway (here the file-size limit, as a full disk would) leaves the file as it was
// and nothing else: files are written under a temporary name and renamed when whole (atomic_file.hpp).
TEST(NpyWrite, AFailedWriteLeavesThePreviousFileWholeAndNoPartialFile) {
  ScratchDir dir;
  const std::vector<double> small(4, 1.0), large(100000, 2.0);
  write_npy(dir / "a.npy", small.data(), {4});
  std::signal(SIGXFSZ, SIG_IGN);  // the write then fails with EFBIG instead of stopping the process
  rlimit saved{};
  ::getrlimit(RLIMIT_FSIZE, &saved);
  rlimit tight = saved;
  tight.rlim_cur = 4096;
  ::setrlimit(RLIMIT_FSIZE, &tight);
  bool threw = false;
  try {
    write_npy(dir / "a.npy", large.data(), {large.size()});
  } catch (const Error& e) {
    threw = true;
    EXPECT_NE(std::string(e.what()).find("a.npy: write failed"), std::string::npos) << e.what();
  }
  ::setrlimit(RLIMIT_FSIZE, &saved);
  std::signal(SIGXFSZ, SIG_DFL);
  EXPECT_TRUE(threw);
  EXPECT_EQ(read_npy(dir / "a.npy").data, small);
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path())) files += e.is_regular_file();
  EXPECT_EQ(files, 1) << "no partial file is left";
}

// What a killed writer left is removed by the next run into that folder; a live writer's is not.
TEST(AtomicFile, StalePartialsOfDeadWritersAreRemoved) {
  ScratchDir dir;
  const std::string dead = "999999999", alive = std::to_string(::getpid());  // above any pid_max
  for (const std::string& name : {"u.npy." + dead + ".partial", "v.mp4." + dead + ".partial.mp4", "w.npy." + alive + ".partial",
                                 std::string("u.npy"), std::string("notes.partial")})
    write_file_bytes(dir / name, "x");
  std::filesystem::create_directories(dir / ("step_0000000010." + dead + ".partial"));
  EXPECT_EQ(remove_stale_partials(dir.path()), 3);
  std::vector<std::string> left;
  for (const auto& e : std::filesystem::directory_iterator(dir.path())) left.push_back(e.path().filename().string());
  std::sort(left.begin(), left.end());
  EXPECT_EQ(left, (std::vector<std::string>{"notes.partial", "u.npy", "w.npy." + alive + ".partial"}));
}

// ---- files laid out by hand as NumPy writes them -----------------------------------------

TEST(NpyRead, Int64FromHandWrittenV1FileIsCOrderRowIsY) {
  ScratchDir dir;
  // np.array([[-3, 0, 7], [2**40, -(2**53), 5]], dtype=np.int64): element [y, x] at y * 3 + x.
  const std::int64_t big = std::int64_t{1} << 40, huge = std::int64_t{1} << 53;
  write_file_bytes(dir / "i8.npy", npy_file_bytes(1, "{'descr': '<i8', 'fortran_order': False, 'shape': (2, 3), }",
                                                  raw_bytes<std::int64_t>({-3, 0, 7, big, -huge, 5})));
  const NpyArray a = read_npy(dir / "i8.npy");
  EXPECT_EQ(a.shape, (std::vector<std::size_t>{2, 3}));
  EXPECT_EQ(a.data, (std::vector<double>{-3, 0, 7, 1099511627776.0, -9007199254740992.0, 5}));
}

TEST(NpyRead, BoolFromHandWrittenV1File) {
  ScratchDir dir;
  write_file_bytes(dir / "b1.npy", npy_file_bytes(1, "{'descr': '|b1', 'fortran_order': False, 'shape': (4,), }",
                                                  std::string("\x01\x00\x00\x01", 4)));
  EXPECT_EQ(read_npy(dir / "b1.npy").data, (std::vector<double>{1, 0, 0, 1}));
}

TEST(NpyRead, Int32Uint8AndFloat32FromHandWrittenV1Files) {
  ScratchDir dir;
  write_file_bytes(dir / "i4.npy", npy_file_bytes(1, "{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }",
                                                  raw_bytes<std::int32_t>({-2147483647 - 1, 0, 2147483647})));
  EXPECT_EQ(read_npy(dir / "i4.npy").data, (std::vector<double>{-2147483648.0, 0, 2147483647.0}));

  write_file_bytes(dir / "u1.npy", npy_file_bytes(1, "{'descr': '|u1', 'fortran_order': False, 'shape': (1, 3), }",
                                                  std::string("\x00\x80\xff", 3)));
  EXPECT_EQ(read_npy(dir / "u1.npy").data, (std::vector<double>{0, 128, 255}));

  write_file_bytes(dir / "f4.npy", npy_file_bytes(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }",
                                                  raw_bytes<float>({0.1f, -2.5f})));
  EXPECT_EQ(read_npy(dir / "f4.npy").data, (std::vector<double>{static_cast<double>(0.1f), -2.5}));
}

TEST(NpyRead, Version2HeaderWithFourByteLength) {
  ScratchDir dir;
  write_file_bytes(dir / "v2.npy", npy_file_bytes(2, "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }",
                                                  raw_bytes<double>({1.5, -2.0, 3.25, 4.0})));
  const NpyArray a = read_npy(dir / "v2.npy");
  EXPECT_EQ(a.shape, (std::vector<std::size_t>{2, 2}));
  EXPECT_EQ(a.data, (std::vector<double>{1.5, -2.0, 3.25, 4.0}));
}

TEST(NpyRead, AcceptsAnyKeyOrderDoubleQuotesAndPython2Longs) {
  ScratchDir dir;
  // Old NumPy under Python 2 wrote (2L, 1L); other writers use double quotes or another key order.
  write_file_bytes(dir / "odd.npy", npy_file_bytes(1, "{\"shape\": (2L, 1L), 'fortran_order':False,'descr':\"<f8\"}",
                                                   raw_bytes<double>({7.0, 8.0})));
  const NpyArray a = read_npy(dir / "odd.npy");
  EXPECT_EQ(a.shape, (std::vector<std::size_t>{2, 1}));
  EXPECT_EQ(a.data, (std::vector<double>{7.0, 8.0}));
}

TEST(NpyRead, ScalarShapeHoldsOneValue) {
  ScratchDir dir;
  write_file_bytes(dir / "s.npy", npy_file_bytes(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (), }",
                                                 raw_bytes<double>({42.0})));
  const NpyArray a = read_npy(dir / "s.npy");
  EXPECT_TRUE(a.shape.empty());
  EXPECT_EQ(a.data, (std::vector<double>{42.0}));
}

}  // namespace
}  // namespace pdex::io
