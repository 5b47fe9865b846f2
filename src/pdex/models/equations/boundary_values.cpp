#include "pdex/models/equations/boundary_values.hpp"

#include <algorithm>

#include "pdex/grid/field.hpp"
#include "pdex/models/equations/interpreter.hpp"

namespace pdex {

std::vector<double> boundary_offsets(const EquationsSpec& s, const BoundaryExpression& e, int ghost, double t) {
  const Grid2& g = s.grid;
  const int side = e.text.side;
  // The face as a row or column of cells whose centres lie on it, L_x and L_y the domain's.
  Grid2 line = g;
  if (side == left || side == right) {
    line.nx = 1;
    line.x0 = (side == left ? g.x0 : g.x0 + g.width()) - g.dx / 2;
  } else {
    line.nx = g.nx + 2 * ghost, line.ny = 1;
    line.x0 = g.x0 - ghost * g.dx;
    line.y0 = (side == bottom ? g.y0 : g.y0 + g.height()) - g.dy / 2;
  }
  Field<double> none(line, 1, 1, MemorySpace::host), params(line, std::max<int>(1, int(s.params.size())), 1, MemorySpace::host);
  for (std::size_t k = 0; k < s.params.size(); ++k)  // numbers only (read_equations)
    params.set_interior(int(k), std::vector<double>(std::size_t(line.cells()), s.params[k].value));
  eq::TextCell<double> cell(eq::reading(none.cview(), params.cview(), line, t));
  cell.lx = g.width(), cell.ly = g.height();
  const eq::Interpreter<double> run(e.program);
  std::vector<double> v(std::size_t(line.cells()));
  for_each_cell(line.extents(), [&](int i, int j) {
    v[std::size_t(line.extents().index(i, j))] = e.text.factor * run.node(cell, e.program.equations[0], i, j);
  });
  return v;
}

}  // namespace pdex
