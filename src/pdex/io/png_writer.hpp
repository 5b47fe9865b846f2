#pragma once
// Field pictures: a scalar field coloured through a Colormap and written as an 8-bit RGB PNG.
//
// Orientation: values are row-major [y][x] (the .npy layout, element [y, x] at y * nx + x) and
// y points up, as in the seeds' plots; PNG rows run top to bottom, so row y = 0 becomes the
// bottom row of the picture.
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
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

// A ColorRange resolved against the values to be drawn, so that several pictures (the members
// of a mosaic) can share one value -> colour mapping.
class ColorScale {
 public:
  // Throws pdex::InputError naming `where` for a fixed range that is not finite with min < max.
  ColorScale(std::span<const double> values, Colormap cmap, ColorRange range, const std::string& where);
  ColorScale(std::span<const float> values, Colormap cmap, ColorRange range, const std::string& where);

  // NaN and Inf give invalid_color; values outside [min(), max()] the end colours.
  Rgb color(double v) const;
  // The values at the ends of the colormap; NaN when an automatic range found no finite value.
  double min() const { return min_; }
  double max() const { return max_; }

 private:
  ColorScale(Colormap cmap, ColorRange resolved);

  std::span<const Rgb, colormap_size> table_;
  double min_, max_;
  // t = (v - min) / (max - min) computed from halves, which keeps the span finite even for
  // values covering most of the double range.
  double half_min_ = 0, inv_half_span_ = 0;  // inv_half_span_ = 0 marks a constant field
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

// An 8-bit RGB picture to draw on: row-major from the top row, 3 bytes per pixel, the layout that
// write_rgb_png takes and read_png_rgb returns.
struct Image {
  Image(int width, int height, Rgb background);  // sizes below 0 count as 0

  int width = 0, height = 0;
  std::vector<std::uint8_t> rgb;

  // Pixel (x, y), y = 0 the top row; it must lie inside the picture.
  Rgb at(int x, int y) const;
  // Paints the w-by-h block whose top-left pixel is (x, y). What falls outside the picture is
  // dropped, so text and marks near an edge need no checks of their own.
  void fill(int x, int y, int w, int h, Rgb c);
};

// Writes the picture as an 8-bit RGB PNG. Throws pdex::Error naming the file when the write
// fails (a partial file is removed).
void write_rgb_png(const std::filesystem::path& file, const Image& image);

// Reads any PNG as 8-bit RGB, row-major from the top row, 3 bytes per pixel (for tests and
// tools that check pictures). Throws pdex::InputError naming the file on failure.
std::vector<std::uint8_t> read_png_rgb(const std::filesystem::path& file, int& width, int& height);

}  // namespace pdex::io
