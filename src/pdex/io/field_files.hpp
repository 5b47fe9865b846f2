#pragma once
// What the field-file writers (vtk.hpp, hdf5_series.hpp) are handed, the grid and the fields' values,
// and the checks and XML text they share.
#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <span>
#include <string>

#include "pdex/core/error.hpp"

namespace pdex::io {

// A uniform cell-centred 2D grid: cell (i, j) has its centre at (x0 + (i + 1/2) dx, y0 + (j + 1/2) dy).
struct ImageGrid {
  int nx = 0, ny = 0;
  double x0 = 0, y0 = 0, dx = 1, dy = 1;
};

// One field's interior values, row-major [y][x] (y * nx + x), nx * ny of them.
struct NamedValues {
  std::string name;
  std::span<const double> values;
};

enum class StoreAs { f32, f64 };  // values of an f32 run are stored as float32 (exactly: they were floats)

// Throws Error naming `file` unless the grid has cells and each field a name without '/' (an HDF5 path
// separator) and nx * ny values.
inline void check_fields(const std::filesystem::path& file, const ImageGrid& grid, std::span<const NamedValues> fields) {
  if (grid.nx <= 0 || grid.ny <= 0) throw Error(file.string() + ": the grid has no cells");
  const auto cells = static_cast<std::size_t>(grid.nx) * static_cast<std::size_t>(grid.ny);
  for (const NamedValues& f : fields) {
    if (f.name.empty() || f.name.find('/') != std::string::npos)
      throw Error(file.string() + ": bad field name '" + f.name + "'");
    if (f.values.size() != cells)
      throw Error(file.string() + ": field " + f.name + " has " + std::to_string(f.values.size()) +
                  " values, the grid " + std::to_string(cells));
  }
}

// A number in the writers' XML text, to the last bit.
inline std::string xml_number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", v);
  return text;
}

// Field names and file names in XML text and attribute values.
inline std::string xml_escaped(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace pdex::io
