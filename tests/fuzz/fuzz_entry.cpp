// A fuzz executable: the reader PDEX_FUZZ_READER (a function of fuzz_targets.hpp) as libFuzzer calls it
// (PDEX_FUZZ=ON), or, in any other build, a replay of the files named on the command line, each read
// once and its outcome printed: how a finding of test_fuzz or of libFuzzer is reproduced.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

#include "fuzz/fuzz_targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  pdex::fuzz::PDEX_FUZZ_READER(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}

#ifndef PDEX_LIBFUZZER
int main(int argc, char** argv) {
  const char* kinds[] = {"read", "refused: ", "skipped: "};
  for (int k = 1; k < argc; ++k) {
    std::ifstream in(argv[k], std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "%s: cannot open the file\n", argv[k]);
      return 2;
    }
    const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    const pdex::fuzz::Outcome outcome = pdex::fuzz::PDEX_FUZZ_READER(bytes);
    std::printf("%s: %s%s\n", argv[k], kinds[outcome.kind], outcome.message.c_str());
  }
  return 0;
}
#endif
