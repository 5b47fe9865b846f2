#include "pdex/io/png_writer.hpp"

#include <png.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>

#include "pdex/core/error.hpp"
#include "pdex/io/atomic_file.hpp"
#include "pdex/io/bitmap_font.hpp"

namespace pdex::io {

namespace {

struct FileCloser {
  void operator()(std::FILE* f) const noexcept { std::fclose(f); }
};
using FileHandle = std::unique_ptr<std::FILE, FileCloser>;

// Releases libpng's read state on every path out, exceptions included; png_image_free is a
// no-op once libpng has freed the state itself.
struct PngImageGuard {
  png_image* image;
  ~PngImageGuard() { png_image_free(image); }
};

std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// A field's cells as the painters read them: cell (x, y) at data[y * stride + x], y up.
template <class T>
struct Cells {
  const T* data = nullptr;
  std::size_t nx = 0, ny = 0, stride = 0;
  double at(std::size_t x, std::size_t y) const { return static_cast<double>(data[y * stride + x]); }
};

// Row-major values of an nx-by-ny field, their count checked where write_png has always checked it.
template <class T>
Cells<T> cells_of(std::span<const T> values, int nx, int ny, const std::string& where) {
  if (nx > 0 && ny > 0 && values.size() != static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny)) {
    throw Error(where + ": cannot draw picture: " + std::to_string(values.size()) + " values for " +
                std::to_string(nx) + "x" + std::to_string(ny) + " cells");
  }
  const auto w = static_cast<std::size_t>(std::max(nx, 0));
  return {values.data(), w, static_cast<std::size_t>(std::max(ny, 0)), w};
}

// Calls fn with the cells of `field`, nx-by-ny in rows of field.stride() values, checked as the field
// writers check them.
template <class Fn>
decltype(auto) with_cells(const NamedValues& field, int nx, int ny, const std::string& where, Fn&& fn) {
  const ImageGrid g{nx, ny};
  check_fields(where, g, std::span<const NamedValues>(&field, 1));
  return std::visit([&](auto values) {
    using T = std::remove_cv_t<typename decltype(values)::element_type>;
    return fn(Cells<T>{values.data(), static_cast<std::size_t>(nx), static_cast<std::size_t>(ny), field.stride(g)});
  }, field.values);
}

// A fixed range checked, or an automatic one made fixed from the finite values (NaN, NaN when
// there is none: every pixel is invalid_color anyway).
template <class T>
ColorRange resolve_range(const Cells<T>& cells, const ColorRange& range, const std::string& where) {
  double lo = range.min, hi = range.max;
  if (range.automatic) {
    lo = std::numeric_limits<double>::infinity();
    hi = -lo;
    for (std::size_t y = 0; y < cells.ny; ++y)
      for (std::size_t x = 0; x < cells.nx; ++x) {
        const double v = cells.at(x, y);
        if (!std::isfinite(v)) continue;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
    if (lo > hi) lo = hi = std::numeric_limits<double>::quiet_NaN();
  } else if (!(std::isfinite(lo) && std::isfinite(hi) && lo < hi)) {
    throw InputError(where + ": invalid color range [" + number_text(lo) + ", " + number_text(hi) +
                     "]; expected finite min < max, or an automatic range");
  }
  return {.automatic = false, .min = lo, .max = hi};
}

// All values as one row (a ColorScale over values whose shape it need not know).
template <class T>
Cells<T> one_row(std::span<const T> values) { return {values.data(), values.size(), 1, values.size()}; }

constexpr Rgb paper{255, 255, 255}, ink{0, 0, 0};

// The layout's room for text, in characters at the text scale: the longest %.4g number a colour bar
// can show, and a caption such as "activator   t = 1234.5" with some to spare.
constexpr std::string_view widest_label = "-1.234e-100";
constexpr int caption_chars = 24;

std::string bar_label(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

// Each cell row is coloured once into the picture and copied to the other rows of its block.
template <class T>
void paint_field(Image& image, int left, int top, const Cells<T>& cells, int scale, const ColorScale& colors) {
  const std::size_t sx = cells.nx, sy = cells.ny, ss = static_cast<std::size_t>(scale);
  const std::size_t stride = 3 * static_cast<std::size_t>(image.width), block_bytes = 3 * sx * ss;
  std::uint8_t* origin = image.rgb.data() + static_cast<std::size_t>(top) * stride + 3 * static_cast<std::size_t>(left);
  for (std::size_t y = 0; y < sy; ++y) {
    // y points up: cell row y is drawn in picture rows counted from the bottom.
    std::uint8_t* first = origin + (sy - 1 - y) * ss * stride;
    std::uint8_t* p = first;
    for (std::size_t x = 0; x < sx; ++x) {
      const Rgb c = colors.color(cells.at(x, y));
      for (std::size_t k = 0; k < ss; ++k) {
        *p++ = c.r;
        *p++ = c.g;
        *p++ = c.b;
      }
    }
    for (std::size_t k = 1; k < ss; ++k) std::memcpy(first + k * stride, first, block_bytes);
  }
}

void draw_color_bar(Image& image, const FrameLayout& l, const ColorScale& colors) {
  for (int i = 0; i < l.bar_h; ++i) {
    const double t = 1.0 - static_cast<double>(i) / (l.bar_h - 1);  // max on the top row, min on the bottom one
    image.fill(l.bar_x, l.bar_y + i, l.bar_w, 1, colors.color_at_fraction(t));
  }
  const int ts = l.text_scale;
  draw_text(image, l.label_x, l.bar_y, bar_label(colors.max()), ink, ts);
  draw_text(image, l.label_x, l.bar_y + l.bar_h - cap_height * ts, bar_label(colors.min()), ink, ts);
}

template <class T>
Image render(const Cells<T>& cells, const ColorScale& colors, const FrameDecor& decor, const std::string& where) {
  const FrameLayout l = frame_layout(static_cast<int>(cells.nx), static_cast<int>(cells.ny), decor, where);
  Image image(l.width, l.height, paper);
  paint_field(image, l.field_x, l.field_y, cells, decor.scale, colors);
  if (l.bar_w > 0) draw_color_bar(image, l, colors);
  draw_text(image, l.caption_x, l.caption_y, decor.caption, ink, l.text_scale);
  return image;
}

// The layout's errors come before the colour range's.
template <class T, class Colors>
void write_png_impl(const std::filesystem::path& file, const Cells<T>& cells, const FrameDecor& decor, Colors colors) {
  frame_layout(static_cast<int>(cells.nx), static_cast<int>(cells.ny), decor, file.string());
  write_rgb_png(file, render(cells, colors(), decor, file.string()));
}

}  // namespace

ColorScale::ColorScale(std::span<const double> values, Colormap cmap, ColorRange range, const std::string& where)
    : ColorScale(cmap, resolve_range(one_row(values), range, where)) {}

ColorScale::ColorScale(std::span<const float> values, Colormap cmap, ColorRange range, const std::string& where)
    : ColorScale(cmap, resolve_range(one_row(values), range, where)) {}

ColorScale::ColorScale(const NamedValues& field, int nx, int ny, Colormap cmap, ColorRange range, const std::string& where)
    : ColorScale(cmap, with_cells(field, nx, ny, where, [&](const auto& cells) { return resolve_range(cells, range, where); })) {}

ColorScale::ColorScale(Colormap cmap, ColorRange range)
    : table_(colormap_table(cmap)), min_(range.min), max_(range.max), half_min_(0.5 * range.min) {
  const double half_span = 0.5 * range.max - 0.5 * range.min;
  inv_half_span_ = half_span > 0 ? 1.0 / half_span : 0.0;  // also 0 for a NaN span
}

Rgb ColorScale::color(double v) const {
  if (!std::isfinite(v)) return invalid_color;
  if (inv_half_span_ == 0) return table_[colormap_size / 2];  // constant field: no contrast to show
  const double t = (0.5 * v - half_min_) * inv_half_span_;
  const double scaled = std::clamp(t, 0.0, 1.0) * static_cast<double>(colormap_size);
  return table_[std::min(static_cast<std::size_t>(scaled), colormap_size - 1)];
}

Rgb ColorScale::color_at_fraction(double t) const { return color((1 - t) * min_ + t * max_); }

FrameLayout frame_layout(int nx, int ny, const FrameDecor& decor, const std::string& where) {
  if (nx <= 0 || ny <= 0) {
    throw Error(where + ": cannot draw a picture of " + std::to_string(nx) + "x" + std::to_string(ny) + " cells");
  }
  if (decor.scale < 1) throw InputError(where + ": PNG scale must be at least 1, got " + std::to_string(decor.scale));
  // In 64 bits, so that a huge field cannot overflow before the size check below.
  const long long w = static_cast<long long>(nx) * decor.scale, h = static_cast<long long>(ny) * decor.scale;
  const bool decorated = decor.colorbar || !decor.caption.empty();
  const int ts = label_scale(static_cast<double>(w), static_cast<double>(h));
  const long long margin = decorated ? 4 * ts : 0;
  long long top = margin, right = margin + w, bottom = top + h;
  if (!decor.caption.empty()) {
    top += text_height(ts) + 4 * ts;
    right = std::max(right, margin + text_width(std::string(caption_chars, 'x'), ts));
    bottom = top + h;
  }
  long long bar_x = 0, bar_w = 0, bar_h = 0, label_x = 0;
  if (decor.colorbar) {
    bar_x = margin + w + 4 * ts;
    bar_w = 6 * ts;
    bar_h = std::max<long long>(h, 3 * text_height(ts));  // room for both labels
    label_x = bar_x + bar_w + 3 * ts;
    right = std::max(right, label_x + text_width(widest_label, ts));
    bottom = top + bar_h;
  }
  const long long width = right + margin, height = bottom + margin;
  // PNG dimensions are 31-bit; the RGB buffer must also fit comfortably in memory.
  if (width > 0x7FFFFFFF || height > 0x7FFFFFFF || width * height > (1LL << 32)) {
    throw Error(where + ": picture of " + std::to_string(nx) + "x" + std::to_string(ny) + " cells at scale " +
                std::to_string(decor.scale) + " is too large; lower the scale");
  }
  const auto i = [](long long v) { return static_cast<int>(v); };
  return {.width = i(width), .height = i(height), .field_x = i(margin), .field_y = i(top), .bar_x = i(bar_x),
          .bar_y = i(top), .bar_w = i(bar_w), .bar_h = i(bar_h), .label_x = i(label_x), .caption_x = i(margin),
          .caption_y = i(margin), .text_scale = ts};
}

Image render_field(std::span<const double> values, int nx, int ny, const ColorScale& colors, const FrameDecor& decor,
                   const std::string& where) {
  return render(cells_of(values, nx, ny, where), colors, decor, where);
}

Image render_field(const NamedValues& field, int nx, int ny, const ColorScale& colors, const FrameDecor& decor,
                   const std::string& where) {
  return with_cells(field, nx, ny, where, [&](const auto& cells) { return render(cells, colors, decor, where); });
}

void draw_field(Image& image, int left, int top, std::span<const double> values, int nx, int ny, int scale,
                const ColorScale& colors) {
  const auto w = static_cast<std::size_t>(nx);
  paint_field(image, left, top, Cells<double>{values.data(), w, static_cast<std::size_t>(ny), w}, scale, colors);
}

Image::Image(int w, int h, Rgb background) : width(std::max(w, 0)), height(std::max(h, 0)) {
  rgb.resize(3 * static_cast<std::size_t>(width) * static_cast<std::size_t>(height));
  fill(0, 0, width, height, background);
}

Rgb Image::at(int x, int y) const {
  const std::size_t i =
      3 * (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x));
  return Rgb{rgb[i], rgb[i + 1], rgb[i + 2]};
}

void Image::fill(int x, int y, int w, int h, Rgb c) {
  // Clip in 64 bits: x + w may pass INT_MAX for a block far outside the picture.
  const auto x0 = std::max<long long>(x, 0), x1 = std::min<long long>(static_cast<long long>(x) + w, width);
  const auto y0 = std::max<long long>(y, 0), y1 = std::min<long long>(static_cast<long long>(y) + h, height);
  for (auto row = y0; row < y1; ++row) {
    std::uint8_t* p = rgb.data() + 3 * (static_cast<std::size_t>(row) * static_cast<std::size_t>(width) +
                                        static_cast<std::size_t>(x0));
    for (auto col = x0; col < x1; ++col) {
      *p++ = c.r;
      *p++ = c.g;
      *p++ = c.b;
    }
  }
}

void write_rgb_png(const std::filesystem::path& file, const Image& picture) {
  AtomicFile f(file);
  // libpng's simplified API reports errors through image.message instead of longjmp, so no
  // setjmp frame has to coexist with C++ objects here.
  png_image image;
  std::memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  image.width = static_cast<png_uint_32>(picture.width);
  image.height = static_cast<png_uint_32>(picture.height);
  image.format = PNG_FORMAT_RGB;
  image.flags = PNG_IMAGE_FLAG_FAST;  // no row filters, light compression: a run writes pictures at every output
  const bool encoded = png_image_write_to_stdio(&image, f.get(), 0, picture.rgb.data(), 0, nullptr) != 0;
  f.commit(encoded ? "" : "cannot encode PNG: " + std::string(image.message));
}

void write_png(const std::filesystem::path& file, std::span<const double> values, int nx, int ny, Colormap cmap,
               ColorRange range, int scale) {
  write_png(file, values, nx, ny, cmap, range, FrameDecor{.scale = scale, .colorbar = false, .caption = {}});
}

void write_png(const std::filesystem::path& file, std::span<const float> values, int nx, int ny, Colormap cmap,
               ColorRange range, int scale) {
  write_png(file, values, nx, ny, cmap, range, FrameDecor{.scale = scale, .colorbar = false, .caption = {}});
}

void write_png(const std::filesystem::path& file, std::span<const double> values, int nx, int ny, Colormap cmap,
               ColorRange range, const FrameDecor& decor) {
  const std::string where = file.string();
  write_png_impl(file, cells_of(values, nx, ny, where), decor, [&] { return ColorScale(values, cmap, range, where); });
}

void write_png(const std::filesystem::path& file, std::span<const float> values, int nx, int ny, Colormap cmap,
               ColorRange range, const FrameDecor& decor) {
  const std::string where = file.string();
  write_png_impl(file, cells_of(values, nx, ny, where), decor, [&] { return ColorScale(values, cmap, range, where); });
}

void write_png(const std::filesystem::path& file, const NamedValues& field, int nx, int ny, Colormap cmap,
               ColorRange range, const FrameDecor& decor) {
  const std::string where = file.string();
  with_cells(field, nx, ny, where, [&](const auto& cells) {
    write_png_impl(file, cells, decor, [&] { return ColorScale(field, nx, ny, cmap, range, where); });
  });
}

std::vector<std::uint8_t> read_png_rgb(const std::filesystem::path& file, int& width, int& height) {
  const std::string where = file.string();
  errno = 0;
  FileHandle f(std::fopen(where.c_str(), "rb"));
  if (!f) throw InputError(where + ": cannot open file (" + std::strerror(errno) + ")");
  png_image image;
  std::memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  const PngImageGuard guard{&image};
  if (png_image_begin_read_from_stdio(&image, f.get()) == 0) {
    throw InputError(where + ": not a readable PNG (" + image.message + ")");
  }
  image.format = PNG_FORMAT_RGB;  // libpng converts gray, palette and 16-bit images to RGB8
  std::vector<std::uint8_t> rgb(PNG_IMAGE_SIZE(image));
  if (png_image_finish_read(&image, nullptr, rgb.data(), 0, nullptr) == 0) {
    throw InputError(where + ": cannot decode PNG (" + image.message + ")");
  }
  width = static_cast<int>(image.width);
  height = static_cast<int>(image.height);
  return rgb;
}

}  // namespace pdex::io
