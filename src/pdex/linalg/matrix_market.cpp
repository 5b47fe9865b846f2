#include "pdex/linalg/matrix_market.hpp"

#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "pdex/core/error.hpp"

namespace pdex {
namespace {

// A file read line by line, with the position for messages.
class MtxReader {
 public:
  explicit MtxReader(const std::string& path) : path_(path), in_(path) {
    if (!in_) throw InputError(path + ": cannot open the file for reading");
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(path_ + ":" + std::to_string(line_no_) + ": " + what);
  }

  // The next line that is not a comment (%) or blank; false at the end of the file.
  bool next(std::string& line) {
    while (std::getline(in_, line)) {
      ++line_no_;
      const auto p = line.find_first_not_of(" \t\r");
      if (p != std::string::npos && line[p] != '%') return true;
    }
    return false;
  }

  std::string banner() {
    std::string line;
    ++line_no_;
    if (!std::getline(in_, line)) fail("empty file; expected the banner \"%%MatrixMarket matrix ...\"");
    return line;
  }

  int line() const { return line_no_; }

 private:
  std::string path_;
  std::ifstream in_;
  int line_no_ = 0;
};

struct Header {
  bool coordinate = true, pattern = false;
  std::string symmetry = "general";
};

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

Header parse_banner(MtxReader& r) {
  std::istringstream words(r.banner());
  std::string tag, object, format, field, symmetry;
  words >> tag >> object >> format >> field >> symmetry;
  if (tag != "%%MatrixMarket") r.fail("expected the banner \"%%MatrixMarket matrix coordinate real general\"");
  object = lower(object), format = lower(format), field = lower(field), symmetry = lower(symmetry);
  if (object != "matrix") r.fail("expected object \"matrix\", found \"" + object + "\"");
  if (format != "coordinate" && format != "array")
    r.fail("expected format \"coordinate\" or \"array\", found \"" + format + "\"");
  if (field != "real" && field != "integer" && field != "double" && field != "pattern")
    r.fail("expected field \"real\", \"integer\" or \"pattern\" (complex is not supported), found \"" + field + "\"");
  if (symmetry != "general" && symmetry != "symmetric" && symmetry != "skew-symmetric")
    r.fail("expected symmetry \"general\", \"symmetric\" or \"skew-symmetric\", found \"" + symmetry + "\"");
  Header h;
  h.coordinate = format == "coordinate";
  h.pattern = field == "pattern";
  h.symmetry = symmetry;
  if (h.pattern && !h.coordinate) r.fail("a \"pattern\" matrix must be in coordinate format");
  return h;
}

// Reads exactly `count` numbers of one line, nothing after them.
template <class V>
void numbers(MtxReader& r, const std::string& line, V* out, int count, const char* expected) {
  std::istringstream in(line);
  for (int k = 0; k < count; ++k)
    if (!(in >> out[k])) r.fail(std::string("expected ") + expected + ", found \"" + line + "\"");
  std::string rest;
  if (in >> rest) r.fail(std::string("expected ") + expected + " only, found \"" + rest + "\" after them");
}

// The next position of an array file's values: column by column, a symmetric matrix's lower triangle
// only (a skew-symmetric's without its zero diagonal).
struct ArrayPosition {
  int rows, first_offset, j = 0, i;  // j before i: i starts at column 0's first row
  ArrayPosition(int n, const std::string& symmetry)
      : rows(n), first_offset(symmetry == "general" ? -1 : symmetry == "symmetric" ? 0 : 1), i(first_row()) {}
  int first_row() const { return first_offset < 0 ? 0 : j + first_offset; }
  void next() {
    if (++i < rows) return;
    ++j, i = first_row();
  }
};

// How many values an array file of this size holds.
long long array_count(long long rows, long long cols, const std::string& symmetry) {
  if (symmetry == "general") return rows * cols;
  return symmetry == "symmetric" ? rows * (rows + 1) / 2 : rows * (rows - 1) / 2;
}

// A size whose matrix would not fit in this machine's memory is refused before anything is allocated.
void check_fits(MtxReader& r, long long rows, long long count) {
  const long long page = sysconf(_SC_PAGESIZE), pages = sysconf(_SC_PHYS_PAGES);
  const double needed = double(rows + 1) * sizeof(int) + 2.0 * double(count) * (sizeof(Triplet<double>) + sizeof(int) + sizeof(double));
  if (page > 0 && pages > 0 && needed > double(page) * double(pages))
    r.fail("a matrix of " + std::to_string(rows) + " rows and " + std::to_string(count) + " entries needs " +
           std::to_string(needed / 1e9).substr(0, 5) + " GB, more than this machine's memory");
}

std::vector<Triplet<double>> read_entries(MtxReader& r, const Header& h, int rows, int cols, long long count) {
  std::vector<Triplet<double>> t;
  ArrayPosition at(rows, h.symmetry);
  std::string line;
  for (long long k = 0; k < count; ++k) {
    if (!r.next(line))
      r.fail("the file ends after " + std::to_string(k) + " of " + std::to_string(count) + " entries");
    if (h.coordinate) {
      long long ij[2];
      double v = 1;
      std::istringstream in(line);
      if (!(in >> ij[0] >> ij[1]) || (!h.pattern && !(in >> v)))
        r.fail(h.pattern ? "expected \"row col\"" : "expected \"row col value\"");
      std::string rest;
      if (in >> rest) r.fail("unexpected \"" + rest + "\" after the entry");
      if (ij[0] < 1 || ij[0] > rows || ij[1] < 1 || ij[1] > cols)
        r.fail("entry (" + std::to_string(ij[0]) + ", " + std::to_string(ij[1]) + ") outside the " +
               std::to_string(rows) + " x " + std::to_string(cols) + " matrix (indices start at 1)");
      const int i = int(ij[0] - 1), j = int(ij[1] - 1);
      t.push_back({i, j, v});
      if (h.symmetry != "general" && i != j) t.push_back({j, i, h.symmetry == "symmetric" ? v : -v});
    } else {
      double v = 0;
      numbers(r, line, &v, 1, "one value");
      t.push_back({at.i, at.j, v});
      if (h.symmetry != "general" && at.i != at.j) t.push_back({at.j, at.i, h.symmetry == "symmetric" ? v : -v});
      at.next();
    }
  }
  if (r.next(line)) r.fail("more entries than the " + std::to_string(count) + " the size line announced");
  return t;
}

}  // namespace

CsrMatrix<double> read_matrix_market(const std::string& path) {
  MtxReader r(path);
  const Header h = parse_banner(r);
  std::string line;
  if (!r.next(line)) r.fail(h.coordinate ? "expected the size line \"rows cols entries\"" : "expected the size line \"rows cols\"");
  long long size[3] = {0, 0, 0};
  numbers(r, line, size, h.coordinate ? 3 : 2, h.coordinate ? "the size line \"rows cols entries\"" : "the size line \"rows cols\"");
  if (size[0] < 1 || size[1] < 1 || size[0] > 2000000000LL || size[1] > 2000000000LL || size[2] < 0)
    r.fail("invalid size " + std::to_string(size[0]) + " x " + std::to_string(size[1]));
  // Each entry is mirrored across the diagonal: outside a square it would land outside the matrix.
  if (h.symmetry != "general" && size[0] != size[1])
    r.fail("a " + h.symmetry + " matrix must be square, not " + std::to_string(size[0]) + " x " + std::to_string(size[1]));
  const long long count = h.coordinate ? size[2] : array_count(size[0], size[1], h.symmetry);
  check_fits(r, size[0], count);
  return csr_from_triplets(int(size[0]), int(size[1]), read_entries(r, h, int(size[0]), int(size[1]), count));
}

namespace {

void check_written(std::FILE* f, const std::string& path) {
  const bool bad = std::ferror(f) != 0;
  if (std::fclose(f) != 0 || bad) throw Error(path + ": write failed");
}

std::FILE* open_for_writing(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) throw InputError(path + ": cannot open the file for writing");
  return f;
}

}  // namespace

std::vector<double> read_matrix_market_vector(const std::string& path) {
  const CsrMatrix<double> m = read_matrix_market(path);
  if (m.rows != 1 && m.cols != 1)
    throw InputError(path + ": expected a vector (an n x 1 matrix), found a " + std::to_string(m.rows) + " x " +
                     std::to_string(m.cols) + " matrix");
  std::vector<double> v(std::size_t(m.rows * m.cols), 0.0);
  for (const auto& e : triplets(m)) v[std::size_t(e.row + e.col)] = e.value;
  return v;
}

void write_matrix_market(const std::string& path, const CsrMatrix<double>& m) {
  std::FILE* f = open_for_writing(path);
  std::fprintf(f, "%%%%MatrixMarket matrix coordinate real general\n%d %d %lld\n", m.rows, m.cols, (long long)m.nnz());
  for (const auto& e : triplets(m)) std::fprintf(f, "%d %d %.17g\n", e.row + 1, e.col + 1, e.value);
  check_written(f, path);
}

void write_matrix_market_vector(const std::string& path, const std::vector<double>& v) {
  std::FILE* f = open_for_writing(path);
  std::fprintf(f, "%%%%MatrixMarket matrix array real general\n%zu 1\n", v.size());
  for (double x : v) std::fprintf(f, "%.17g\n", x);
  check_written(f, path);
}

}  // namespace pdex
