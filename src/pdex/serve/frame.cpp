#include "pdex/serve/frame.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace pdex::serve {

namespace {

struct Range {
  double min = 0, max = 0, mean = 0;
};

Range finite_range(const std::vector<double>& v) {
  Range r{std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(), 0};
  std::size_t n = 0;
  for (double x : v) {
    if (!std::isfinite(x)) continue;
    r.min = std::min(r.min, x), r.max = std::max(r.max, x), r.mean += x, ++n;
  }
  if (n == 0) return {};
  r.mean /= double(n);
  return r;
}

void put_le16(char* out, uint16_t q) {
  out[0] = char(q & 0xff);
  out[1] = char(q >> 8);
}

}  // namespace

std::string encode_frame(const Snapshot& s) {
  nlohmann::json head = {{"type", "frame"}, {"step", s.step}, {"t", s.t}, {"version", s.version}, {"nx", s.nx},
                         {"ny", s.ny}, {"steps_per_second", s.steps_per_second}, {"fields", nlohmann::json::array()}};
  if (s.solver_iterations >= 0) head["solver_iterations"] = s.solver_iterations;
  std::vector<Range> ranges;
  for (std::size_t f = 0; f < s.values.size(); ++f) {
    ranges.push_back(finite_range(s.values[f]));
    head["fields"].push_back({{"name", s.names[f]}, {"min", ranges.back().min}, {"max", ranges.back().max}, {"mean", ranges.back().mean}});
  }
  const std::string text = head.dump();
  const std::size_t start = (4 + text.size() + 3) / 4 * 4, cells = std::size_t(s.nx) * std::size_t(s.ny);
  std::string out(start + 2 * cells * s.values.size(), '\0');
  const auto n = uint32_t(text.size());
  for (int b = 0; b < 4; ++b) out[std::size_t(b)] = char((n >> (8 * b)) & 0xff);
  std::memcpy(out.data() + 4, text.data(), text.size());
  char* p = out.data() + start;
  for (std::size_t f = 0; f < s.values.size(); ++f) {
    const Range r = ranges[f];
    const double scale = r.max > r.min ? frame_levels / (r.max - r.min) : 0.0;
    for (double x : s.values[f]) {
      put_le16(p, std::isfinite(x) ? uint16_t(std::lround((x - r.min) * scale)) : frame_nonfinite);
      p += 2;
    }
  }
  return out;
}

}  // namespace pdex::serve
