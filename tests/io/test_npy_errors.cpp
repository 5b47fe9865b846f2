// Every malformed .npy file is refused with an InputError that names the file and says what was
// expected, so a user can fix their input without reading our code.
#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <vector>

#include "npy_bytes.hpp"
#include "pdex/core/error.hpp"
#include "pdex/io/npy.hpp"
#include "support/scratch_dir.hpp"

namespace pdex::io {
namespace {

using testing::npy_file_bytes;
using testing::raw_bytes;
using pdex::testing::ScratchDir;
using pdex::testing::write_file_bytes;

const std::string good_dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }";

// Reads `file`, expecting an InputError whose message names the file and contains `expected`.
void expect_input_error(const std::filesystem::path& file, const std::string& expected) {
  try {
    (void)read_npy(file);
    ADD_FAILURE() << file << ": expected pdex::InputError containing \"" << expected << "\"";
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(file.filename().string()), std::string::npos) << "message lacks the file name: " << message;
    EXPECT_NE(message.find(expected), std::string::npos) << "message lacks \"" << expected << "\": " << message;
  }
}

TEST(NpyReadErrors, MissingFileSaysItCannotOpenIt) {
  ScratchDir dir;
  expect_input_error(dir / "x.npy", "cannot open file (No such file or directory)");
}

TEST(NpyReadErrors, DirectorySaysItCannotReadIt) {
  ScratchDir dir;
  std::filesystem::create_directory(dir / "d.npy");
  expect_input_error(dir / "d.npy", "cannot read file (Is a directory)");
}

TEST(NpyReadErrors, BadMagicIsNotANpyFile) {
  ScratchDir dir;
  write_file_bytes(dir / "alpha.npy", "P5\n3 2\n255\nabcdef");
  expect_input_error(dir / "alpha.npy", "not a .npy file (bad magic)");
  write_file_bytes(dir / "short.npy", "\x93NUM");
  expect_input_error(dir / "short.npy", "not a .npy file (bad magic)");
}

TEST(NpyReadErrors, TruncatedDataReportsExpectedAndFoundCounts) {
  ScratchDir dir;
  write_file_bytes(dir / "u0.npy", npy_file_bytes(1, good_dict, raw_bytes<double>({1, 2})));
  expect_input_error(dir / "u0.npy", "file is truncated: header says 6 values, found 2");
  // A partial last value counts as missing.
  write_file_bytes(dir / "u1.npy", npy_file_bytes(1, good_dict, raw_bytes<double>({1, 2, 3, 4, 5}) + "abc"));
  expect_input_error(dir / "u1.npy", "header says 6 values, found 5");
}

TEST(NpyReadErrors, TruncatedHeaderIsReported) {
  ScratchDir dir;
  const std::string whole = npy_file_bytes(1, good_dict, "");
  write_file_bytes(dir / "cut.npy", whole.substr(0, 30));
  expect_input_error(dir / "cut.npy", "file is truncated inside the header");
}

TEST(NpyReadErrors, BigEndianAndOtherDtypesAreUnsupported) {
  ScratchDir dir;
  for (const std::string descr : {">f8", ">i4", "<c16", "<f2", "<U5", "|O", "<u2"}) {
    write_file_bytes(dir / "u0.npy", npy_file_bytes(1, "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (1,), }",
                                                    std::string(16, '\0')));
    expect_input_error(dir / "u0.npy", "unsupported dtype '" + descr +
                                           "'; expected little-endian float32/float64/int32/int64/uint8/bool");
  }
}

TEST(NpyReadErrors, StructuredDtypeIsUnsupported) {
  ScratchDir dir;
  write_file_bytes(dir / "rec.npy", npy_file_bytes(1, "{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': (1,), }",
                                                   raw_bytes<double>({1})));
  expect_input_error(dir / "rec.npy", "structured arrays are not supported");
}

TEST(NpyReadErrors, FortranOrderIsRejectedWithTheFix) {
  ScratchDir dir;
  write_file_bytes(dir / "f.npy", npy_file_bytes(1, "{'descr': '<f8', 'fortran_order': True, 'shape': (2, 3), }",
                                                 raw_bytes<double>({1, 2, 3, 4, 5, 6})));
  expect_input_error(dir / "f.npy", "fortran_order arrays are not supported; save with np.ascontiguousarray");
}

TEST(NpyReadErrors, UnknownFormatVersionIsReported) {
  ScratchDir dir;
  std::string bytes = npy_file_bytes(1, good_dict, raw_bytes<double>({1, 2, 3, 4, 5, 6}));
  bytes[6] = '\x04';
  write_file_bytes(dir / "v4.npy", bytes);
  expect_input_error(dir / "v4.npy", "unsupported .npy format version 4.0; expected 1.0, 2.0 or 3.0");
}

TEST(NpyReadErrors, HugeHeaderLengthIsRefusedBeforeAllocating) {
  ScratchDir dir;
  std::string bytes = npy_file_bytes(2, good_dict, "");
  bytes[8] = bytes[9] = bytes[10] = bytes[11] = '\xff';
  write_file_bytes(dir / "big.npy", bytes);
  expect_input_error(dir / "big.npy", "header claims 4294967295 bytes");
}

TEST(NpyReadErrors, ShapeTooLargeForTheFileIsTruncationNotAnAllocation) {
  ScratchDir dir;
  write_file_bytes(dir / "huge.npy", npy_file_bytes(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296), }",
                                                    raw_bytes<double>({1})));
  expect_input_error(dir / "huge.npy", "file is truncated: header says more than 2^64 - 1 values, found 1");
}

struct GarbageCase {
  const char* name;
  const char* dict;
  const char* expected;
};

// Lets GoogleTest print a case by its name instead of its bytes.
void PrintTo(const GarbageCase& c, std::ostream* os) { *os << c.name; }

class NpyHeaderGarbage : public ::testing::TestWithParam<GarbageCase> {};

TEST_P(NpyHeaderGarbage, IsAMalformedHeaderError) {
  ScratchDir dir;
  write_file_bytes(dir / "g.npy", npy_file_bytes(1, GetParam().dict, raw_bytes<double>({1, 2, 3, 4, 5, 6})));
  expect_input_error(dir / "g.npy", std::string("malformed .npy header (") + GetParam().expected);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, NpyHeaderGarbage,
    ::testing::Values(
        GarbageCase{"NotADict", "hello world", "expected '{'"},
        GarbageCase{"Empty", "", "expected '{'"},
        GarbageCase{"Unterminated", "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3)", "expected '}'"},
        GarbageCase{"UnquotedKey", "{descr: '<f8'}", "expected a quoted string"},
        GarbageCase{"MissingShape", "{'descr': '<f8', 'fortran_order': False, }", "missing key 'shape'"},
        GarbageCase{"UnknownKey", "{'descr': '<f8', 'fortran_order': False, 'shape': (6,), 'x': 1}", "unexpected key 'x'"},
        GarbageCase{"DuplicateKey", "{'descr': '<f8', 'descr': '<f8', 'fortran_order': False, 'shape': (6,)}",
                    "key 'descr' appears twice"},
        GarbageCase{"NegativeExtent", "{'descr': '<f8', 'fortran_order': False, 'shape': (-2, 3), }",
                    "expected a non-negative integer"},
        GarbageCase{"ShapeNotATuple", "{'descr': '<f8', 'fortran_order': False, 'shape': [2, 3], }", "expected '('"},
        GarbageCase{"BoolMisspelt", "{'descr': '<f8', 'fortran_order': false, 'shape': (6,), }", "expected True or False"},
        GarbageCase{"TrailingText", "{'descr': '<f8', 'fortran_order': False, 'shape': (6,), } junk",
                    "unexpected text after the closing '}'"},
        GarbageCase{"ExtentOverflows", "{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999999,), }",
                    "shape extent overflows"}),
    [](const ::testing::TestParamInfo<GarbageCase>& param_info) { return std::string(param_info.param.name); });

}  // namespace
}  // namespace pdex::io
