#include "pdex/serve/frame.hpp"

#include <nlohmann/json.hpp>

#include <cstring>

namespace pdex::serve {

std::string encode_frame(const Snapshot& s) {
  nlohmann::json head = {{"type", "frame"}, {"step", s.step}, {"t", s.t}, {"version", s.version}, {"nx", s.nx},
                         {"ny", s.ny}, {"steps_per_second", s.steps_per_second}, {"fields", nlohmann::json::array()}};
  if (s.solver_iterations >= 0) head["solver_iterations"] = s.solver_iterations;
  if (s.plane >= 0) head["plane"] = s.plane;
  for (std::size_t f = 0; f < s.fields.size(); ++f)
    head["fields"].push_back({{"name", s.names[f]}, {"min", s.fields[f].min}, {"max", s.fields[f].max}, {"mean", s.fields[f].mean}});
  const std::string text = head.dump();
  const std::size_t start = (4 + text.size() + 3) / 4 * 4, cells = std::size_t(s.nx) * std::size_t(s.ny);
  std::string out(start + 2 * cells * s.fields.size(), '\0');
  const auto n = uint32_t(text.size());
  for (int b = 0; b < 4; ++b) out[std::size_t(b)] = char((n >> (8 * b)) & 0xff);
  std::memcpy(out.data() + 4, text.data(), text.size());
  char* p = out.data() + start;
  for (const QuantizedField& f : s.fields)
    for (uint16_t q : f.q) {
      *p++ = char(q & 0xff);
      *p++ = char(q >> 8);
    }
  return out;
}

}  // namespace pdex::serve
