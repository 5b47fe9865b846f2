#pragma once
// Field pictures: a scalar field coloured through a Colormap and written as an 8-bit RGB PNG.
//
// Orientation: values are row-major [y][x] (the .npy layout, element [y, x] at y * nx + x) and
// y points up, as in the seeds' plots; PNG rows run top to bottom, so row y = 0 becomes the
// bottom row of the picture.
#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include "pdex/io/colormap.hpp"

namespace pdex::io {

// Which values map to the ends of the colormap. Automatic: the min and max of the finite
// values of this picture (a constant field maps to the middle colour). Fixed: [min, max] with
// min < max, values outside clamped to the end colours; use it to compare frames of a run.
struct ColorRange {
  bool automatic = true;
  double min = 0, max = 1;
};

// Writes an nx-by-ny field as a (scale nx)-by-(scale ny) picture, each cell a scale-by-scale
// block, so that a 64x64 field is not a thumbnail. NaN and Inf cells are drawn in
// invalid_color (magenta). Throws pdex::InputError for a fixed range that is not finite with
// min < max or a scale below 1, and pdex::Error naming the file for a size mismatch or a
// failed write (a partial file is removed).
void write_png(const std::filesystem::path& file, std::span<const double> values, int nx, int ny, Colormap cmap,
               ColorRange range, int scale = 1);
void write_png(const std::filesystem::path& file, std::span<const float> values, int nx, int ny, Colormap cmap,
               ColorRange range, int scale = 1);

// Reads any PNG as 8-bit RGB, row-major from the top row, 3 bytes per pixel (for tests and
// tools that check pictures). Throws pdex::InputError naming the file on failure.
std::vector<std::uint8_t> read_png_rgb(const std::filesystem::path& file, int& width, int& height);

}  // namespace pdex::io
