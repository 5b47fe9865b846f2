// Mosaic pictures of sweeps: layout and size, member colours and orientation, labels in the margins,
// errors; and the bitmap font their labels are drawn with.
#include "pdex/io/mosaic.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "io/picture.hpp"
#include "pdex/core/error.hpp"
#include "pdex/io/bitmap_font.hpp"
#include "support/scratch_dir.hpp"

namespace pdex::io {
namespace {

using pdex::testing::ScratchDir;

constexpr Rgb white{255, 255, 255};

using testing::Picture;

struct Rendered {
  MosaicLayout layout;
  Picture picture;
};

// `count` members of nx x ny cells, member m constant at value(m).
std::vector<double> constant_members(int count, int nx, int ny, double (*value)(int)) {
  std::vector<double> v;
  for (int m = 0; m < count; ++m) v.insert(v.end(), static_cast<std::size_t>(nx * ny), value(m));
  return v;
}

Rendered render(const ScratchDir& dir, const std::vector<double>& members, int nx, int ny, const MosaicAxis& x,
                const MosaicAxis& y, Colormap cmap = Colormap::viridis, ColorRange range = {}, int scale = 1) {
  Rendered r;
  r.layout = write_mosaic_png(dir / "m.png", members, nx, ny, x, y, cmap, range, scale);
  r.picture = testing::read_picture(dir / "m.png");
  return r;
}

const MosaicAxis feed{"F", {0.01, 0.02, 0.03}};
const MosaicAxis kill{"k", {0.05, 0.06}};
const MosaicAxis bare_x{"", {0, 0, 0}};
const MosaicAxis bare_y{"", {0, 0}};

double index_value(int m) { return m; }

TEST(Mosaic, PictureSizeFollowsTheLayout) {
  ScratchDir dir;
  const int nx = 8, ny = 3, scale = 5;  // members wide enough for every column's label
  const Rendered r =
      render(dir, constant_members(6, nx, ny, index_value), nx, ny, feed, kill, Colormap::gray, {}, scale);
  const MosaicLayout& l = r.layout;
  EXPECT_EQ(r.picture.width, l.width);
  EXPECT_EQ(r.picture.height, l.height);
  EXPECT_EQ(l.pitch_x, nx * scale + 1);
  EXPECT_EQ(l.pitch_y, ny * scale + 1);
  EXPECT_EQ(l.text_scale, 1);
  // The grid lies inside the picture with the labels' room to its left and below it.
  EXPECT_GT(l.grid_x, text_width("0.05", 1));
  EXPECT_GT(l.grid_y, 0);
  EXPECT_GT(l.height - (l.grid_y + 2 * l.pitch_y - 1), 2 * text_height(1));
  EXPECT_GE(l.width, l.grid_x + 3 * l.pitch_x - 1);

  // One more column widens the picture by one pitch and moves nothing else.
  const MosaicAxis wider{"F", {0.01, 0.02, 0.03, 0.04}};
  const Rendered r4 =
      render(dir, constant_members(8, nx, ny, index_value), nx, ny, wider, kill, Colormap::gray, {}, scale);
  EXPECT_EQ(r4.layout.width, l.width + l.pitch_x);
  EXPECT_EQ(r4.layout.height, l.height);
  EXPECT_EQ(r4.layout.grid_x, l.grid_x);
  EXPECT_EQ(r4.layout.grid_y, l.grid_y);

  // Bare axes leave the grid only its margin, the same to the left, right and top.
  const Rendered bare =
      render(dir, constant_members(6, nx, ny, index_value), nx, ny, bare_x, bare_y, Colormap::gray, {}, scale);
  EXPECT_EQ(bare.layout.grid_x, bare.layout.grid_y);
  EXPECT_EQ(bare.layout.width, 3 * l.pitch_x - 1 + 2 * bare.layout.grid_x);
}

TEST(Mosaic, EachMemberHoldsTheColourOfItsValueRowZeroAtTheBottom) {
  ScratchDir dir;
  const int nx = 3, ny = 2, scale = 2;
  const MosaicAxis x{"a", {1, 2}}, y{"b", {1, 2}};
  const Rendered r = render(dir, constant_members(4, nx, ny, index_value), nx, ny, x, y, Colormap::viridis, {}, scale);
  const MosaicLayout& l = r.layout;
  for (int m = 0; m < 4; ++m) {
    const int row = m / 2, col = m % 2;
    const int left = l.grid_x + col * l.pitch_x, top = l.grid_y + (1 - row) * l.pitch_y;
    const Rgb expected = map_color(Colormap::viridis, m / 3.0);
    for (int py = top; py < top + ny * scale; ++py) {
      for (int px = left; px < left + nx * scale; ++px) {
        EXPECT_EQ(r.picture.at(px, py), expected) << "member " << m << " pixel " << px << "," << py;
      }
    }
  }
  // The 1-pixel gaps between members are background.
  for (int py = l.grid_y; py < l.grid_y + 2 * l.pitch_y - 1; ++py) {
    EXPECT_EQ(r.picture.at(l.grid_x + nx * scale, py), white);
  }
  for (int px = l.grid_x; px < l.grid_x + 2 * l.pitch_x - 1; ++px) {
    EXPECT_EQ(r.picture.at(px, l.grid_y + ny * scale), white);
  }
}

TEST(Mosaic, MembersKeepYUpAndShowInvalidCells) {
  ScratchDir dir;
  // One 2 x 3 member, [y][x]: cell (x = 1, y = 0) high, cell (x = 0, y = 2) NaN.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> v{0, 1, 0, 0, nan, 0};
  const Rendered r = render(dir, v, 2, 3, MosaicAxis{"a", {1}}, MosaicAxis{"b", {1}}, Colormap::gray);
  const MosaicLayout& l = r.layout;
  const Rgb black{0, 0, 0};
  EXPECT_EQ(r.picture.at(l.grid_x + 1, l.grid_y + 2), white);  // bottom row, right column
  EXPECT_EQ(r.picture.at(l.grid_x + 0, l.grid_y + 2), black);
  EXPECT_EQ(r.picture.at(l.grid_x + 0, l.grid_y + 0), invalid_color);  // top row, left column
  EXPECT_EQ(r.picture.at(l.grid_x + 1, l.grid_y + 0), black);
}

TEST(Mosaic, FixedRangeIsSharedAndClamps) {
  ScratchDir dir;
  const ColorRange range{.automatic = false, .min = 0.0, .max = 1.0};
  const MosaicAxis x{"a", {1, 2, 3}};
  const Rendered r = render(dir, {-4.0, 0.5, 9.0}, 1, 1, x, MosaicAxis{"", {0}}, Colormap::coolwarm, range);
  const MosaicLayout& l = r.layout;
  const auto table = colormap_table(Colormap::coolwarm);
  EXPECT_EQ(r.picture.at(l.grid_x, l.grid_y), table.front());
  EXPECT_EQ(r.picture.at(l.grid_x + l.pitch_x, l.grid_y), table[colormap_size / 2]);
  EXPECT_EQ(r.picture.at(l.grid_x + 2 * l.pitch_x, l.grid_y), table.back());
}

TEST(Mosaic, LabelsInkTheMarginsOfNamedAxesOnly) {
  ScratchDir dir;
  const int n = 20;
  const std::vector<double> v = constant_members(6, n, n, index_value);
  const Rendered named = render(dir, v, n, n, feed, kill);
  const Rendered bare = render(dir, v, n, n, bare_x, bare_y);
  for (const Rendered* r : {&named, &bare}) {
    const MosaicLayout& l = r->layout;
    const int grid_right = l.grid_x + 3 * l.pitch_x - 1, grid_bottom = l.grid_y + 2 * l.pitch_y - 1;
    const bool labelled = r == &named;
    // Left of the grid: the y labels and name; just below it: the x ticks and labels.
    EXPECT_EQ(r->picture.inked(0, l.grid_y, l.grid_x, grid_bottom), labelled);
    EXPECT_EQ(r->picture.inked(l.grid_x, grid_bottom, grid_right, grid_bottom + text_height(1)), labelled);
    // Nothing is drawn above the grid or in the gaps between members.
    EXPECT_FALSE(r->picture.inked(0, 0, l.width, l.grid_y));
    EXPECT_FALSE(r->picture.inked(l.grid_x + n, l.grid_y, l.grid_x + n + 1, grid_bottom));
    // The colour bar sits below everything else and spans the colormap.
    bool first = false, last = false;
    for (int px = 0; px < l.width; ++px) {
      for (int py = grid_bottom; py < l.height; ++py) {
        first = first || r->picture.at(px, py) == colormap_table(Colormap::viridis).front();
        last = last || r->picture.at(px, py) == colormap_table(Colormap::viridis).back();
      }
    }
    EXPECT_TRUE(first && last);
  }
  EXPECT_GT(named.layout.grid_x, bare.layout.grid_x);
  EXPECT_GT(named.layout.height, bare.layout.height);
}

TEST(Mosaic, CrowdedLabelsAreThinnedSoThatNoneTouch) {
  ScratchDir dir;
  // 12 columns 2 pixels apart cannot each carry a 5-character label.
  MosaicAxis x{"F", {}};
  for (int c = 1; c <= 12; ++c) x.values.push_back(0.001 * c);
  const Rendered r = render(dir, std::vector<double>(12, 1.0), 1, 1, x, MosaicAxis{"", {0}});
  const MosaicLayout& l = r.layout;
  // Clusters of inked columns in the band of ticks and labels under the grid.
  const int band_top = l.grid_y + l.pitch_y, band_bottom = band_top + 2 * text_height(1) - 2;
  std::vector<int> cluster_widths;
  int run = 0;
  for (int px = 0; px <= l.width; ++px) {
    if (px < l.width && r.picture.inked(px, band_top, px + 1, band_bottom)) {
      ++run;
    } else if (run > 0) {
      cluster_widths.push_back(run);
      run = 0;
    }
  }
  EXPECT_GE(cluster_widths.size(), 2u);
  EXPECT_LT(cluster_widths.size(), 12u);
  for (int w : cluster_widths) EXPECT_LE(w, text_width("0.001", 1));
}

TEST(Mosaic, BadInputThrows) {
  ScratchDir dir;
  const std::vector<double> v(6 * 4, 0.0);  // 6 members of 2 x 2
  try {
    write_mosaic_png(dir / "mismatch.png", v, 2, 3, feed, kill, Colormap::gray, {});
    ADD_FAILURE() << "expected pdex::Error for a size mismatch";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("mismatch.png"), std::string::npos) << e.what();
  }
  EXPECT_THROW(write_mosaic_png(dir / "e.png", v, 2, 2, MosaicAxis{"F", {}}, kill, Colormap::gray, {}), Error);
  EXPECT_THROW(write_mosaic_png(dir / "s.png", v, 2, 2, feed, kill, Colormap::gray, {}, 0), InputError);
  EXPECT_THROW(write_mosaic_png(dir / "r.png", v, 2, 2, feed, kill, Colormap::gray, ColorRange{false, 1.0, 1.0}),
               InputError);
  EXPECT_THROW(write_mosaic_png(dir / "none" / "deep.png", v, 2, 2, feed, kill, Colormap::gray, {}), Error);
}

constexpr std::string_view covered = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz.-+=_(),:[]/*^' ";

TEST(BitmapFont, EveryCoveredCharacterHasItsOwnGlyph) {
  const GlyphRows box = glyph('\x01');
  std::set<GlyphRows> seen;
  for (char c : covered) {
    EXPECT_NE(glyph(c), box) << "'" << c << "'";
    EXPECT_TRUE(seen.insert(glyph(c)).second) << "'" << c << "' looks like another character";
  }
  EXPECT_EQ(glyph(' '), GlyphRows{});
  EXPECT_EQ(glyph('~'), box);
}

TEST(BitmapFont, TextIsSixPixelsACharacterAndEightTall) {
  EXPECT_EQ(text_width("", 3), 0);
  EXPECT_EQ(text_width("7", 1), 5);
  EXPECT_EQ(text_width("0.05", 2), (4 * 6 - 1) * 2);
  EXPECT_EQ(text_height(3), 24);
}

// Whether bit (column, row) of c's glyph is set.
bool lit(char c, int column, int row) { return (glyph(c)[static_cast<std::size_t>(row)] >> (4 - column)) & 1; }

TEST(BitmapFont, DrawTextPaintsTheGlyphPixelsAtScale) {
  Image image(30, 30, white);
  const Rgb red{200, 0, 0};
  draw_text(image, 3, 4, "g7", red, 2);
  for (int y = 0; y < 30; ++y) {
    for (int x = 0; x < 30; ++x) {
      const int u = (x - 3) / 2, v = (y - 4) / 2;
      const bool inside = x >= 3 && y >= 4 && v < glyph_height && u < 2 * glyph_advance && u % glyph_advance < 5;
      const bool ink = inside && lit("g7"[u / glyph_advance], u % glyph_advance, v);
      EXPECT_EQ(image.at(x, y), ink ? red : white) << x << "," << y;
    }
  }
}

TEST(BitmapFont, DrawTextUpTurnsCounterClockwise) {
  Image image(20, 20, white);
  draw_text_up(image, 2, 3, "L", Rgb{}, 1);  // an 8 wide, 5 tall box
  for (int y = 0; y < 20; ++y) {
    for (int x = 0; x < 20; ++x) {
      // The glyph's top faces left and its left edge down: pixel (column, row) lands at (row, 4 - column).
      const int row = x - 2, column = 4 - (y - 3);
      const bool ink = row >= 0 && row < glyph_height && column >= 0 && column < glyph_width && lit('L', column, row);
      EXPECT_EQ(image.at(x, y), ink ? Rgb{} : white) << x << "," << y;
    }
  }
}

}  // namespace
}  // namespace pdex::io
