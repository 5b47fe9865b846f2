#pragma once
// Pictures of a 3D field: the plane across one axis at an index (a slice), or the largest value along z
// of every column (a maximum-intensity projection).
#include <span>
#include <string>
#include <vector>

#include "pdex/io/field_files.hpp"

namespace pdex::io {

struct Section {
  char axis = 'z';  // 'x', 'y' or 'z': the axis the plane is across (the projection is along z)
  int index = 0;    // the plane's index along that axis
  bool max_projection = false;

  // "z12", "x0" or "zmax": how output file names tell sections apart.
  std::string tag() const;
};

// A section's values, row-major with rows going up as write_png draws them: across z, nx columns by ny
// rows; across y, nx by nz; across x, ny by nz.
struct SectionPicture {
  std::vector<double> values;
  int width = 0, height = 0;
};

// The section s of a field on an nx x ny x nz grid, read where its rows lie (row-major [z][y][x] values,
// or a stepper's padded rows). The index must lie on the grid.
SectionPicture section_of(const NamedValues& field, int nx, int ny, int nz, const Section& s);
inline SectionPicture section_of(std::span<const double> values, int nx, int ny, int nz, const Section& s) {
  return section_of(NamedValues{"", values}, nx, ny, nz, s);
}

}  // namespace pdex::io
