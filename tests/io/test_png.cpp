// PNG pictures of fields: size, orientation, colour scaling, invalid values, errors, and the colour
// bar and caption a picture may carry.
#include "pdex/io/png_writer.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "io/picture.hpp"
#include "pdex/core/error.hpp"
#include "pdex/io/bitmap_font.hpp"
#include "support/scratch_dir.hpp"

namespace pdex::io {
namespace {

using pdex::testing::ScratchDir;
using pdex::testing::write_file_bytes;

using testing::Picture;

template <class T>
Picture render(const ScratchDir& dir, const std::vector<T>& values, int nx, int ny, Colormap cmap,
               ColorRange range = {}, int scale = 1) {
  write_png(dir / "p.png", std::span<const T>(values), nx, ny, cmap, range, scale);
  return testing::read_picture(dir / "p.png");
}

constexpr double nan = std::numeric_limits<double>::quiet_NaN();
constexpr double inf = std::numeric_limits<double>::infinity();

TEST(PngWrite, PictureIsNxByNyCellsTimesScale) {
  ScratchDir dir;
  const std::vector<double> values(5 * 3, 1.0);
  const Picture p1 = render(dir, values, 5, 3, Colormap::viridis);
  EXPECT_EQ(p1.width, 5);
  EXPECT_EQ(p1.height, 3);
  const Picture p4 = render(dir, values, 5, 3, Colormap::viridis, {}, 4);
  EXPECT_EQ(p4.width, 20);
  EXPECT_EQ(p4.height, 12);
}

TEST(PngWrite, MinMapsToFirstColorAndMaxToLastInEveryColormap) {
  ScratchDir dir;
  const std::vector<double> values{-2.0, 0.5, 3.0, 1.0};  // nx = 4, ny = 1
  for (const std::string& name : colormap_names()) {
    const Colormap cmap = parse_colormap(name);
    const Picture p = render(dir, values, 4, 1, cmap);
    EXPECT_EQ(p.at(0, 0), colormap_table(cmap).front()) << name;
    EXPECT_EQ(p.at(2, 0), colormap_table(cmap).back()) << name;
    EXPECT_EQ(p.at(1, 0), map_color(cmap, 2.5 / 5.0)) << name;
  }
}

TEST(PngWrite, RowYZeroIsTheBottomRowOfThePicture) {
  ScratchDir dir;
  // 2 x 3 field, [y][x]: only cell (x = 1, y = 0) is high.
  const std::vector<double> values{0, 1, 0, 0, 0, 0};
  const Picture p = render(dir, values, 2, 3, Colormap::gray);
  const Rgb white{255, 255, 255}, black{0, 0, 0};
  EXPECT_EQ(p.at(1, 2), white);  // bottom row, right column
  EXPECT_EQ(p.at(0, 2), black);
  EXPECT_EQ(p.at(1, 0), black);  // top row stays low
}

TEST(PngWrite, ScaleRepeatsEachCellAsASquareBlock) {
  ScratchDir dir;
  const std::vector<double> values{0, 1, 1, 0};  // 2 x 2 checkerboard
  const Picture p = render(dir, values, 2, 2, Colormap::gray, {}, 3);
  for (int row = 0; row < 6; ++row) {
    for (int col = 0; col < 6; ++col) {
      const int x = col / 3, y = 1 - row / 3;
      const std::uint8_t v = values[static_cast<std::size_t>(y * 2 + x)] > 0 ? 255 : 0;
      EXPECT_EQ(p.at(col, row), (Rgb{v, v, v})) << "pixel " << col << "," << row;
    }
  }
}

TEST(PngWrite, NanAndInfAreMagentaAndDoNotStretchTheRange) {
  ScratchDir dir;
  const std::vector<double> values{nan, 0.0, inf, 1.0, -inf};
  const Picture p = render(dir, values, 5, 1, Colormap::viridis);
  EXPECT_EQ(p.at(0, 0), invalid_color);
  EXPECT_EQ(p.at(2, 0), invalid_color);
  EXPECT_EQ(p.at(4, 0), invalid_color);
  EXPECT_EQ(p.at(1, 0), colormap_table(Colormap::viridis).front());
  EXPECT_EQ(p.at(3, 0), colormap_table(Colormap::viridis).back());
}

TEST(PngWrite, AllInvalidFieldIsAllMagenta) {
  ScratchDir dir;
  const Picture p = render(dir, std::vector<double>{nan, inf}, 2, 1, Colormap::gray);
  EXPECT_EQ(p.at(0, 0), invalid_color);
  EXPECT_EQ(p.at(1, 0), invalid_color);
}

TEST(PngWrite, FixedRangeClampsOutOfRangeValues) {
  ScratchDir dir;
  const ColorRange range{.automatic = false, .min = 0.0, .max = 1.0};
  const std::vector<double> values{-5.0, 0.0, 0.5, 1.0, 7.0};
  const Picture p = render(dir, values, 5, 1, Colormap::coolwarm, range);
  const auto table = colormap_table(Colormap::coolwarm);
  EXPECT_EQ(p.at(0, 0), table.front());
  EXPECT_EQ(p.at(1, 0), table.front());
  EXPECT_EQ(p.at(2, 0), table[colormap_size / 2]);
  EXPECT_EQ(p.at(3, 0), table.back());
  EXPECT_EQ(p.at(4, 0), table.back());
}

TEST(PngWrite, ConstantFieldMapsToTheMiddleColor) {
  ScratchDir dir;
  const Picture p = render(dir, std::vector<double>(6, 3.25), 3, 2, Colormap::viridis);
  const Rgb middle = colormap_table(Colormap::viridis)[colormap_size / 2];
  for (int row = 0; row < 2; ++row) {
    for (int col = 0; col < 3; ++col) EXPECT_EQ(p.at(col, row), middle);
  }
}

TEST(PngWrite, FloatAndDoubleFieldsGiveTheSamePicture) {
  ScratchDir dir;
  std::vector<double> d(8 * 4);
  std::vector<float> f(d.size());
  for (std::size_t i = 0; i < d.size(); ++i) f[i] = static_cast<float>(d[i] = 0.125 * static_cast<double>(i % 7));
  EXPECT_EQ(render(dir, d, 8, 4, Colormap::magma).rgb, render(dir, f, 8, 4, Colormap::magma).rgb);
}

// A stepper's padded rows (outputs draw them without a row-major copy): the padding, NaN here, is never
// read, neither for the automatic range nor for a pixel, and the picture and a movie frame with its colour
// bar are those of the row-major values. Rows too short for the grid are refused, naming the file.
TEST(PngWrite, PaddedRowsGiveThePictureOfTheirValues) {
  ScratchDir dir;
  constexpr int nx = 13, ny = 5, pitch = 16;
  std::vector<float> values(nx * ny), padded(pitch * ny, std::numeric_limits<float>::quiet_NaN());
  for (int y = 0; y < ny; ++y)
    for (int x = 0; x < nx; ++x) values[y * nx + x] = padded[y * pitch + x] = 0.25f * float(x) - float(y * y);
  const NamedValues rows{"u", std::span<const float>(padded), pitch};
  const FrameDecor decor{2, true, "u"};
  write_png(dir / "rows.png", rows, nx, ny, Colormap::viridis, {}, decor);
  write_png(dir / "values.png", std::span<const float>(values), nx, ny, Colormap::viridis, {}, decor);
  EXPECT_EQ(testing::read_picture(dir / "rows.png").rgb, testing::read_picture(dir / "values.png").rgb);
  const std::vector<double> doubles(values.begin(), values.end());
  const ColorScale from_rows(rows, nx, ny, Colormap::magma, {}, "rows"), from_values(std::span<const double>(doubles), Colormap::magma, {}, "values");
  EXPECT_EQ(from_rows.min(), from_values.min());
  EXPECT_EQ(from_rows.max(), from_values.max());
  EXPECT_EQ(render_field(rows, nx, ny, from_rows, decor, "rows").rgb, render_field(doubles, nx, ny, from_values, decor, "values").rgb);
  const NamedValues short_rows{"u", std::span<const float>(padded).first(padded.size() - pitch), pitch};
  try {
    write_png(dir / "short.png", short_rows, nx, ny, Colormap::viridis, {}, decor);
    ADD_FAILURE() << "accepted rows too short for the grid";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("short.png"), std::string::npos) << e.what();
  }
}

TEST(PngWrite, InvalidFixedRangeThrowsInputError) {
  ScratchDir dir;
  const std::vector<double> values(4, 0.0);
  for (const ColorRange range : {ColorRange{false, 1.0, 1.0}, ColorRange{false, 2.0, 1.0}, ColorRange{false, 0.0, nan},
                                 ColorRange{false, -inf, 1.0}}) {
    EXPECT_THROW(write_png(dir / "r.png", values, 2, 2, Colormap::gray, range), InputError);
  }
  EXPECT_THROW(write_png(dir / "s.png", values, 2, 2, Colormap::gray, {}, 0), InputError);
}

TEST(PngWrite, SizeMismatchAndUnwritablePathThrowErrorNamingTheFile) {
  ScratchDir dir;
  const std::vector<double> values(6, 0.0);
  for (const auto& [file, nx, ny] : {std::tuple{dir / "mismatch.png", 4, 2}, std::tuple{dir / "none" / "deep.png", 3, 2},
                                     std::tuple{dir / "empty.png", 0, 2}}) {
    try {
      write_png(file, values, nx, ny, Colormap::gray, {});
      ADD_FAILURE() << "expected pdex::Error for " << file;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(file.filename().string()), std::string::npos) << e.what();
    }
  }
}

TEST(PngRead, MissingOrNonPngFileThrowsInputErrorNamingTheFile) {
  ScratchDir dir;
  write_file_bytes(dir / "fake.png", "this is not a PNG");
  for (const char* name : {"missing.png", "fake.png"}) {
    int w = 0, h = 0;
    try {
      (void)read_png_rgb(dir / name, w, h);
      ADD_FAILURE() << "expected pdex::InputError for " << name;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
    }
  }
}

TEST(PngWrite, PictureWithoutDecorIsTheFieldAloneAsBefore) {
  ScratchDir dir;
  const int nx = 7, ny = 5, scale = 3;
  std::vector<double> values(static_cast<std::size_t>(nx * ny));
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = 0.37 * static_cast<double>(i % 11) - 1.0;
  values[4] = nan;
  write_png(dir / "plain.png", values, nx, ny, Colormap::magma, {}, scale);
  write_png(dir / "decor.png", values, nx, ny, Colormap::magma, {},
            FrameDecor{.scale = scale, .colorbar = false, .caption = {}});
  EXPECT_EQ(pdex::testing::read_file_bytes(dir / "plain.png"), pdex::testing::read_file_bytes(dir / "decor.png"));

  const Picture p = testing::read_picture(dir / "decor.png");
  ASSERT_EQ(p.width, nx * scale);
  ASSERT_EQ(p.height, ny * scale);
  const ColorScale colors(std::span<const double>(values), Colormap::magma, {}, "test");
  for (int row = 0; row < p.height; ++row) {
    for (int col = 0; col < p.width; ++col) {
      const double v = values[static_cast<std::size_t>((ny - 1 - row / scale) * nx + col / scale)];
      ASSERT_EQ(p.at(col, row), colors.color(v)) << "pixel " << col << "," << row;
    }
  }
}

constexpr Rgb paper{255, 255, 255}, ink{0, 0, 0};

// A 40 x 30 ramp from -2 (left) to 3 (right).
std::vector<double> ramp(int nx = 40, int ny = 30) {
  std::vector<double> v;
  for (int y = 0; y < ny; ++y)
    for (int x = 0; x < nx; ++x) v.push_back(-2.0 + 5.0 * x / (nx - 1));
  return v;
}

// The documented sizes: margin 4 ts, caption line 12 ts, bar 4 ts + 6 ts + 3 ts + 11 characters
// beside a field at least 24 ts tall, captions at least 24 characters wide.
void expect_documented_size(int nx, int ny, int scale, bool colorbar, const std::string& caption) {
  SCOPED_TRACE(std::to_string(nx) + "x" + std::to_string(ny) + " scale " + std::to_string(scale) +
               (colorbar ? " bar" : "") + " caption '" + caption + "'");
  const int w = nx * scale, h = ny * scale, ts = label_scale(w, h);
  const int chars11 = (11 * 6 - 1) * ts, chars24 = (24 * 6 - 1) * ts;
  const int content_w = std::max(colorbar ? w + 13 * ts + chars11 : w, caption.empty() ? 0 : chars24);
  const int content_h = (caption.empty() ? 0 : 12 * ts) + (colorbar ? std::max(h, 24 * ts) : h);
  const FrameLayout l = frame_layout(nx, ny, FrameDecor{.scale = scale, .colorbar = colorbar, .caption = caption}, "t");
  EXPECT_EQ(l.text_scale, ts);
  EXPECT_EQ(l.width, content_w + 8 * ts);
  EXPECT_EQ(l.height, content_h + 8 * ts);
  EXPECT_EQ(l.field_x, 4 * ts);
  EXPECT_EQ(l.field_y, 4 * ts + (caption.empty() ? 0 : 12 * ts));
  EXPECT_EQ(l.bar_w, colorbar ? 6 * ts : 0);

  ScratchDir dir;
  const std::vector<double> values = ramp(nx, ny);
  write_png(dir / "d.png", values, nx, ny, Colormap::viridis, {},
            FrameDecor{.scale = scale, .colorbar = colorbar, .caption = caption});
  const Picture p = testing::read_picture(dir / "d.png");
  EXPECT_EQ(p.width, l.width);
  EXPECT_EQ(p.height, l.height);
}

TEST(PngColorBar, PictureSizesAreAsDocumented) {
  expect_documented_size(40, 30, 1, true, "");
  expect_documented_size(40, 30, 2, true, "u   t = 12.5");
  expect_documented_size(40, 30, 1, false, "u   t = 12.5");
  expect_documented_size(8, 6, 1, true, "");       // the bar is taller than the field
  expect_documented_size(600, 400, 3, true, "v");  // text scale 3
  expect_documented_size(500, 400, 2, false, "v");
}

TEST(PngColorBar, SizeDependsOnNeitherTheCaptionTextNorTheValues) {
  const FrameLayout a = frame_layout(40, 30, FrameDecor{.scale = 2, .colorbar = true, .caption = "u   t = 0"}, "t");
  const FrameLayout b =
      frame_layout(40, 30, FrameDecor{.scale = 2, .colorbar = true, .caption = "u   t = 123456.75 and more"}, "t");
  EXPECT_EQ(a.width, b.width);
  EXPECT_EQ(a.height, b.height);
  const std::vector<double> small(40 * 30, 1.0), huge = ramp();
  const FrameDecor decor{.scale = 1, .colorbar = true, .caption = "x"};
  const ColorScale wide_range(std::span<const double>(huge), Colormap::gray,
                              {.automatic = false, .min = -1.234e-100, .max = 5e300}, "t");
  const Image one =
      render_field(small, 40, 30, ColorScale(std::span<const double>(small), Colormap::gray, {}, "t"), decor, "t");
  const Image two = render_field(huge, 40, 30, wide_range, decor, "t");
  EXPECT_EQ(one.width, two.width);
  EXPECT_EQ(one.height, two.height);
}

TEST(PngColorBar, TopIsTheLastColourAndBottomTheFirstInEveryColormap) {
  ScratchDir dir;
  const std::vector<double> values = ramp();
  const FrameDecor decor{.scale = 2, .colorbar = true, .caption = {}};
  const FrameLayout l = frame_layout(40, 30, decor, "t");
  for (const std::string& name : colormap_names()) {
    const Colormap cmap = parse_colormap(name);
    write_png(dir / "bar.png", values, 40, 30, cmap, {}, decor);
    const Picture p = testing::read_picture(dir / "bar.png");
    for (int x = l.bar_x; x < l.bar_x + l.bar_w; ++x) {
      EXPECT_EQ(p.at(x, l.bar_y), colormap_table(cmap).back()) << name;
      EXPECT_EQ(p.at(x, l.bar_y + l.bar_h - 1), colormap_table(cmap).front()) << name;
    }
    EXPECT_EQ(p.at(l.bar_x, l.bar_y - 1), paper) << name;  // nothing above or below the strip
    EXPECT_EQ(p.at(l.bar_x, l.bar_y + l.bar_h), paper) << name;
  }
}

TEST(PngColorBar, ColoursRunFromMaxDownToMin) {
  const std::vector<double> values = ramp();
  const ColorScale colors(std::span<const double>(values), Colormap::viridis, {}, "t");
  const Image image =
      render_field(values, 40, 30, colors, FrameDecor{.scale = 1, .colorbar = true, .caption = {}}, "t");
  const FrameLayout l = frame_layout(40, 30, FrameDecor{.scale = 1, .colorbar = true, .caption = {}}, "t");
  const auto table = colormap_table(Colormap::viridis);
  std::size_t previous = colormap_size - 1;
  for (int y = l.bar_y; y < l.bar_y + l.bar_h; ++y) {
    const auto it = std::find(table.begin(), table.end(), image.at(l.bar_x, y));
    ASSERT_NE(it, table.end()) << "row " << y;
    const auto index = static_cast<std::size_t>(it - table.begin());
    EXPECT_LE(index, previous) << "row " << y;
    previous = index;
  }
  EXPECT_EQ(previous, 0u);
}

TEST(PngColorBar, LabelsShowMaxAtTheTopAndMinAtTheBottom) {
  ScratchDir dir;
  const std::vector<double> values = ramp();  // -2 to 3
  const FrameDecor decor{.scale = 1, .colorbar = true, .caption = {}};
  write_png(dir / "labels.png", values, 40, 30, Colormap::viridis, {}, decor);
  const Picture p = testing::read_picture(dir / "labels.png");
  const FrameLayout l = frame_layout(40, 30, decor, "t");
  const int ts = l.text_scale;

  // The same text drawn alone, where the picture should have it.
  Image expected(p.width, p.height, paper);
  draw_text(expected, l.label_x, l.bar_y, "3", ink, ts);
  draw_text(expected, l.label_x, l.bar_y + l.bar_h - cap_height * ts, "-2", ink, ts);
  int inked = 0;
  for (int row = 0; row < p.height; ++row) {
    for (int col = l.label_x; col < p.width; ++col) {
      EXPECT_EQ(p.at(col, row), expected.at(col, row)) << "pixel " << col << "," << row;
      inked += p.at(col, row) == ink;
    }
  }
  EXPECT_GT(inked, 10);
}

TEST(PngColorBar, CaptionIsDrawnAboveTheField) {
  ScratchDir dir;
  const std::vector<double> values = ramp();
  const FrameDecor decor{.scale = 1, .colorbar = false, .caption = "u   t = 12.5"};
  write_png(dir / "caption.png", values, 40, 30, Colormap::viridis, {}, decor);
  const Picture p = testing::read_picture(dir / "caption.png");
  const FrameLayout l = frame_layout(40, 30, decor, "t");
  Image expected(p.width, p.height, paper);
  draw_text(expected, l.caption_x, l.caption_y, decor.caption, ink, l.text_scale);
  for (int row = 0; row < l.field_y; ++row) {
    for (int col = 0; col < p.width; ++col) EXPECT_EQ(p.at(col, row), expected.at(col, row)) << col << "," << row;
  }
  // The field below it, y up: its bottom-left cell holds the minimum, its top-right one the maximum.
  EXPECT_EQ(p.at(l.field_x, l.field_y + 29), colormap_table(Colormap::viridis).front());
  EXPECT_EQ(p.at(l.field_x + 39, l.field_y), colormap_table(Colormap::viridis).back());
  EXPECT_FALSE(p.inked(l.field_x + 40, l.field_y, p.width, p.height));  // no colour bar
}

TEST(PngColorBar, FixedRangeLabelsTheRangeNotTheValues) {
  const std::vector<double> values = ramp();
  const ColorScale colors(std::span<const double>(values), Colormap::gray,
                          {.automatic = false, .min = 0.0, .max = 10.0}, "t");
  const FrameDecor decor{.scale = 1, .colorbar = true, .caption = {}};
  const Image image = render_field(values, 40, 30, colors, decor, "t");
  const FrameLayout l = frame_layout(40, 30, decor, "t");
  Image expected(image.width, image.height, paper);
  draw_text(expected, l.label_x, l.bar_y, "10", ink, l.text_scale);
  draw_text(expected, l.label_x, l.bar_y + l.bar_h - cap_height * l.text_scale, "0", ink, l.text_scale);
  for (int row = 0; row < image.height; ++row) {
    for (int col = l.label_x; col < image.width; ++col) ASSERT_EQ(image.at(col, row), expected.at(col, row));
  }
}

TEST(PngColorBar, BadSizesThrowNamingTheFile) {
  ScratchDir dir;
  const std::vector<double> values(6, 0.0);
  const FrameDecor decor{.scale = 1, .colorbar = true, .caption = "c"};
  EXPECT_THROW(write_png(dir / "a.png", values, 4, 2, Colormap::gray, {}, decor), Error);
  EXPECT_THROW(write_png(dir / "b.png", values, 3, 2, Colormap::gray, {},
                         FrameDecor{.scale = 0, .colorbar = true, .caption = {}}),
               InputError);
  const ColorScale colors(std::span<const double>(values), Colormap::gray, {}, "t");
  try {
    (void)render_field(values, 0, 2, colors, decor, "movie.mp4");
    ADD_FAILURE() << "expected pdex::Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("movie.mp4"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace pdex::io
