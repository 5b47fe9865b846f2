#include "pdex/serve/messages.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "pdex/core/error.hpp"

namespace pdex::serve {

namespace {

const nlohmann::json& field(const nlohmann::json& msg, const char* key) {
  if (!msg.is_object()) throw InputError("expected a JSON object, got " + std::string(msg.type_name()));
  const auto it = msg.find(key);
  if (it == msg.end()) throw InputError("missing \"" + std::string(key) + "\"");
  return *it;
}

std::string range_text(double lo, double hi) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "[%.6g, %.6g]", lo, hi);
  return buf;
}

}  // namespace

std::string get_string(const nlohmann::json& msg, const char* key, std::size_t max_length) {
  const nlohmann::json& v = field(msg, key);
  if (!v.is_string()) throw InputError("\"" + std::string(key) + "\": expected a string, got " + v.type_name());
  const std::string& s = v.get_ref<const std::string&>();
  if (s.size() > max_length)
    throw InputError("\"" + std::string(key) + "\": at most " + std::to_string(max_length) + " characters, got " +
                     std::to_string(s.size()));
  return s;
}

double get_number(const nlohmann::json& msg, const char* key, double lo, double hi) {
  const nlohmann::json& v = field(msg, key);
  if (!v.is_number()) throw InputError("\"" + std::string(key) + "\": expected a number, got " + v.type_name());
  const double x = v.get<double>();
  if (!std::isfinite(x) || x < lo || x > hi)
    throw InputError("\"" + std::string(key) + "\": expected a number in " + range_text(lo, hi));
  return x;
}

int64_t get_int(const nlohmann::json& msg, const char* key, int64_t lo, int64_t hi) {
  const nlohmann::json& v = field(msg, key);
  if (!v.is_number_integer()) throw InputError("\"" + std::string(key) + "\": expected an integer, got " + v.type_name());
  const int64_t x = v.get<int64_t>();
  if (x < lo || x > hi)
    throw InputError("\"" + std::string(key) + "\": expected an integer from " + std::to_string(lo) + " to " + std::to_string(hi));
  return x;
}

std::vector<double> get_numbers(const nlohmann::json& msg, const char* key, std::size_t count) {
  const nlohmann::json& v = field(msg, key);
  if (!v.is_array() || v.size() != count)
    throw InputError("\"" + std::string(key) + "\": expected an array of " + std::to_string(count) + " numbers");
  std::vector<double> out;
  for (const auto& x : v) {
    if (!x.is_number() || !std::isfinite(x.get<double>()))
      throw InputError("\"" + std::string(key) + "\": expected finite numbers");
    out.push_back(x.get<double>());
  }
  return out;
}

std::string toml_value(const nlohmann::json& v) {
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number_integer()) return std::to_string(v.get<int64_t>());
  if (v.is_number()) {
    const double x = v.get<double>();
    if (!std::isfinite(x)) throw InputError("\"value\": expected a finite number");
    char buf[40];
    for (int digits = 15; digits <= 17; ++digits) {  // the shortest that reads back as x
      std::snprintf(buf, sizeof buf, "%.*g", digits, x);
      if (std::strtod(buf, nullptr) == x) break;
    }
    std::string s = buf;
    if (s.find_first_of(".en") == std::string::npos) s += ".0";  // a float in TOML
    return s;
  }
  if (v.is_string()) {  // a TOML basic string
    std::string out = "\"";
    for (unsigned char c : v.get_ref<const std::string&>()) {
      if (c == '"' || c == '\\') {
        out += '\\', out += char(c);
      } else if (c == '\n') {
        out += "\\n";
      } else if (c < 0x20 || c == 0x7f) {
        char esc[8];
        std::snprintf(esc, sizeof esc, "\\u%04x", c);
        out += esc;
      } else {
        out += char(c);
      }
    }
    return out + "\"";
  }
  throw InputError("\"value\": expected a number, string or boolean (or \"toml\" with the value as TOML text), got " +
                   std::string(v.type_name()));
}

}  // namespace pdex::serve
