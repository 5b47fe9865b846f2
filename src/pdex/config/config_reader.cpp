#include "pdex/config/config_reader.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>

#include "pdex/core/closest.hpp"
#include "pdex/core/error.hpp"

namespace pdex {

namespace {
std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> parts;
  std::stringstream ss(path);
  std::string p;
  while (std::getline(ss, p, '.')) parts.push_back(p);
  return parts;
}

std::string type_name(const toml::node& n) {
  switch (n.type()) {
    case toml::node_type::table: return "a table";
    case toml::node_type::array: return "an array";
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a number";
    case toml::node_type::boolean: return "a boolean";
    default: return "a date/time";
  }
}

void collect_leaves(const toml::table& t, const std::string& prefix, std::vector<std::string>& out) {
  for (const auto& [k, v] : t) {
    std::string path = prefix.empty() ? std::string(k.str()) : prefix + "." + std::string(k.str());
    if (const toml::table* sub = v.as_table(); sub && !sub->empty())
      collect_leaves(*sub, path, out);
    else
      out.push_back(path);
  }
}
}  // namespace

ConfigReader ConfigReader::from_file(const std::string& file) {
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec)) throw InputError(file + ": is a folder; give the configuration file (.toml) in it");
  if (std::filesystem::exists(file, ec) && std::filesystem::is_regular_file(file, ec) && std::filesystem::file_size(file, ec) == 0 && !ec)
    throw InputError(file + ": the configuration file is empty");
  try {
    return ConfigReader(toml::parse_file(file), file);
  } catch (const toml::parse_error& e) {
    const auto& b = e.source().begin;
    std::string what(e.description());
    if (what.find("could not be opened") != std::string::npos || what.find("File could not") != std::string::npos)
      throw InputError(file + ": cannot open the configuration file");
    throw InputError(file + ":" + std::to_string(b.line) + ":" + std::to_string(b.column) +
                     ": not valid TOML: " + what);
  }
}

void ConfigReader::apply_override(const std::string& assignment) {
  auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw InputError("--set '" + assignment + "': expected key=value, e.g. --set model.params.F=0.035");
  const std::string key = assignment.substr(0, eq), text = assignment.substr(eq + 1);
  toml::table parsed;
  try {
    parsed = toml::parse("v = " + text);
  } catch (const toml::parse_error&) {
    parsed.insert_or_assign("v", text);  // a bare word: take it as a string
  }
  auto parts = split_path(key);
  toml::table* t = &root_;
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    toml::node* n = t->get(parts[i]);
    if (!n) n = &t->insert_or_assign(parts[i], toml::table{}).first->second;
    t = n->as_table();
    if (!t) throw InputError("--set " + key + ": '" + parts[i] + "' is not a table in " + file_);
  }
  t->insert_or_assign(parts.back(), *parsed.get("v"));
}

const toml::node* ConfigReader::lookup(const std::string& path) const {
  const toml::node* n = &root_;
  for (const auto& part : split_path(path)) {
    if (const toml::array* a = n->as_array()) {  // "shapes.0": an array element by index
      if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos) return nullptr;
      n = a->get(std::stoul(part));
    } else if (const toml::table* t = n->as_table()) {
      n = t->get(part);
    } else {
      return nullptr;
    }
    if (!n) return nullptr;
  }
  return n;
}

const toml::node* ConfigReader::find(const std::string& path) {
  asked_.insert(path);
  const toml::node* n = lookup(path);
  if (n) used_.insert(path);
  return n;
}

bool ConfigReader::has(const std::string& path) {
  asked_.insert(path);
  return lookup(path) != nullptr;
}

std::string ConfigReader::misspelling_note(const std::vector<std::string>& wanted) const {
  std::vector<std::string> leaves;
  collect_leaves(root_, "", leaves);
  for (const std::string& w : wanted) {
    const std::string table = w.substr(0, w.rfind('.') + 1);  // "time." ("" for a top-level key)
    std::vector<std::string> unread;
    for (const std::string& k : leaves)
      if (!used_.count(k) && k.compare(0, table.size(), table) == 0 && k.find('.', table.size()) == std::string::npos)
        unread.push_back(k);
    if (const std::string k = closest(w, unread, 3); !k.empty()) return "; '" + k + "' is not a key: did you mean '" + w + "'?";
  }
  return {};
}

void ConfigReader::mark_used(const std::string& path) {
  const toml::node* n = lookup(path);
  if (!n) return;
  used_.insert(path);
  if (const toml::table* t = n->as_table()) {
    std::vector<std::string> leaves;
    collect_leaves(*t, path, leaves);
    used_.insert(leaves.begin(), leaves.end());
  }
}

std::string ConfigReader::where(const std::string& path) const {
  std::string s = file_ + ": key '" + path + "'";
  if (const toml::node* n = lookup(path); n && n->source().begin.line > 0)
    s += " (line " + std::to_string(n->source().begin.line) + ")";
  return s;
}

void ConfigReader::fail(const std::string& path, const std::string& what) const {
  throw InputError(where(path) + ": " + what);
}

std::string ConfigReader::found_type(const toml::node& n) const { return type_name(n); }

double ConfigReader::get_double(const std::string& path, std::optional<double> fallback) {
  const toml::node* n = find(path);
  if (!n) {
    if (fallback) return *fallback;
    fail(path, "missing; expected a number");
  }
  if (auto v = n->value<double>(); v && (n->is_floating_point() || n->is_integer())) {
    if (!std::isfinite(*v)) fail(path, "expected a finite number, found " + std::string(std::isnan(*v) ? "nan" : "an infinity"));
    return *v;
  }
  fail(path, "expected a number, found " + found_type(*n));
}

int64_t ConfigReader::get_int(const std::string& path, std::optional<int64_t> fallback) {
  const toml::node* n = find(path);
  if (!n) {
    if (fallback) return *fallback;
    fail(path, "missing; expected an integer");
  }
  if (n->is_integer()) return *n->value<int64_t>();
  if (n->is_floating_point()) {
    double d = *n->value<double>();
    if (d == double(int64_t(d))) return int64_t(d);
  }
  fail(path, "expected an integer, found " + found_type(*n));
}

bool ConfigReader::get_bool(const std::string& path, std::optional<bool> fallback) {
  const toml::node* n = find(path);
  if (!n) {
    if (fallback) return *fallback;
    fail(path, "missing; expected true or false");
  }
  if (n->is_boolean()) return *n->value<bool>();
  fail(path, "expected true or false, found " + found_type(*n));
}

std::string ConfigReader::get_string(const std::string& path, std::optional<std::string> fallback) {
  const toml::node* n = find(path);
  if (!n) {
    if (fallback) return *fallback;
    fail(path, "missing; expected a string");
  }
  if (n->is_string()) return *n->value<std::string>();
  fail(path, "expected a string, found " + found_type(*n));
}

std::string ConfigReader::get_choice(const std::string& path, const std::vector<std::string>& choices,
                                     std::optional<std::string> fallback) {
  std::string v = get_string(path, fallback);
  for (const auto& c : choices)
    if (c == v) return v;
  std::string list;
  for (const auto& c : choices) list += (list.empty() ? "\"" : ", \"") + c + "\"";
  fail(path, "'" + v + "' is not one of " + list);
}

std::vector<double> ConfigReader::get_doubles(const std::string& path, std::size_t count) {
  const toml::node* n = find(path);
  if (!n) fail(path, "missing; expected an array of " + std::to_string(count) + " numbers");
  const toml::array* a = n->as_array();
  if (!a || a->size() != count)
    fail(path, "expected an array of " + std::to_string(count) + " numbers, found " + found_type(*n));
  std::vector<double> out;
  for (const auto& e : *a) {
    auto v = e.value<double>();
    if (!v) fail(path, "expected numbers in the array, found " + type_name(e));
    if (!std::isfinite(*v)) fail(path, "expected finite numbers in the array, found " + std::string(std::isnan(*v) ? "nan" : "an infinity"));
    out.push_back(*v);
  }
  return out;
}

std::vector<std::string> ConfigReader::get_strings(const std::string& path, std::vector<std::string> fallback) {
  const toml::node* n = find(path);
  if (!n) return fallback;
  const toml::array* a = n->as_array();
  if (!a) fail(path, "expected an array of strings, found " + found_type(*n));
  std::vector<std::string> out;
  for (const auto& e : *a) {
    auto v = e.value<std::string>();
    if (!v) fail(path, "expected strings in the array, found " + type_name(e));
    out.push_back(*v);
  }
  return out;
}

void ConfigReader::check_all_used() const {
  std::vector<std::string> leaves;
  collect_leaves(root_, "", leaves);
  for (const auto& key : leaves) {
    if (used_.count(key)) continue;
    const std::string best = closest(key, asked_, 4);
    throw InputError(where(key) + ": unknown key" + (best.empty() ? "" : "; did you mean '" + best + "'?") +
                     " (see docs/config.md)");
  }
}

}  // namespace pdex
