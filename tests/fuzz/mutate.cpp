#include "fuzz/mutate.hpp"

#include <algorithm>
#include <cctype>
#include <set>

namespace pdex::fuzz {
namespace {

const std::vector<std::string> common_tokens{
    "=", "[", "]", "{", "}", "(", ")", "\"", "'", "\"\"\"", ",", ".", ":", "#", "%", "\n", " ", "\t", "\r\n",
    "nan", "-nan", "inf", "-inf", "1e308", "-1e308", "1e-320", "1e999", "-1", "0", "1", "-0", "999999999",
    "2147483647", "2147483648", "4294967296", "1000000000000000", "9223372036854775807",
    "9223372036854775808", "-9223372036854775808", "0x7f", "true", "false", "True", "False", "1979-05-27"};

const unsigned char interesting_bytes[] = {0x00, 0x01, 0x7F, 0x80, 0xFF, '0', '9', '-', '.', 'e', ' ', '\n',
                                           '\'', '"', '=', '[', ']', '{', '}', ',', '%'};

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '%'; }

void add_words(const std::string& text, std::set<std::string>& words) {
  for (std::size_t at = 0; at < text.size();) {
    std::size_t end = at;
    while (end < text.size() && word_char(text[end])) ++end;
    if (end - at >= 2) words.insert(text.substr(at, end - at));
    at = std::max(end, at + 1);
  }
}

// A slice [at, at + length) of at most 64 bytes inside `input` (not empty).
std::pair<std::size_t, std::size_t> slice(const std::string& input, Random& rng) {
  const std::size_t at = rng.below(input.size());
  return {at, 1 + rng.below(std::min<std::size_t>(64, input.size() - at))};
}

void mutate_once(std::string& input, const std::vector<std::string>& dictionary, Random& rng) {
  const std::size_t kind = rng.below(7);
  if (input.empty() || kind == 5) {
    // One draw a statement: the order in which a call's arguments are evaluated differs between compilers.
    const std::size_t at = rng.below(input.size() + 1);
    input.insert(at, dictionary[rng.below(dictionary.size())]);
    return;
  }
  const std::size_t at = rng.below(input.size());
  switch (kind) {
    case 0: input[at] = char(input[at] ^ (1 << rng.below(8))); return;
    case 1: input[at] = char(interesting_bytes[rng.below(sizeof interesting_bytes)]); return;
    case 2: input.resize(at); return;
    case 3: {
      const auto [from, length] = slice(input, rng);
      input.insert(at, input.substr(from, length));
      return;
    }
    case 4: {
      const auto [from, length] = slice(input, rng);
      input.erase(from, length);
      return;
    }
    default: {
      const std::string& token = dictionary[rng.below(dictionary.size())];
      input.replace(at, std::min(token.size(), input.size() - at), token);
    }
  }
}

}  // namespace

std::uint64_t Random::next() {
  std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

std::size_t Random::below(std::size_t n) { return std::size_t(next() % n); }

std::vector<std::string> dictionary_for(const std::vector<std::string>& seeds) {
  std::set<std::string> words(common_tokens.begin(), common_tokens.end());
  for (const std::string& seed : seeds) add_words(seed, words);
  return {words.begin(), words.end()};
}

std::string mutate(std::string input, const std::vector<std::string>& dictionary, Random& rng) {
  // One mutation half the time, two a quarter, ...: most cases stay close enough to a valid input to
  // reach the code behind the first check.
  for (int n = 0; n < 4; ++n) {
    mutate_once(input, dictionary, rng);
    if (rng.below(2) == 0) break;
  }
  return input;
}

}  // namespace pdex::fuzz
