#pragma once
// An input's value in each cell of a grid, made a row at a time: a number, or a recipe (a start value
// or an array's cells, shapes painted over it in order, uniform noise added, a scale). A run fills its
// state from it in its own precision, so that no whole-grid f64 copy of an initial state is ever held
// and a run's host memory stays near its state (docs/performance.md, "Memory").
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "pdex/grid/blocks.hpp"
#include "pdex/grid/field.hpp"
#include "pdex/grid/grid.hpp"

namespace pdex {

// A box (half sizes h) or a ball (radius r) centred at c; its cells take `value`.
struct CellShape {
  bool ball = false;
  std::array<double, 3> c{}, h{};
  double r = 0, value = 0;
};

struct CellRecipe {
  Grid2 grid;  // where the shapes are: the whole grid (its extents number the cells)
  double value = 0;
  std::shared_ptr<const std::vector<double>> cells;  // the start instead of `value`, where given
  std::vector<CellShape> shapes;
  double noise = 0;  // uniform in [-noise, noise], SplitMix64 from `seed` in cell order (core/hash.hpp)
  uint64_t seed = 1;
  double scale = 1;
};

class CellSource {
 public:
  CellSource(double value = 0.0) : value_(value) {}  // NOLINT(google-explicit-constructor): a number is a source
  // The cells as given, row-major.
  CellSource(std::vector<double> cells);  // NOLINT(google-explicit-constructor)
  explicit CellSource(CellRecipe recipe);

  bool varies() const { return recipe_ != nullptr; }
  double value() const { return value_; }  // a number's, or a recipe's start value
  // Cells [first, first + out.size()) of this source's grid in row-major order.
  void fill(int64_t first, std::span<double> out) const;
  // All `count` cells (the grid's), materialized.
  std::vector<double> cells(int64_t count) const;
  // The cells of block b of this source's grid, whose extents are e.
  CellSource block(const Extents2& e, const Block& b) const;
  bool same_as(const CellSource& o, int64_t count) const;

 private:
  void fill_run(int64_t whole, std::span<double> out) const;

  struct Window {
    std::array<int, 3> first{0, 0, 0};
    Extents2 extents, whole;
  };
  double value_ = 0;
  std::shared_ptr<const CellRecipe> recipe_;
  std::optional<Window> window_;  // a block's cells of the recipe's
};

// Sets component c's interior from `s`, a row at a time (the field's grid is the source's); the rows of
// a large grid on every host thread (a 2000^3 state takes minutes on one).
template <class T>
void set_interior(Field<T>& f, int c, const CellSource& s) {
  const Extents2 e = f.grid().extents();
  const FieldView<T> v = f.view();
  const int rows = e.ny * e.nz;
#pragma omp parallel if (e.cells() >= (int64_t(1) << 22))
  {
    std::vector<double> row(std::size_t(e.nx));
#pragma omp for schedule(static)
    for (int r = 0; r < rows; ++r) {
      const int j = r % e.ny, k = r / e.ny;
      s.fill(e.index(0, j, k), row);
      for (int i = 0; i < e.nx; ++i) v(c, i, j, k) = T(row[std::size_t(i)]);
    }
  }
}

// A one-component host field of `grid` (one ghost layer) whose interior is `s`, in T.
template <class T>
Field<T> field_of(const Grid2& grid, const CellSource& s) {
  Field<T> f(grid, 1, 1, MemorySpace::host);
  set_interior(f, 0, s);
  return f;
}

}  // namespace pdex
