#include "pdex/io/mosaic.hpp"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "pdex/core/error.hpp"
#include "pdex/io/bitmap_font.hpp"

namespace pdex::io {

namespace {

constexpr Rgb paper{255, 255, 255}, ink{0, 0, 0};
constexpr int tick_length = 3;  // in font pixels, like every spacing below

// The members' grid, from its top-left corner.
struct Grid {
  int cols = 0, rows = 0;
  int member_w = 0, member_h = 0;
  int pitch_x = 0, pitch_y = 0;
  int width = 0, height = 0;
  int ts = 1;  // text scale
};

// Something drawn around the grid, placed relative to the grid's top-left corner; the picture is
// sized to hold them all.
struct Mark {
  enum class Kind { box, text, text_up } kind = Kind::box;
  int x = 0, y = 0, w = 0, h = 0;
  Rgb color = ink;
  std::string text;
};

Mark box(int x, int y, int w, int h, Rgb color = ink) {
  return {.kind = Mark::Kind::box, .x = x, .y = y, .w = w, .h = h, .color = color, .text = {}};
}

Mark text(int x, int y, std::string s, int ts) {
  return {.kind = Mark::Kind::text, .x = x, .y = y, .w = text_width(s, ts), .h = text_height(ts), .color = ink,
          .text = std::move(s)};
}

// Turned counter-clockwise and centred on (cx, cy).
Mark text_up(int cx, int cy, std::string s, int ts) {
  const int w = text_height(ts), h = text_width(s, ts);
  return {.kind = Mark::Kind::text_up, .x = cx - w / 2, .y = cy - h / 2, .w = w, .h = h, .color = ink,
          .text = std::move(s)};
}

std::string value_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.5g", v);
  return buf;
}

// Label every step-th member so that labels `extent` long, at `pitch` apart, do not touch.
int label_step(int extent, int pitch) { return std::max(1, (extent + pitch - 1) / pitch); }

int widest(const std::vector<std::string>& labels, int ts) {
  int w = 0;
  for (const std::string& s : labels) w = std::max(w, text_width(s, ts));
  return w;
}

std::vector<std::string> value_texts(const std::vector<double>& values) {
  std::vector<std::string> texts;
  for (double v : values) texts.push_back(value_text(v));
  return texts;
}

// Ticks and value labels under the columns, the axis name centred below them; returns the bottom
// of what it placed.
int add_x_axis(std::vector<Mark>& marks, const Grid& g, const MosaicAxis& axis) {
  const int ts = g.ts;
  const std::vector<std::string> labels = value_texts(axis.values);
  const int step = label_step(widest(labels, ts) + glyph_advance * ts, g.pitch_x);
  const int tick_top = g.height + ts, label_top = tick_top + (tick_length + 2) * ts;
  for (int c = 0; c < g.cols; c += step) {
    const int center = c * g.pitch_x + g.member_w / 2;
    marks.push_back(box(center - ts / 2, tick_top, ts, tick_length * ts));
    Mark label = text(0, label_top, labels[static_cast<std::size_t>(c)], ts);
    label.x = center - label.w / 2;
    marks.push_back(std::move(label));
  }
  Mark name = text(0, label_top + text_height(ts) + 3 * ts, axis.name, ts);
  name.x = g.width / 2 - name.w / 2;
  marks.push_back(name);
  return name.y + name.h;
}

// Ticks and right-aligned value labels left of the rows (row 0 at the bottom), the axis name turned
// upright left of them.
void add_y_axis(std::vector<Mark>& marks, const Grid& g, const MosaicAxis& axis) {
  const int ts = g.ts;
  const std::vector<std::string> labels = value_texts(axis.values);
  const int step = label_step(text_height(ts) + 2 * ts, g.pitch_y);
  const int tick_left = -(1 + tick_length) * ts, label_right = tick_left - 2 * ts;
  for (int r = 0; r < g.rows; r += step) {
    const int center = (g.rows - 1 - r) * g.pitch_y + g.member_h / 2;
    marks.push_back(box(tick_left, center - ts / 2, tick_length * ts, ts));
    Mark label = text(0, center - cap_height * ts / 2, labels[static_cast<std::size_t>(r)], ts);
    label.x = label_right - label.w;
    marks.push_back(std::move(label));
  }
  const int name_right = label_right - widest(labels, ts) - 4 * ts;
  marks.push_back(text_up(name_right - text_height(ts) / 2, g.height / 2, axis.name, ts));
}

// A horizontal bar through the shared colour range, centred under the grid, with its end values
// at either side.
void add_color_bar(std::vector<Mark>& marks, const Grid& g, const ColorScale& colors, int top) {
  const int ts = g.ts;
  const int bar_w = std::clamp(g.width / 2, 32 * ts, 128 * ts), left = g.width / 2 - bar_w / 2;
  for (int i = 0; i < bar_w; ++i) {
    const double t = static_cast<double>(i) / (bar_w - 1);  // the ends show min and max exactly
    marks.push_back(box(left + i, top, 1, cap_height * ts, colors.color_at_fraction(t)));
  }
  Mark low = text(0, top, value_text(colors.min()), ts);
  low.x = left - 3 * ts - low.w;
  marks.push_back(std::move(low));
  marks.push_back(text(left + bar_w + 3 * ts, top, value_text(colors.max()), ts));
}

void draw(Image& image, const Mark& m, int dx, int dy, int ts) {
  switch (m.kind) {
    case Mark::Kind::box:
      image.fill(dx + m.x, dy + m.y, m.w, m.h, m.color);
      break;
    case Mark::Kind::text:
      draw_text(image, dx + m.x, dy + m.y, m.text, m.color, ts);
      break;
    case Mark::Kind::text_up:
      draw_text_up(image, dx + m.x, dy + m.y, m.text, m.color, ts);
      break;
  }
}

// Checks the arguments and sizes the grid, in floating point so that a huge size cannot overflow.
Grid make_grid(const std::string& where, std::size_t count, int nx, int ny, const MosaicAxis& x_axis,
               const MosaicAxis& y_axis, int scale) {
  const std::size_t cols = x_axis.values.size(), rows = y_axis.values.size();
  if (nx <= 0 || ny <= 0 || cols == 0 || rows == 0) {
    throw Error(where + ": cannot draw a mosaic of " + std::to_string(cols) + "x" + std::to_string(rows) +
                " members of " + std::to_string(nx) + "x" + std::to_string(ny) + " cells");
  }
  const std::size_t cells = static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny);
  if (count % cells != 0 || count / cells != cols * rows) {
    throw Error(where + ": cannot draw mosaic: " + std::to_string(count) + " values for " + std::to_string(cols) + "x" +
                std::to_string(rows) + " members of " + std::to_string(nx) + "x" + std::to_string(ny) + " cells");
  }
  if (scale < 1) throw InputError(where + ": PNG scale must be at least 1, got " + std::to_string(scale));
  const double grid_w = static_cast<double>(cols) * (static_cast<double>(nx) * scale + 1) - 1;
  const double grid_h = static_cast<double>(rows) * (static_cast<double>(ny) * scale + 1) - 1;
  // Like write_png's limit, with room left in an int for the margins.
  if (grid_w > 0x3FFFFFFF || grid_h > 0x3FFFFFFF || grid_w * grid_h > 0x1p32) {
    throw Error(where + ": mosaic of " + std::to_string(cols) + "x" + std::to_string(rows) + " members at scale " +
                std::to_string(scale) + " is too large; lower the scale");
  }
  const int ts = label_scale(grid_w, grid_h);
  return {.cols = static_cast<int>(cols), .rows = static_cast<int>(rows), .member_w = nx * scale,
          .member_h = ny * scale, .pitch_x = nx * scale + 1, .pitch_y = ny * scale + 1,
          .width = static_cast<int>(grid_w), .height = static_cast<int>(grid_h), .ts = ts};
}

}  // namespace

MosaicLayout write_mosaic_png(const std::filesystem::path& file, std::span<const double> members, int nx, int ny,
                              const MosaicAxis& x_axis, const MosaicAxis& y_axis, Colormap cmap, ColorRange range,
                              int scale) {
  const std::string where = file.string();
  const Grid g = make_grid(where, members.size(), nx, ny, x_axis, y_axis, scale);
  const ColorScale colors(members, cmap, range, where);

  std::vector<Mark> marks;
  int bottom = g.height;
  if (!x_axis.name.empty()) bottom = add_x_axis(marks, g, x_axis);
  if (!y_axis.name.empty()) add_y_axis(marks, g, y_axis);
  add_color_bar(marks, g, colors, bottom + 8 * g.ts);

  // The picture holds the grid and every mark, with a margin all round.
  int left = 0, top = 0, right = g.width, low = g.height;
  for (const Mark& m : marks) {
    left = std::min(left, m.x);
    top = std::min(top, m.y);
    right = std::max(right, m.x + m.w);
    low = std::max(low, m.y + m.h);
  }
  const int margin = 8 * g.ts;
  const MosaicLayout layout{.width = right - left + 2 * margin, .height = low - top + 2 * margin,
                            .grid_x = margin - left, .grid_y = margin - top, .pitch_x = g.pitch_x,
                            .pitch_y = g.pitch_y, .text_scale = g.ts};

  Image image(layout.width, layout.height, paper);
  const std::size_t cells = static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny);
  for (int m = 0; m < g.rows * g.cols; ++m) {
    const int row = m / g.cols, col = m % g.cols;
    draw_field(image, layout.grid_x + col * g.pitch_x, layout.grid_y + (g.rows - 1 - row) * g.pitch_y,
               members.subspan(static_cast<std::size_t>(m) * cells, cells), nx, ny, scale, colors);
  }
  for (const Mark& m : marks) draw(image, m, layout.grid_x, layout.grid_y, g.ts);
  write_rgb_png(file, image);
  return layout;
}

}  // namespace pdex::io
