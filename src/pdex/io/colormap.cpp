#include "pdex/io/colormap.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

#include "pdex/core/error.hpp"

namespace pdex::io {

namespace {

using Table = std::array<Rgb, colormap_size>;

constexpr std::array<Colormap, 4> all_colormaps{Colormap::viridis, Colormap::magma, Colormap::gray,
                                                Colormap::coolwarm};

std::uint8_t to_byte(double c) { return static_cast<std::uint8_t>(std::lround(std::clamp(c, 0.0, 1.0) * 255.0)); }

// Degree-6 polynomial fits per channel, c0 + c1 t + ... + c6 t^6, made by Matt Zucker (2019,
// public domain) from the CC0 tables of van der Walt and Smith's viridis and magma. They stay
// within a few 1/255 steps of the published tables (the tests check anchor colours), well
// below what a reader of a field picture can see, and spare us a 768-number table per map.
using Poly = std::array<std::array<double, 7>, 3>;  // [channel][power]

constexpr Poly viridis_poly{{
    {0.2777273272234177, 0.1050930431085774, -0.3308618287255563, -4.634230498983486, 6.228269936347081,
     4.776384997670288, -5.435455855934631},
    {0.005407344544966578, 1.404613529898575, 0.214847559468213, -5.799100973351585, 14.17993336680509,
     -13.74514537774601, 4.645852612178535},
    {0.3340998053353061, 1.384590162594685, 0.09509516302823659, -19.33244095627987, 56.69055260068105,
     -65.35303263337234, 26.3124352495832},
}};

constexpr Poly magma_poly{{
    {-0.002136485053939582, 0.2516605407371642, 8.353717279216625, -27.66873308576866, 52.17613981234068,
     -50.76852536473588, 18.65570506591883},
    {-0.000749655052795221, 0.6775232436837668, -3.577719514958484, 14.26473078096533, -27.94360607168351,
     29.04658282127291, -11.48977351997711},
    {-0.005386127855323933, 2.494026599312351, 0.3144679030132573, -13.64921318813922, 12.94416944238394,
     4.23415299384598, -5.601961508734096},
}};

Table table_from_poly(const Poly& poly) {
  Table table;
  for (std::size_t i = 0; i < colormap_size; ++i) {
    const double t = static_cast<double>(i) / (colormap_size - 1);
    std::array<double, 3> rgb{};
    for (std::size_t ch = 0; ch < 3; ++ch) {
      double v = 0;
      for (std::size_t k = poly[ch].size(); k-- > 0;) v = v * t + poly[ch][k];  // Horner
      rgb[ch] = v;
    }
    table[i] = Rgb{to_byte(rgb[0]), to_byte(rgb[1]), to_byte(rgb[2])};
  }
  return table;
}

Table gray_table() {
  Table table;
  for (std::size_t i = 0; i < colormap_size; ++i) {
    const auto v = static_cast<std::uint8_t>(i);
    table[i] = Rgb{v, v, v};
  }
  return table;
}

// ---- Moreland's diverging map ------------------------------------------------------------
// K. Moreland, "Diverging Color Maps for Scientific Visualization", ISVC 2009. The two end
// colours are interpolated in Msh space (polar CIELAB: magnitude, saturation, hue) through an
// unsaturated white of lightness 88, which keeps the lightness profile symmetric and smooth.

struct Vec3 {
  double x, y, z;
};

// D65 reference white used by Moreland's conversions.
constexpr Vec3 white_d65{0.9505, 1.0, 1.089};

double srgb_to_linear(double c) { return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); }
double linear_to_srgb(double c) { return c <= 0.0031308 ? 12.92 * c : 1.055 * std::pow(c, 1.0 / 2.4) - 0.055; }
double lab_f(double t) { return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116.0; }
double lab_f_inverse(double t) { return t > 0.206893 ? t * t * t : (t - 16.0 / 116.0) / 7.787; }

Vec3 srgb_to_msh(Vec3 srgb) {
  const double r = srgb_to_linear(srgb.x), g = srgb_to_linear(srgb.y), b = srgb_to_linear(srgb.z);
  const double x = 0.4124 * r + 0.3576 * g + 0.1805 * b;
  const double y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const double z = 0.0193 * r + 0.1192 * g + 0.9505 * b;
  const double fx = lab_f(x / white_d65.x), fy = lab_f(y / white_d65.y), fz = lab_f(z / white_d65.z);
  const double l = 116.0 * fy - 16.0, a = 500.0 * (fx - fy), bb = 200.0 * (fy - fz);
  const double m = std::sqrt(l * l + a * a + bb * bb);
  return {m, m > 0 ? std::acos(l / m) : 0.0, std::atan2(bb, a)};
}

Rgb msh_to_rgb(Vec3 msh) {
  const double l = msh.x * std::cos(msh.y);
  const double a = msh.x * std::sin(msh.y) * std::cos(msh.z);
  const double bb = msh.x * std::sin(msh.y) * std::sin(msh.z);
  const double fy = (l + 16.0) / 116.0;
  const double x = white_d65.x * lab_f_inverse(fy + a / 500.0);
  const double y = white_d65.y * lab_f_inverse(fy);
  const double z = white_d65.z * lab_f_inverse(fy - bb / 200.0);
  const double r = 3.2406 * x - 1.5372 * y - 0.4986 * z;
  const double g = -0.9689 * x + 1.8758 * y + 0.0415 * z;
  const double b = 0.0557 * x - 0.2040 * y + 1.0570 * z;
  return Rgb{to_byte(linear_to_srgb(r)), to_byte(linear_to_srgb(g)), to_byte(linear_to_srgb(b))};
}

// An unsaturated colour borrows a hue from its saturated neighbour, spun so that the hue
// change along the map stays perceptually even (Moreland's "AdjustHue").
double adjust_hue(Vec3 saturated, double unsaturated_m) {
  if (saturated.x >= unsaturated_m) return saturated.z;
  const double spin = saturated.y * std::sqrt(unsaturated_m * unsaturated_m - saturated.x * saturated.x) /
                      (saturated.x * std::sin(saturated.y));
  return saturated.z > -std::numbers::pi / 3 ? saturated.z + spin : saturated.z - spin;
}

Vec3 interpolate_msh(Vec3 c1, Vec3 c2, double t) {
  if (c1.y > 0.05 && c2.y > 0.05 && std::abs(c1.z - c2.z) > std::numbers::pi / 3) {
    const double m_mid = std::max({c1.x, c2.x, 88.0});
    if (t < 0.5) {
      c2 = {m_mid, 0.0, 0.0};
      t = 2 * t;
    } else {
      c1 = {m_mid, 0.0, 0.0};
      t = 2 * t - 1;
    }
  }
  if (c1.y < 0.05 && c2.y > 0.05) c1.z = adjust_hue(c2, c1.x);
  else if (c2.y < 0.05 && c1.y > 0.05) c2.z = adjust_hue(c1, c2.x);
  return {(1 - t) * c1.x + t * c2.x, (1 - t) * c1.y + t * c2.y, (1 - t) * c1.z + t * c2.z};
}

Table coolwarm_table() {
  // Moreland's end points, sRGB in [0, 1].
  const Vec3 cool = srgb_to_msh({0.230, 0.299, 0.754});
  const Vec3 warm = srgb_to_msh({0.706, 0.016, 0.150});
  Table table;
  for (std::size_t i = 0; i < colormap_size; ++i) {
    const double t = static_cast<double>(i) / (colormap_size - 1);
    table[i] = msh_to_rgb(interpolate_msh(cool, warm, t));
  }
  return table;
}

const std::array<Table, all_colormaps.size()>& tables() {
  // Built on first use (thread-safe static initialisation); about 1000 evaluations in all.
  static const std::array<Table, all_colormaps.size()> built{table_from_poly(viridis_poly), table_from_poly(magma_poly),
                                                             gray_table(), coolwarm_table()};
  return built;
}

}  // namespace

std::span<const Rgb, colormap_size> colormap_table(Colormap cmap) {
  return std::span<const Rgb, colormap_size>(tables()[static_cast<std::size_t>(cmap)]);
}

Rgb map_color(Colormap cmap, double t) {
  if (std::isnan(t)) return invalid_color;
  const double scaled = std::clamp(t, 0.0, 1.0) * static_cast<double>(colormap_size);
  const auto index = std::min(static_cast<std::size_t>(scaled), colormap_size - 1);
  return colormap_table(cmap)[index];
}

std::string_view colormap_name(Colormap cmap) {
  switch (cmap) {
    case Colormap::viridis: return "viridis";
    case Colormap::magma: return "magma";
    case Colormap::gray: return "gray";
    case Colormap::coolwarm: return "coolwarm";
  }
  return "unknown";
}

Colormap parse_colormap(std::string_view name) {
  for (Colormap cmap : all_colormaps) {
    if (colormap_name(cmap) == name) return cmap;
  }
  std::string valid;
  for (const std::string& n : colormap_names()) valid += (valid.empty() ? "" : ", ") + n;
  throw InputError("unknown colormap '" + std::string(name) + "'; valid names: " + valid);
}

std::vector<std::string> colormap_names() {
  std::vector<std::string> names;
  for (Colormap cmap : all_colormaps) names.emplace_back(colormap_name(cmap));
  return names;
}

}  // namespace pdex::io
