#include "pdex/io/shading.hpp"

#include <algorithm>
#include <cmath>

namespace pdex::io {

std::vector<double> height_shade(const std::vector<double>& u, int nx, int ny, double relief) {
  const double lx = -0.5, ly = 0.5, lz = std::sqrt(0.5);  // unit vector to the light
  auto at = [&](int i, int j) {
    return u[std::size_t(std::clamp(j, 0, ny - 1)) * nx + std::size_t(std::clamp(i, 0, nx - 1))];
  };
  std::vector<double> out(u.size());
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const double gx = relief * 0.5 * (at(i + 1, j) - at(i - 1, j));
      const double gy = relief * 0.5 * (at(i, j + 1) - at(i, j - 1));
      const double lambert = (-gx * lx - gy * ly + lz) / std::sqrt(gx * gx + gy * gy + 1);
      out[std::size_t(j) * nx + i] = std::clamp(lambert, 0.0, 1.0);
    }
  return out;
}

}  // namespace pdex::io
