#pragma once
// Height-field shading for pictures of a surface (seed 001's water surface, Fig. 44-10): each cell's
// brightness is the Lambert term of the surface normal of z = relief * u under a light from the upper
// left, so ripples read as relief rather than as colour bands.
#include <vector>

namespace pdex::io {

// Brightness in [0, 1] per cell of the row-major nx x ny field u (spacing 1 cell).
std::vector<double> height_shade(const std::vector<double>& u, int nx, int ny, double relief);

}  // namespace pdex::io
