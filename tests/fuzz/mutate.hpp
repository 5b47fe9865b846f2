#pragma once
// Seed inputs changed by a fixed-seed sequence of mutations, after libFuzzer's own: a bounded fuzz test
// that CI runs in every build, each case the same on every machine.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace pdex::fuzz {

// splitmix64: the same numbers everywhere (the standard library's distributions differ between
// implementations, and a case must reproduce from its number).
class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  std::size_t below(std::size_t n);  // uniform enough in [0, n), n > 0

 private:
  std::uint64_t state_;
};

// Tokens that break readers: delimiters, quotes, non-finite and extreme numbers, and every word of
// the seeds (key names, dtypes, Matrix Market keywords).
std::vector<std::string> dictionary_for(const std::vector<std::string>& seeds);

// One to four mutations of `input` (fewer more often): a bit flipped, a byte replaced by an interesting value, the end
// cut off, a slice duplicated or erased, a dictionary token inserted or written over the input.
std::string mutate(std::string input, const std::vector<std::string>& dictionary, Random& rng);

}  // namespace pdex::fuzz
