// Matrix Market files: what is written reads back the same; every malformed file is refused with the
// file, the line and what was expected there.
#include <gtest/gtest.h>

#include <string>

#include "linalg/matrix_problems.hpp"
#include "pdex/core/error.hpp"
#include "pdex/linalg/matrix_market.hpp"
#include "support/scratch_dir.hpp"

namespace pdex::test {
namespace {

using pdex::testing::ScratchDir;

std::string write_text(const ScratchDir& dir, const std::string& text) {
  const std::string path = (dir.path() / "m.mtx").string();
  pdex::testing::write_file_bytes(path, text);
  return path;
}

// The message of the InputError that reading `text` gives.
std::string error_of(const std::string& text) {
  ScratchDir dir;
  const std::string path = write_text(dir, text);
  try {
    read_matrix_market(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(MatrixMarket, RoundTripKeepsEveryEntryExactly) {
  ScratchDir dir;
  const auto a = random_sparse(50, 30, 4, 7);
  const std::string path = (dir.path() / "a.mtx").string();
  write_matrix_market(path, a);
  const auto b = read_matrix_market(path);
  EXPECT_EQ(b.rows, 50);
  EXPECT_EQ(b.cols, 30);
  EXPECT_EQ(b.row_ptr, a.row_ptr);
  EXPECT_EQ(b.col, a.col);
  EXPECT_EQ(b.val, a.val);
}

TEST(MatrixMarket, SymmetricStorageIsExpandedAndArrayIsColumnMajor) {
  ScratchDir dir;
  const auto s = read_matrix_market(write_text(dir, "%%MatrixMarket matrix coordinate real symmetric\n% c\n3 3 2\n1 1 4\n3 1 -1\n"));
  EXPECT_EQ(to_dense(s).values, (std::vector<double>{4, 0, -1, 0, 0, 0, -1, 0, 0}));
  const auto d = read_matrix_market(write_text(dir, "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n"));
  EXPECT_EQ(to_dense(d).values, (std::vector<double>{1, 3, 2, 4}));
  EXPECT_EQ(read_matrix_market_vector(write_text(dir, "%%MatrixMarket matrix array real general\n3 1\n5\n6\n7\n")),
            (std::vector<double>{5, 6, 7}));
}

// An array file of a symmetric matrix holds the lower triangle column by column; of a skew-symmetric
// one, the triangle below the (zero) diagonal.
TEST(MatrixMarket, SymmetricArrayFilesHoldTheLowerTriangle) {
  ScratchDir dir;
  const auto s = read_matrix_market(write_text(dir, "%%MatrixMarket matrix array real symmetric\n3 3\n1\n2\n3\n4\n5\n6\n"));
  EXPECT_EQ(to_dense(s).values, (std::vector<double>{1, 2, 3, 2, 4, 5, 3, 5, 6}));
  const auto k = read_matrix_market(write_text(dir, "%%MatrixMarket matrix array real skew-symmetric\n3 3\n1\n2\n3\n"));
  EXPECT_EQ(to_dense(k).values, (std::vector<double>{0, -1, -2, 1, 0, -3, 2, 3, 0}));
  EXPECT_NE(error_of("%%MatrixMarket matrix array real symmetric\n3 3\n1\n2\n3\n4\n5\n6\n7\n").find("more entries than the 6"),
            std::string::npos);
}

// A size line whose matrix could not fit in memory is refused before anything is allocated.
TEST(MatrixMarket, ASizeBeyondTheMachinesMemoryIsRefused) {
  const std::string e = error_of("%%MatrixMarket matrix coordinate real general\n2000000000 2000000000 1000000000000\n1 1 1\n");
  EXPECT_NE(e.find("m.mtx:2: a matrix of 2000000000 rows and 1000000000000 entries needs"), std::string::npos) << e;
  EXPECT_NE(e.find("more than this machine's memory"), std::string::npos) << e;
}

TEST(MatrixMarket, MalformedFilesNameTheLineAndWhatWasExpected) {
  const std::string b = "%%MatrixMarket matrix coordinate real general\n";
  EXPECT_NE(error_of("").find("m.mtx:1: empty file"), std::string::npos) << error_of("");
  EXPECT_NE(error_of("%%Matrix matrix\n").find(":1: expected the banner"), std::string::npos);
  EXPECT_NE(error_of("%%MatrixMarket matrix coordinate complex general\n").find("complex is not supported"),
            std::string::npos);
  EXPECT_NE(error_of(b + "3 3\n").find(":2: expected the size line"), std::string::npos) << error_of(b + "3 3\n");
  EXPECT_NE(error_of(b + "3 3 2\n1 1 1.0\n2 x 1\n").find(":4: expected \"row col value\""), std::string::npos);
  EXPECT_NE(error_of(b + "3 3 2\n1 1 1.0\n4 1 1\n").find(":4: entry (4, 1) outside the 3 x 3 matrix"),
            std::string::npos);
  EXPECT_NE(error_of(b + "3 3 3\n1 1 1.0\n").find("ends after 1 of 3 entries"), std::string::npos);
  EXPECT_NE(error_of(b + "3 3 1\n1 1 1.0\n2 2 2\n").find(":4: more entries than the 1"), std::string::npos);
  EXPECT_NE(error_of(b + "3 3 1\n1 1 1.0 7\n").find(":3: unexpected \"7\""), std::string::npos);
}

TEST(MatrixMarket, AVectorMustHaveOneColumn) {
  ScratchDir dir;
  const std::string path = write_text(dir, "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n");
  EXPECT_THROW(read_matrix_market_vector(path), InputError);
  EXPECT_THROW(read_matrix_market((dir.path() / "missing.mtx").string()), InputError);
}

}  // namespace
}  // namespace pdex::test
