#pragma once
// What the field-file writers (vtk.hpp, hdf5_series.hpp) are handed, the grid and the fields' values,
// and the checks and XML text they share.
#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <span>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "pdex/core/error.hpp"

namespace pdex::io {

// A uniform cell-centred grid: cell (i, j) has its centre at (x0 + (i + 1/2) dx, y0 + (j + 1/2) dy); in
// 3D (nz > 1), nz planes of such cells, plane k at z0 + (k + 1/2) dz.
struct ImageGrid {
  int nx = 0, ny = 0;
  double x0 = 0, y0 = 0, dx = 1, dy = 1;
  int nz = 1;
  double z0 = 0, dz = 1;

  // The rows of every plane, one after another.
  std::size_t rows() const { return static_cast<std::size_t>(ny) * static_cast<std::size_t>(nz); }
};

// One field's interior values, row-major [y][x] ([z][y][x] in 3D): value (x, j) of row j of plane k at
// k * plane_stride + j * row_stride + x, row_stride >= nx (0: nx), plane_stride >= ny * row_stride (0: the
// planes follow each other), as doubles or as floats (a stepper's own rows, padded, or a copy of them).
struct NamedValues {
  std::string name;
  std::variant<std::span<const double>, std::span<const float>> values;
  std::size_t row_stride = 0;
  std::size_t plane_stride = 0;

  std::size_t stride(const ImageGrid& g) const { return row_stride ? row_stride : static_cast<std::size_t>(g.nx); }
  // Where row r of the grid's rows (every plane's, one after another) starts.
  std::size_t row_start(std::size_t r, const ImageGrid& g) const {
    if (plane_stride == 0) return r * stride(g);
    const auto ny = static_cast<std::size_t>(g.ny);
    return r / ny * plane_stride + r % ny * stride(g);
  }
  // Whether the rows follow each other without padding (the values are the row-major array).
  bool unpadded(const ImageGrid& g) const {
    const auto nx = static_cast<std::size_t>(g.nx);
    return stride(g) == nx && (plane_stride == 0 || plane_stride == static_cast<std::size_t>(g.ny) * nx);
  }
};

enum class StoreAs { f32, f64 };  // values of an f32 run are stored as float32 (exactly: they were floats)

// Throws Error naming `file` unless the grid has cells and each field a name without '/' (an HDF5 path
// separator) and rows of at least nx values for every row of the grid.
inline void check_fields(const std::filesystem::path& file, const ImageGrid& grid, std::span<const NamedValues> fields) {
  if (grid.nx <= 0 || grid.ny <= 0 || grid.nz <= 0) throw Error(file.string() + ": the grid has no cells");
  const auto cells = static_cast<std::size_t>(grid.nx) * grid.rows();
  for (const NamedValues& f : fields) {
    if (f.name.empty() || f.name.find('/') != std::string::npos)
      throw Error(file.string() + ": bad field name '" + f.name + "'");
    const std::size_t size = std::visit([](auto v) { return v.size(); }, f.values);
    const std::size_t stride = f.stride(grid), needed = f.row_start(grid.rows() - 1, grid) + static_cast<std::size_t>(grid.nx);
    const bool planes_overlap = f.plane_stride != 0 && f.plane_stride < static_cast<std::size_t>(grid.ny) * stride;
    if (stride < static_cast<std::size_t>(grid.nx) || planes_overlap || size < needed || (f.row_stride == 0 && f.plane_stride == 0 && size != cells))
      throw Error(file.string() + ": field " + f.name + " has " + std::to_string(size) + " values in rows of " +
                  std::to_string(stride) + ", the grid " + std::to_string(grid.nx) + " x " + std::to_string(grid.ny) +
                  (grid.nz > 1 ? " x " + std::to_string(grid.nz) : "") + " cells");
  }
}

// Calls write(values, first_row, rows) over the rows of `f` as contiguous values of type T: `f`'s own
// memory in one call where it holds T in unpadded rows, else rows converted about 1 MiB at a time (still
// in cache when the writer copies them out). Returns false as soon as a write returns false.
template <class T, class Write>
bool for_each_block(const NamedValues& f, const ImageGrid& g, Write&& write) {
  const auto nx = static_cast<std::size_t>(g.nx), ny = g.rows();
  if (const auto* same = std::get_if<std::span<const T>>(&f.values); same && f.unpadded(g))
    return write(same->data(), std::size_t{0}, ny);
  const std::size_t rows = std::clamp<std::size_t>((std::size_t{1} << 20) / sizeof(T) / nx, 1, ny);
  std::vector<T> block(rows * nx);
  for (std::size_t y = 0; y < ny; y += rows) {
    const std::size_t count = std::min(rows, ny - y);
    std::visit([&](auto v) {
      for (std::size_t r = 0; r < count; ++r) std::copy_n(v.data() + f.row_start(y + r, g), nx, block.data() + r * nx);
    }, f.values);
    if (!write(static_cast<const T*>(block.data()), y, count)) return false;
  }
  return true;
}

// The field's values row-major, as doubles (for what takes whole fields of doubles: shading).
inline std::vector<double> row_major(const NamedValues& f, const ImageGrid& g) {
  const auto nx = static_cast<std::size_t>(g.nx);
  std::vector<double> out;
  out.reserve(nx * g.rows());
  for_each_block<double>(f, g, [&](const double* rows, std::size_t, std::size_t count) {
    out.insert(out.end(), rows, rows + count * nx);
    return true;
  });
  return out;
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
