// Colormaps: names, end colours against the published maps, and the lightness profiles that
// make them honest (monotonic for sequential maps, a single peak for the diverging one).
#include "pdex/io/colormap.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

#include "pdex/core/error.hpp"

namespace pdex::io {
namespace {

// Within `tol` code values per channel of the published colour.
void expect_near_color(Rgb got, Rgb want, int tol, const std::string& what) {
  EXPECT_LE(std::abs(got.r - want.r), tol) << what << ": r " << int(got.r) << " vs " << int(want.r);
  EXPECT_LE(std::abs(got.g - want.g), tol) << what << ": g " << int(got.g) << " vs " << int(want.g);
  EXPECT_LE(std::abs(got.b - want.b), tol) << what << ": b " << int(got.b) << " vs " << int(want.b);
}

// CIELAB lightness L* of an sRGB colour: what the eye reads as "higher value".
double lightness(Rgb c) {
  auto lin = [](std::uint8_t v) {
    const double s = v / 255.0;
    return s <= 0.04045 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4);
  };
  const double y = 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
  return y > 0.008856 ? 116.0 * std::cbrt(y) - 16.0 : 903.3 * y;
}

TEST(Colormap, EveryListedNameParsesBackToItsMap) {
  const auto names = colormap_names();
  ASSERT_GE(names.size(), 4u);
  for (const std::string& name : names) EXPECT_EQ(colormap_name(parse_colormap(name)), name);
  EXPECT_EQ(parse_colormap("viridis"), Colormap::viridis);
  EXPECT_EQ(parse_colormap("coolwarm"), Colormap::coolwarm);
}

TEST(Colormap, UnknownNameThrowsInputErrorListingValidNames) {
  try {
    (void)parse_colormap("jet");
    FAIL() << "expected pdex::InputError";
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("'jet'"), std::string::npos) << message;
    for (const std::string& name : colormap_names()) EXPECT_NE(message.find(name), std::string::npos) << message;
  }
}

TEST(Colormap, ViridisMatchesPublishedAnchorColors) {
  const auto table = colormap_table(Colormap::viridis);
  // matplotlib's viridis: #440154, #3b528b, #21918c, #5ec962, #fde725 at t = 0, 1/4, 1/2, 3/4, 1.
  expect_near_color(table[0], {68, 1, 84}, 4, "t=0");
  expect_near_color(map_color(Colormap::viridis, 0.25), {59, 82, 139}, 4, "t=0.25");
  expect_near_color(map_color(Colormap::viridis, 0.5), {33, 145, 140}, 4, "t=0.5");
  expect_near_color(map_color(Colormap::viridis, 0.75), {94, 201, 98}, 4, "t=0.75");
  expect_near_color(table[255], {253, 231, 37}, 4, "t=1");
}

TEST(Colormap, MagmaMatchesPublishedAnchorColors) {
  // matplotlib's magma: #000004, #b73779, #fcfdbf at t = 0, 1/2, 1. The polynomial fit is
  // loosest at the pale end (5 code values of blue), invisible beside its neighbours.
  expect_near_color(colormap_table(Colormap::magma)[0], {0, 0, 4}, 4, "t=0");
  expect_near_color(map_color(Colormap::magma, 0.5), {183, 55, 121}, 4, "t=0.5");
  expect_near_color(colormap_table(Colormap::magma)[255], {252, 253, 191}, 6, "t=1");
}

TEST(Colormap, SequentialMapsGetLighterAlongTheMap) {
  for (Colormap cmap : {Colormap::viridis, Colormap::magma, Colormap::gray}) {
    const auto table = colormap_table(cmap);
    for (std::size_t i = 1; i < table.size(); ++i) {
      // One 8-bit code value moves L* by up to ~0.4, so neighbours may tie or dip within that noise...
      EXPECT_GT(lightness(table[i]), lightness(table[i - 1]) - 0.1) << colormap_name(cmap) << " entry " << i;
    }
    for (std::size_t i = 8; i < table.size(); ++i) {
      // ...but over a few entries lightness must clearly rise.
      EXPECT_GT(lightness(table[i]), lightness(table[i - 8]) + 0.5) << colormap_name(cmap) << " entry " << i;
    }
  }
}

TEST(Colormap, ViridisLightnessRisesAtAnEvenRate) {
  // Perceptual uniformity: equal steps in t are equal steps in lightness (within 20%).
  const auto table = colormap_table(Colormap::viridis);
  const double mean_step = (lightness(table[255]) - lightness(table[0])) / 255.0 * 16.0;
  for (std::size_t i = 16; i < table.size(); i += 16) {
    const double step = lightness(table[i]) - lightness(table[i - 16]);
    EXPECT_GT(step, 0.8 * mean_step) << "entries " << i - 16 << ".." << i;
    EXPECT_LT(step, 1.2 * mean_step) << "entries " << i - 16 << ".." << i;
  }
}

TEST(Colormap, GrayIsTheIdentityOnCodeValues) {
  const auto table = colormap_table(Colormap::gray);
  for (std::size_t i = 0; i < table.size(); ++i) {
    const auto v = static_cast<std::uint8_t>(i);
    EXPECT_EQ(table[i], (Rgb{v, v, v}));
  }
}

TEST(Colormap, CoolwarmRunsBlueToNearWhiteToRed) {
  const auto table = colormap_table(Colormap::coolwarm);
  // Moreland's end points (0.230, 0.299, 0.754) and (0.706, 0.016, 0.150), and the neutral
  // midpoint of lightness 88 (sRGB 0.865).
  expect_near_color(table[0], {59, 76, 192}, 1, "t=0");
  expect_near_color(table[255], {180, 4, 38}, 1, "t=1");
  expect_near_color(map_color(Colormap::coolwarm, 0.5), {221, 221, 221}, 3, "t=0.5");
}

TEST(Colormap, CoolwarmLightnessRisesToTheMiddleAndFallsAfter) {
  const auto table = colormap_table(Colormap::coolwarm);
  for (std::size_t i = 1; i < 128; ++i) EXPECT_GE(lightness(table[i]), lightness(table[i - 1]) - 0.5) << i;
  for (std::size_t i = 129; i < 256; ++i) EXPECT_LE(lightness(table[i]), lightness(table[i - 1]) + 0.5) << i;
  // Both halves end as dark as each other, so neither sign looks more important.
  EXPECT_NEAR(lightness(table[0]), lightness(table[255]), 10.0);
}

TEST(Colormap, MapColorClampsAndFlagsNan) {
  for (const std::string& name : colormap_names()) {
    const Colormap cmap = parse_colormap(name);
    const auto table = colormap_table(cmap);
    EXPECT_EQ(map_color(cmap, 0.0), table.front()) << name;
    EXPECT_EQ(map_color(cmap, 1.0), table.back()) << name;
    EXPECT_EQ(map_color(cmap, -3.0), table.front()) << name;
    EXPECT_EQ(map_color(cmap, 7.0), table.back()) << name;
    EXPECT_EQ(map_color(cmap, std::numeric_limits<double>::infinity()), table.back()) << name;
    EXPECT_EQ(map_color(cmap, std::numeric_limits<double>::quiet_NaN()), invalid_color) << name;
    for (const Rgb& c : table) EXPECT_NE(c, invalid_color) << name << " contains the invalid colour";
  }
}

}  // namespace
}  // namespace pdex::io
