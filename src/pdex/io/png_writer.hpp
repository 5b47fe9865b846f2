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
#include "pdex/io/field_files.hpp"

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
  // Over an nx-by-ny field's rows (padded or not); throws pdex::Error naming `where` for too few values.
  ColorScale(const NamedValues& field, int nx, int ny, Colormap cmap, ColorRange range, const std::string& where);

  // NaN and Inf give invalid_color; values outside [min(), max()] the end colours.
  Rgb color(double v) const;
  // The colour a fraction t of the way from min() to max(), for colour bars: t = 0 and t = 1 give
  // the colours of min() and max() exactly.
  Rgb color_at_fraction(double t) const;
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

// What a field picture carries besides the field. With neither a colour bar nor a caption the
// picture is the field alone, as write_png has always drawn it; with either, the field sits on white
// paper with a margin all round, and the text is black at the layout's text_scale.
struct FrameDecor {
  int scale = 1;          // each cell a scale-by-scale block
  bool colorbar = false;  // a strip right of the field, the range's max at the top and min at the bottom, labelled
  std::string caption;    // one line of text above the field ("u   t = 12.5"); empty for none
};

// Where a picture's parts lie, in pixels from its top-left corner. With W = nx scale and H = ny scale
// (the field block) and ts = label_scale(W, H) (bitmap_font.hpp), a decorated picture has a margin of
// 4 ts all round; a caption takes a line of text_height + 4 ts = 12 ts above the field; a colour bar
// is a strip 6 ts wide, 4 ts right of the field, as tall as the field but at least 24 ts, followed
// after 3 ts by its labels (%.4g, room for 11 characters, the longest such number); a captioned picture
// is at least 24 characters wide, and a longer caption is cut at the picture's edge. The size thus
// depends on nx, ny, the scale and which parts are shown, never on the caption's text or the values,
// so that the frames of a movie share one size.
struct FrameLayout {
  int width = 0, height = 0;                       // the whole picture
  int field_x = 0, field_y = 0;                    // top-left pixel of the field block
  int bar_x = 0, bar_y = 0, bar_w = 0, bar_h = 0;  // the colour strip; bar_w = 0 without one
  int label_x = 0;                                 // left edge of the bar's labels
  int caption_x = 0, caption_y = 0;                // top-left pixel of the caption's first glyph
  int text_scale = 1;
};

// Lays out a picture of an nx-by-ny field. Throws pdex::Error naming `where` for a field without
// cells or a picture too large, and pdex::InputError for a scale below 1.
FrameLayout frame_layout(int nx, int ny, const FrameDecor& decor, const std::string& where);

// The picture of an nx-by-ny field (row-major [y][x], y up as in write_png) with its decor: what
// write_png writes, and a movie's frame. Throws as frame_layout does, and pdex::Error naming `where`
// when values does not hold nx ny cells.
Image render_field(std::span<const double> values, int nx, int ny, const ColorScale& colors, const FrameDecor& decor,
                   const std::string& where);
// The same from an nx-by-ny field's rows as a stepper keeps them (padded), without a row-major copy.
Image render_field(const NamedValues& field, int nx, int ny, const ColorScale& colors, const FrameDecor& decor,
                   const std::string& where);

// Paints the field's cells as scale-by-scale blocks, y up, the block's top-left pixel at (left, top);
// the block must lie inside the image.
void draw_field(Image& image, int left, int top, std::span<const double> values, int nx, int ny, int scale,
                const ColorScale& colors);

// write_png with a colour bar and a caption as `decor` asks; without them, the same picture as the
// overloads above at decor.scale.
void write_png(const std::filesystem::path& file, std::span<const double> values, int nx, int ny, Colormap cmap,
               ColorRange range, const FrameDecor& decor);
void write_png(const std::filesystem::path& file, std::span<const float> values, int nx, int ny, Colormap cmap,
               ColorRange range, const FrameDecor& decor);
// From an nx-by-ny field's rows as a stepper keeps them (padded), without a row-major copy.
void write_png(const std::filesystem::path& file, const NamedValues& field, int nx, int ny, Colormap cmap,
               ColorRange range, const FrameDecor& decor);

// Reads any PNG as 8-bit RGB, row-major from the top row, 3 bytes per pixel (for tests and
// tools that check pictures). Throws pdex::InputError naming the file on failure.
std::vector<std::uint8_t> read_png_rgb(const std::filesystem::path& file, int& width, int& height);

}  // namespace pdex::io
