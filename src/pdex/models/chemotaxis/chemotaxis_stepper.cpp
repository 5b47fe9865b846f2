#include "pdex/models/chemotaxis/chemotaxis_stepper.hpp"

#include "pdex/core/dispatch.hpp"
#include "pdex/core/error.hpp"

namespace pdex {

std::unique_ptr<Stepper> make_chemotaxis_stepper(const ChemotaxisSpec& spec, Backend backend, Precision precision) {
  return with_executor(backend, [&](const auto& ex) { return make_chemotaxis_stepper_on(ex, spec, precision); });
}

std::vector<double> with_ghost_ring(const std::vector<double>& cells, Extents2 n) {
  const int nx = n.nx, ny = n.ny;
  if (nx < 3 || ny < 3) throw InputError("a field extended beyond the faces needs at least 3 x 3 cells");
  const Extents2 ringed = n.grown(1);
  std::vector<double> out(std::size_t(ringed.cells()), 0.0);
  auto at = [&](int i, int j) -> double& { return out[std::size_t(ringed.index(i + 1, j + 1))]; };
  for_each_cell(n, [&](int i, int j) { at(i, j) = cells[std::size_t(n.index(i, j))]; });
  for (int j = 0; j < ny; ++j) {
    at(-1, j) = 3 * at(0, j) - 3 * at(1, j) + at(2, j);
    at(nx, j) = 3 * at(nx - 1, j) - 3 * at(nx - 2, j) + at(nx - 3, j);
  }
  for (int i = -1; i <= nx; ++i) {
    at(i, -1) = 3 * at(i, 0) - 3 * at(i, 1) + at(i, 2);
    at(i, ny) = 3 * at(i, ny - 1) - 3 * at(i, ny - 2) + at(i, ny - 3);
  }
  return out;
}

}  // namespace pdex
