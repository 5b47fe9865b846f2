#include "fuzz/fuzz_targets.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "pdex/app/run_config.hpp"
#include "pdex/config/config_reader.hpp"
#include "pdex/config/grid_config.hpp"
#include "pdex/core/error.hpp"
#include "pdex/io/npy.hpp"
#include "pdex/linalg/matrix_market.hpp"

namespace pdex::fuzz {
namespace {

namespace fs = std::filesystem;

// The readers take paths: each input is written to a folder of this process's own (parallel tests and
// fuzzing jobs do not share it), removed at exit.
class Scratch {
 public:
  Scratch() : dir_(fs::temp_directory_path() / ("pdex_fuzz_" + std::to_string(::getpid()))) {
    fs::create_directories(dir_);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  ~Scratch() {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }

  std::string write(const char* name, std::string_view bytes) const {
    const fs::path file = dir_ / name;
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), std::streamsize(bytes.size()));
    if (!out.flush()) throw std::runtime_error("fuzz: cannot write " + file.string());
    return file.string();
  }

 private:
  fs::path dir_;
};

std::string scratch_file(const char* name, std::string_view bytes) {
  static const Scratch scratch;
  return scratch.write(name, bytes);
}

template <class Read>
Outcome read_or_refuse(Read read) {
  try {
    read();
  } catch (const Error& e) {
    return {Outcome::refused, e.what()};
  }
  return {};
}

// Whether the grid, as the loader reads it, has more cells than a fuzz case may fill. A grid the loader
// refuses (read_grid; check_grid_fits, for this machine's memory) is not skipped: the load says why.
bool grid_too_big(const std::string& file) {
  try {
    ConfigReader cfg = ConfigReader::from_file(file);
    const Grid2 g = read_grid(cfg);
    check_grid_fits(cfg, g, Precision::f32, false);
    return double(g.nx) * double(g.ny) > double(max_fuzz_cells);
  } catch (const Error&) {
    return false;
  }
}

// Whether the size line (the first line after the banner that is neither blank nor a comment) gives
// more than max_fuzz_cells rows or columns: reading allocates a row pointer per row, and a vector of
// that length, which a big matrix legitimately asks for, however few its entries.
bool matrix_too_big(std::string_view bytes) {
  std::istringstream in{std::string(bytes)};
  std::string line;
  std::getline(in, line);  // the banner
  while (std::getline(in, line)) {
    const std::size_t p = line.find_first_not_of(" \t\r");
    if (p == std::string::npos || line[p] == '%') continue;
    long long rows = 0, cols = 0;
    std::istringstream(line) >> rows >> cols;
    return rows > max_fuzz_cells || cols > max_fuzz_cells;
  }
  return false;
}

}  // namespace

Outcome read_npy_bytes(std::string_view bytes) {
  const std::string file = scratch_file("input.npy", bytes);
  return read_or_refuse([&] { io::read_npy(file); });
}

Outcome read_matrix_market_bytes(std::string_view bytes) {
  if (matrix_too_big(bytes)) return {Outcome::skipped, "a matrix of more than max_fuzz_cells rows or columns"};
  const std::string file = scratch_file("input.mtx", bytes);
  return read_or_refuse([&] {
    const CsrMatrix<double> m = read_matrix_market(file);
    if (m.rows == 1 || m.cols == 1) read_matrix_market_vector(file);
  });
}

Outcome load_config_bytes(std::string_view bytes) {
  const std::string file = scratch_file("input.toml", bytes);
  if (grid_too_big(file)) return {Outcome::skipped, "a grid of more than max_fuzz_cells cells"};
  return read_or_refuse([&] { load_run_config(file, CliOverrides{}); });
}

}  // namespace pdex::fuzz
