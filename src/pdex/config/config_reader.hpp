#pragma once
// Typed access to a TOML configuration with errors that name the file, the key, the line and what was
// expected, and a final check that every key in the file was understood (so typos do not pass silently).
#include <toml++/toml.h>

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace pdex {

class ConfigReader {
 public:
  // Parses `file`; throws InputError with the parser's line and column on malformed TOML.
  static ConfigReader from_file(const std::string& file);
  ConfigReader(toml::table root, std::string file) : root_(std::move(root)), file_(std::move(file)) {}

  // Applies "dotted.key=value" overrides; value is parsed as TOML, or taken as a string if it is not TOML.
  void apply_override(const std::string& assignment);

  const std::string& file() const { return file_; }
  const toml::table& root() const { return root_; }
  // The node at a dotted path, or null; marks it as understood.
  const toml::node* find(const std::string& path);
  // Whether the path is present; recorded as asked, so that a misspelling of it gets the hint.
  bool has(const std::string& path);
  // For an error about a missing key: "; 'K' is not a key: did you mean 'W'?" where the file holds a key K,
  // read by nothing, in the table of one W of `wanted` and within two edits of it; "" otherwise.
  std::string misspelling_note(const std::vector<std::string>& wanted) const;

  double get_double(const std::string& path, std::optional<double> fallback = std::nullopt);
  int64_t get_int(const std::string& path, std::optional<int64_t> fallback = std::nullopt);
  bool get_bool(const std::string& path, std::optional<bool> fallback = std::nullopt);
  std::string get_string(const std::string& path, std::optional<std::string> fallback = std::nullopt);
  // One of `choices`; the error lists them.
  std::string get_choice(const std::string& path, const std::vector<std::string>& choices,
                         std::optional<std::string> fallback = std::nullopt);
  std::vector<double> get_doubles(const std::string& path, std::size_t count);
  std::vector<std::string> get_strings(const std::string& path, std::vector<std::string> fallback);

  // Marks a whole subtree as understood (for tables handed to another parser).
  void mark_used(const std::string& path);
  // Throws InputError naming the first key nobody asked for, with the closest known key as a hint.
  void check_all_used() const;

  // "file: key 'grid.nx' (line 7): <what>"
  [[noreturn]] void fail(const std::string& path, const std::string& what) const;
  std::string where(const std::string& path) const;

 private:
  const toml::node* lookup(const std::string& path) const;
  std::string found_type(const toml::node& n) const;

  toml::table root_;
  std::string file_;
  std::set<std::string> used_;
  std::set<std::string> asked_;  // every key the program looked for, present or not (for hints)
};

}  // namespace pdex
