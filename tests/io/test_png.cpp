// PNG pictures of fields: size, orientation, colour scaling, invalid values, and errors.
#include "pdex/io/png_writer.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "io/picture.hpp"
#include "pdex/core/error.hpp"
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

}  // namespace
}  // namespace pdex::io
