#pragma once
// Reading the explorer's messages: every field checked for its type, size and range, and a wrong one
// refused with an InputError that names it (the server answers it, and the run goes on).
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace pdex::serve {

std::string get_string(const nlohmann::json& msg, const char* key, std::size_t max_length);
int64_t get_int(const nlohmann::json& msg, const char* key, int64_t lo, int64_t hi);
double get_number(const nlohmann::json& msg, const char* key, double lo, double hi);
std::vector<double> get_numbers(const nlohmann::json& msg, const char* key, std::size_t count);

// A JSON number, string or boolean as a TOML value, for ConfigReader::apply_override (strings quoted,
// numbers to the last digit).
std::string toml_value(const nlohmann::json& v);

}  // namespace pdex::serve
