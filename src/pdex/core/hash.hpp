#pragma once
// Hashes and draws that are the same on every compiler and machine: SplitMix64 (Steele, Lea and Flood
// 2014), tiny and statistically sound for noise in inputs, so that a seed gives the same field
// everywhere; and FNV-1a, for names and texts (cache keys, default seeds).
#include <cstdint>
#include <string_view>

namespace pdex {

// The next value of the sequence whose state is `state`.
inline uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// A draw in [0, 1) from the top 53 bits.
inline double unit_draw(uint64_t& state) { return double(splitmix64(state) >> 11) * 0x1.0p-53; }

// The 64-bit FNV-1a hash of `text`.
inline uint64_t fnv1a(std::string_view text) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (const unsigned char c : text) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

}  // namespace pdex
