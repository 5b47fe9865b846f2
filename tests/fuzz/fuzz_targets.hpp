#pragma once
// One input through each reader that takes files from users: the .npy reader, the Matrix Market reader
// and the configuration loader. Shared by the bounded mutation test (test_fuzz.cpp) and the fuzz
// executables (fuzz_entry.cpp: libFuzzer's, or a replay of saved inputs). A reader may read the input or
// refuse it with pdex::Error; any other exception escapes, and it, a crash, a hang or a sanitizer
// report is a finding.
#include <string>
#include <string_view>

namespace pdex::fuzz {

struct Outcome {
  enum Kind { read, refused, skipped } kind = read;
  std::string message;  // the refusal, or why the input was skipped
};

// Sizes a file legitimately asks for but a fuzz case must not allocate: a grid of more cells, a matrix
// of more rows or columns. Such inputs are skipped.
constexpr long long max_fuzz_cells = 1 << 20;

Outcome read_npy_bytes(std::string_view bytes);
// Reads the matrix, and the vector where it is one.
Outcome read_matrix_market_bytes(std::string_view bytes);
// Loads and validates the configuration (load_run_config); nothing runs.
Outcome load_config_bytes(std::string_view bytes);

}  // namespace pdex::fuzz
