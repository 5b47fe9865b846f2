#include "pdex/io/section.hpp"

#include <algorithm>
#include <cstddef>
#include <string>
#include <variant>

#include "pdex/core/error.hpp"

namespace pdex::io {

std::string Section::tag() const { return std::string(1, axis) + (max_projection ? "max" : std::to_string(index)); }

namespace {

template <class T>
SectionPicture section_in(std::span<const T> values, const NamedValues& field, int nx, int ny, int nz, const Section& s) {
  const ImageGrid g{nx, ny, 0, 0, 1, 1, nz};
  auto at = [&](int i, int j, int k) { return double(values[field.row_start(std::size_t(k) * std::size_t(ny) + std::size_t(j), g) + std::size_t(i)]); };
  SectionPicture p;
  if (s.max_projection || s.axis == 'z') {  // planes in memory order: the projection streams the field
    p = {std::vector<double>(std::size_t(nx) * std::size_t(ny)), nx, ny};
    const int first = s.max_projection ? 0 : s.index, last = s.max_projection ? nz - 1 : s.index;
    for (int k = first; k <= last; ++k)
      for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) {
          double& m = p.values[std::size_t(j) * std::size_t(nx) + std::size_t(i)];
          m = k == first ? at(i, j, k) : std::max(m, at(i, j, k));
        }
    return p;
  }
  p.width = s.axis == 'y' ? nx : ny;
  p.height = nz;
  p.values.resize(std::size_t(p.width) * std::size_t(nz));
  for (int k = 0; k < nz; ++k)
    for (int a = 0; a < p.width; ++a)
      p.values[std::size_t(k) * std::size_t(p.width) + std::size_t(a)] = s.axis == 'y' ? at(a, s.index, k) : at(s.index, a, k);
  return p;
}

}  // namespace

SectionPicture section_of(const NamedValues& field, int nx, int ny, int nz, const Section& s) {
  const int extent = s.axis == 'x' ? nx : s.axis == 'y' ? ny : nz;
  if (!s.max_projection && (s.index < 0 || s.index >= extent))
    throw Error("section " + s.tag() + " lies outside the grid (" + std::string(1, s.axis) + " indices 0 to " + std::to_string(extent - 1) + ")");
  return std::visit([&](auto values) { return section_in(values, field, nx, ny, nz, s); }, field.values);
}

}  // namespace pdex::io
