#pragma once
// "Did you mean" hints: the known name nearest to a misspelt one.
#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace pdex {

// Levenshtein distance: insertions, deletions and substitutions.
inline std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

// The first of `known` nearest to `name`, at a distance below `limit`; empty when none is that near.
template <class Names>
std::string closest(const std::string& name, const Names& known, std::size_t limit) {
  std::string best;
  for (const auto& k : known)
    if (const std::size_t d = edit_distance(name, k); d < limit) limit = d, best = k;
  return best;
}

}  // namespace pdex
