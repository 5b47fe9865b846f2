#pragma once
// Text for picture labels (the axes of a mosaic): a small bitmap font drawn by hand for pdex, each
// glyph 5 pixels wide and 8 tall (7 above the baseline and one descender row for g, j, p, q, y, the
// comma and the underscore), set 6 pixels apart. It covers digits, both alphabets, space and
// . , : - + = _ ( ) [ ] / * ^ '; any other character draws as a small box.
#include <array>
#include <cstdint>
#include <string_view>

#include "pdex/io/png_writer.hpp"

namespace pdex::io {

inline constexpr int glyph_width = 5, glyph_height = 8;
inline constexpr int glyph_advance = glyph_width + 1;  // one blank column between letters
inline constexpr int cap_height = glyph_height - 1;    // digits and capitals; the last row is for descenders

// A glyph's rows from the top; bit 4 of a row is its leftmost pixel.
using GlyphRows = std::array<std::uint8_t, glyph_height>;

// The glyph of c, or the box for a character the font lacks.
GlyphRows glyph(char c);

// The size of s in pixels when drawn at `scale` (each font pixel a scale-by-scale block), from the
// first glyph's left edge to the last one's right edge, so that centred text is centred.
int text_width(std::string_view s, int scale);
int text_height(int scale);

// The scale for labels of a width-by-height picture: text grows by one font pixel per 400 pixels of
// picture (the geometric mean of its sides), up to 4, so that labels stay readable on large pictures.
int label_scale(double width, double height);

// Draws s left to right with the top-left of its first glyph at pixel (x, y); only the glyphs'
// pixels are painted, so the background shows through.
void draw_text(Image& image, int x, int y, std::string_view s, Rgb color, int scale);

// Draws s turned 90 degrees counter-clockwise, reading upwards as a vertical axis name does; the
// text fills the text_height wide, text_width tall box whose top-left pixel is (x, y).
void draw_text_up(Image& image, int x, int y, std::string_view s, Rgb color, int scale);

}  // namespace pdex::io
