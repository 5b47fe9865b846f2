#include "pdex/io/section.hpp"

#include <algorithm>
#include <cstddef>

#include "pdex/core/error.hpp"

namespace pdex::io {

std::string Section::tag() const { return std::string(1, axis) + (max_projection ? "max" : std::to_string(index)); }

SectionPicture section_of(std::span<const double> values, int nx, int ny, int nz, const Section& s) {
  auto at = [&](int i, int j, int k) { return values[(std::size_t(k) * std::size_t(ny) + std::size_t(j)) * std::size_t(nx) + std::size_t(i)]; };
  SectionPicture p;
  if (s.max_projection) {
    p = {std::vector<double>(values.begin(), values.begin() + std::ptrdiff_t(nx) * ny), nx, ny};
    for (int k = 1; k < nz; ++k)
      for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) {
          double& m = p.values[std::size_t(j) * std::size_t(nx) + std::size_t(i)];
          m = std::max(m, at(i, j, k));
        }
    return p;
  }
  const int extent = s.axis == 'x' ? nx : s.axis == 'y' ? ny : nz;
  if (s.index < 0 || s.index >= extent)
    throw Error("section " + s.tag() + " lies outside the grid (" + std::string(1, s.axis) + " indices 0 to " + std::to_string(extent - 1) + ")");
  if (s.axis == 'z') {
    const auto first = values.begin() + std::ptrdiff_t(s.index) * nx * ny;
    return {std::vector<double>(first, first + std::ptrdiff_t(nx) * ny), nx, ny};
  }
  p.width = s.axis == 'y' ? nx : ny;
  p.height = nz;
  p.values.resize(std::size_t(p.width) * std::size_t(nz));
  for (int k = 0; k < nz; ++k)
    for (int a = 0; a < p.width; ++a)
      p.values[std::size_t(k) * std::size_t(p.width) + std::size_t(a)] = s.axis == 'y' ? at(a, s.index, k) : at(s.index, a, k);
  return p;
}

}  // namespace pdex::io
