#pragma once
// Colormaps for picture output: a value scaled to t in [0, 1] becomes an 8-bit sRGB colour.
// Each map is a 256-entry table built once from its definition (a polynomial fit or an
// interpolation rule); t picks the entry floor(256 t), so equal-width bins cover [0, 1],
// t = 0 gives the first entry and t = 1 the last.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace pdex::io {

enum class Colormap {
  viridis,   // perceptually uniform, colour-blind safe; the default for fields
  magma,     // perceptually uniform, black to pale yellow
  gray,      // linear in sRGB code values, black to white
  coolwarm,  // diverging blue-white-red (Moreland 2009), for signed fields centred on zero
};

struct Rgb {
  std::uint8_t r = 0, g = 0, b = 0;
  friend bool operator==(const Rgb&, const Rgb&) = default;
};

inline constexpr std::size_t colormap_size = 256;

// Magenta is in none of the maps, so NaN/Inf cells stand out in any picture.
inline constexpr Rgb invalid_color{255, 0, 255};

// The map's entries, first entry at t = 0.
std::span<const Rgb, colormap_size> colormap_table(Colormap cmap);

// t outside [0, 1] is clamped; NaN gives invalid_color.
Rgb map_color(Colormap cmap, double t);

// The name used in configs and on the command line ("viridis", ...).
std::string_view colormap_name(Colormap cmap);

// Throws pdex::InputError listing the valid names when `name` is not one of them.
Colormap parse_colormap(std::string_view name);

std::vector<std::string> colormap_names();

}  // namespace pdex::io
