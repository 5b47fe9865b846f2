#pragma once
// Mosaic pictures of a parameter sweep: many small fields in one PNG grid, one member per pair of
// parameter values, with the values written along the axes (like Pearson's map of Gray-Scott
// patterns over the feed and kill rates, Science 261, 1993). All members share one colour scale,
// shown by a small colour bar under the grid, so that the picture compares them honestly.
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "pdex/io/colormap.hpp"
#include "pdex/io/png_writer.hpp"

namespace pdex::io {

// One swept parameter: its name and its values, one per column (x axis) or per row (y axis). An
// axis with an empty name is drawn bare, without name, ticks or value labels: a one-parameter sweep
// passes y_axis = {"", {0.0}} and gets one labelled row.
struct MosaicAxis {
  std::string name;
  std::vector<double> values;
};

// Where write_mosaic_png put the members, in pixels from the picture's top-left corner. Member
// (row r, column c) has its top-left pixel at (grid_x + c pitch_x, grid_y + (rows - 1 - r) pitch_y).
struct MosaicLayout {
  int width = 0, height = 0;     // the whole picture
  int grid_x = 0, grid_y = 0;    // top-left pixel of the member drawn at the top left
  int pitch_x = 0, pitch_y = 0;  // a member's size (nx scale, ny scale) plus the 1-pixel gap
  int text_scale = 1;            // screen pixels per font pixel; text grows with the grid
};

// Draws rows x cols members, cols = x_axis.values.size() and rows = y_axis.values.size(); each
// member is an nx-by-ny field, row-major [y][x] with y up as in write_png, and member m (at
// members[m nx ny]) sits in row m / cols and column m % cols. Row 0 is drawn at the bottom, so the
// y parameter increases upwards; columns run left to right. Each cell is a scale-by-scale block,
// members are 1 pixel apart, NaN and Inf cells are invalid_color, and the colour range is shared:
// automatic (the min and max of all finite values) or fixed. Value labels show at most 5
// significant digits (0.035, 1e-05); every column and row is labelled when the labels fit, else
// every n-th. Throws pdex::Error naming the file for empty axes or fields, a size mismatch, a
// picture too large or a failed write, and pdex::InputError for a scale below 1 or a fixed range
// that is not finite with min < max.
MosaicLayout write_mosaic_png(const std::filesystem::path& file, std::span<const double> members, int nx, int ny,
                              const MosaicAxis& x_axis, const MosaicAxis& y_axis, Colormap cmap, ColorRange range,
                              int scale = 1);

}  // namespace pdex::io
