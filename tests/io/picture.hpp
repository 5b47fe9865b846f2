#pragma once
// A PNG read back for the picture tests: its pixels, row 0 at the top as PNG stores them.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <vector>

#include "pdex/io/png_writer.hpp"

namespace pdex::io::testing {

struct Picture {
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgb;
  // Pixel (column, row) with row 0 at the top.
  Rgb at(int column, int row) const {
    const std::size_t i = 3 * (static_cast<std::size_t>(row) * width + column);
    return Rgb{rgb[i], rgb[i + 1], rgb[i + 2]};
  }
  // Whether any pixel of columns [x0, x1) and rows [y0, y1) differs from `paper`.
  bool inked(int x0, int y0, int x1, int y1, Rgb paper = Rgb{255, 255, 255}) const {
    for (int row = y0; row < y1; ++row)
      for (int col = x0; col < x1; ++col)
        if (at(col, row) != paper) return true;
    return false;
  }
};

inline Picture read_picture(const std::filesystem::path& file) {
  Picture p;
  p.rgb = read_png_rgb(file, p.width, p.height);
  return p;
}

}  // namespace pdex::io::testing
