#include "pdex/grid/cell_source.hpp"

#include <cmath>

#include "pdex/core/hash.hpp"

namespace pdex {

CellSource::CellSource(std::vector<double> cells) {
  CellRecipe r;
  r.cells = std::make_shared<const std::vector<double>>(std::move(cells));
  recipe_ = std::make_shared<const CellRecipe>(std::move(r));
}

CellSource::CellSource(CellRecipe recipe) : value_(recipe.value) {
  recipe_ = std::make_shared<const CellRecipe>(std::move(recipe));
}

// Cells whole, whole + 1, ... of the recipe's grid: the start, the shapes in order, the noise, the
// scale, as the configuration reads them.
void CellSource::fill_run(int64_t whole, std::span<double> out) const {
  const CellRecipe& r = *recipe_;
  const Grid2& g = r.grid;
  for (std::size_t m = 0; m < out.size(); ++m) out[m] = r.cells ? (*r.cells)[std::size_t(whole) + m] : r.value;
  for (const CellShape& s : r.shapes)
    for (std::size_t m = 0; m < out.size();) {  // a row at a time
      const CellIndex2 c = g.extents().cell(whole + int64_t(m));
      const std::size_t row_end = m + std::min(out.size() - m, std::size_t(g.nx - c.i));
      const double y = g.y(c.j) - s.c[1], z = g.is_3d() ? g.z(c.k) - s.c[2] : 0.0;
      for (int i = c.i; m < row_end; ++m, ++i) {
        const double x = g.x(i) - s.c[0];
        const bool inside = s.ball ? x * x + y * y + z * z <= s.r * s.r
                                   : std::abs(x) <= s.h[0] && std::abs(y) <= s.h[1] && std::abs(z) <= s.h[2];
        if (inside) out[m] = s.value;
      }
    }
  if (r.noise > 0) {
    uint64_t state = r.seed + uint64_t(whole) * 0x9E3779B97F4A7C15ull;  // SplitMix64 after `whole` draws
    for (double& c : out) c += r.noise * (2 * unit_draw(state) - 1);
  }
  if (r.scale != 1)
    for (double& c : out) c *= r.scale;
}

void CellSource::fill(int64_t first, std::span<double> out) const {
  if (!recipe_) return std::fill(out.begin(), out.end(), value_);
  if (!window_) return fill_run(first, out);
  const Window& w = *window_;
  for (std::size_t done = 0; done < out.size();) {  // a row of the block at a time
    const CellIndex2 c = w.extents.cell(first + int64_t(done));
    const std::size_t n = std::min(out.size() - done, std::size_t(w.extents.nx - c.i));
    fill_run(w.whole.index(w.first[0] + c.i, w.first[1] + c.j, w.first[2] + c.k), out.subspan(done, n));
    done += n;
  }
}

std::vector<double> CellSource::cells(int64_t count) const {
  std::vector<double> out(std::size_t(count), value_);
  if (recipe_) fill(0, out);
  return out;
}

CellSource CellSource::block(const Extents2& e, const Block& b) const {
  CellSource out = *this;
  if (!recipe_) return out;
  Window w = window_.value_or(Window{{0, 0, 0}, e, e});
  for (std::size_t a = 0; a < 3; ++a) w.first[a] += b.first[a];
  w.extents = b.extents();
  out.window_ = w;
  return out;
}

bool CellSource::same_as(const CellSource& o, int64_t count) const {
  if (!varies() && !o.varies()) return value_ == o.value_;
  return cells(count) == o.cells(count);
}

}  // namespace pdex
