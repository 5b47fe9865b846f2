#include "pdex/models/equations/text_stability.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "pdex/core/format.hpp"
#include "pdex/grid/field.hpp"
#include "pdex/grid/fill_ghosts.hpp"
#include "pdex/models/equations/interpreter.hpp"

namespace pdex {

namespace {

// Cells spread evenly over n, the first and the last included.
std::vector<int> spread(int n, int count) {
  std::vector<int> v;
  for (int k = 0; k < count; ++k) v.push_back(count == 1 ? 0 : int(std::lround(double(k) * (n - 1) / (count - 1))));
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

}  // namespace

StableStep text_stable_step(const EquationsSpec& s, double theta) {
  const int n = int(s.text.species.size()), reach = std::max(1, s.program.reach);
  Field<double> u(s.grid, n, reach, MemorySpace::host), params(s.grid, std::max<int>(1, int(s.params.size())), reach, MemorySpace::host);
  for (int k = 0; k < n; ++k) u.set_interior(k, s.initial[std::size_t(k)]);
  fill_ghosts(Serial{}, u.view(), s.bc);
  for (std::size_t k = 0; k < s.params.size(); ++k) params.set_interior(int(k), s.params[k].per_cell(std::size_t(s.grid.cells())));
  eq::StageArgs<double> a = eq::reading(u.cview(), params.cview(), s.grid);
  a.theta = std::min(1.0, 2 * theta);
  const eq::TextCell<double> cell(a);
  const eq::Interpreter<double> rhs(s.program);
  const FieldView<double> w = u.view();
  double most = 0, f0[max_components], f1[max_components];
  int at_species = 0, at_i = 0, at_j = 0;
  for (const int j : spread(s.grid.ny, 16))
    for (const int i : spread(s.grid.nx, 16)) {
      rhs(cell, i, j, f0);
      double rows[max_components] = {};
      for (int r = 0; r < n; ++r)
        for (int dj = -reach; dj <= reach; ++dj)
          for (int di = -reach; di <= reach; ++di) {
            double& x = w(r, i + di, j + dj);
            const double saved = x, delta = 1e-7 * std::max(1.0, std::abs(x));
            x = saved + delta;
            rhs(cell, i, j, f1);
            x = saved;
            for (int c = 0; c < n; ++c) rows[c] += std::abs(f1[c] - f0[c]) / delta;
          }
      for (int c = 0; c < n; ++c)
        if (rows[c] > most) most = rows[c], at_species = c, at_i = i, at_j = j;
    }
  if (!(most > 0)) return {std::numeric_limits<double>::infinity(), "the right-hand sides do not depend on the state"};
  const std::string where = s.grid.extents().where(s.grid.extents().index(at_i, at_j));
  return {2 / most, cat({"estimated from the equations' Jacobian at the initial state, largest in species ",
                         s.text.species[std::size_t(at_species)], "'s equation at ", where})};
}

}  // namespace pdex
