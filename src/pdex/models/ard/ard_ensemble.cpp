// An ensemble of advection-reaction-diffusion runs as one spec: the members' grids, initial states and
// parameters stacked in one field (grid/members.hpp), so that one forward Euler launch steps them all.
#include <algorithm>
#include <string>
#include <vector>

#include "pdex/core/error.hpp"
#include "pdex/models/ard/ard_stepper.hpp"

namespace pdex {

namespace {

bool same(const ScalarSpec& a, const ScalarSpec& b) { return a.value == b.value && a.cells == b.cells; }

bool same(const FieldBoundary& a, const FieldBoundary& b, int ncomp) {
  for (int s = 0; s < 4; ++s)
    for (int c = 0; c < ncomp; ++c) {
      const SideBc &x = a.side[s][c], &y = b.side[s][c];
      if (x.kind != y.kind || x.value != y.value || x.scale != y.scale) return false;
    }
  return true;
}

bool same(const Grid2& a, const Grid2& b) {
  return a.nx == b.nx && a.ny == b.ny && a.dx == b.dx && a.dy == b.dy && a.x0 == b.x0 && a.y0 == b.y0;
}

// The first thing other than a parameter's value in which two members differ, or "".
std::string difference(const ArdSpec& a, const ArdSpec& b) {
  if (a.reaction != b.reaction) return "model.name";
  if (!same(a.grid, b.grid)) return "[grid]";
  if (!same(a.bc, b.bc, int(a.species.size()))) return "grid.boundary";
  if (a.dt != b.dt) return "time.dt (give it a value: the stable step depends on the parameters)";
  if (a.theta != b.theta || a.mol_scheme != b.mol_scheme || a.tol != b.tol) return "[time]";
  if (a.advection != b.advection || !same(a.ax, b.ax) || !same(a.ay, b.ay)) return "model.advection";
  if (a.anisotropic != b.anisotropic || !same(a.mxx, b.mxx) || !same(a.mxy, b.mxy) || !same(a.myy, b.myy))
    return "model.diffusion";
  if (a.clamp != b.clamp) return "model.clamp";
  for (std::size_t c = 0; c < a.initial.size(); ++c)
    if (!a.initial[c].same_as(b.initial[c], a.grid.cells())) return "[initial]";
  return {};
}

// One value per cell of the stacked grid: member m's in its rows, the rows between members holding
// copies of the last row below them (ghosts: never read as values). A constant where all members agree.
ScalarSpec stack(const std::vector<const ScalarSpec*>& parts, const Members& mb, int nx) {
  bool constant = true;
  for (const ScalarSpec* p : parts) constant = constant && !p->varies() && p->value == parts[0]->value;
  if (constant) return *parts[0];
  ScalarSpec s;
  s.cells.resize(std::size_t(nx) * std::size_t(mb.rows()));
  const std::size_t row = std::size_t(nx);
  for (int m = 0; m < mb.count; ++m) {
    const std::vector<double> own = parts[std::size_t(m)]->per_cell(row * std::size_t(mb.ny));
    const int last = m + 1 < mb.count ? mb.period() : mb.ny;
    for (int j = 0; j < last; ++j) {
      const std::size_t from = row * std::size_t(j < mb.ny ? j : mb.ny - 1);
      std::copy_n(own.begin() + std::ptrdiff_t(from), row, s.cells.begin() + std::ptrdiff_t(row * std::size_t(mb.row(m, j))));
    }
  }
  return s;
}

template <class Get>
ScalarSpec stack_by(const std::vector<const ArdSpec*>& members, const Members& mb, Get get) {
  std::vector<const ScalarSpec*> parts;
  for (const ArdSpec* m : members) parts.push_back(&get(*m));
  return stack(parts, mb, members[0]->grid.nx);
}

}  // namespace

ArdSpec stack_members(const std::vector<const ArdSpec*>& members) {
  if (members.empty()) throw InputError("an ensemble needs at least one member");
  const ArdSpec& first = *members[0];
  for (std::size_t m = 1; m < members.size(); ++m)
    if (std::string d = difference(first, *members[m]); !d.empty())
      throw InputError("the members of an ensemble may differ in model.params only; members 0 and " + std::to_string(m) +
                       " differ in " + d);
  if (first.grid.is_3d())
    throw InputError("stacked members are 2D grids; a 3D grid's members run one after another (pdex sweep)");
  if (!first.mol_scheme.empty() || first.theta > 0)
    throw InputError("stacked members step by time.scheme = \"euler\"; theta, rk4 and merson members run one after another (pdex sweep)");
  ArdSpec s = first;
  s.members = Members{int(members.size()), first.grid.ny, ard_ghost_width};
  s.uniform_members = !first.anisotropic && !first.ax.varies() && !first.ay.varies();
  for (const ArdSpec* m : members)
    for (const auto& [name, p] : m->params) s.uniform_members = s.uniform_members && !p.varies();
  s.grid = s.members.stacked(first.grid);
  for (auto& [name, p] : s.params)  // key = name: clang before 16 cannot capture a structured binding
    p = stack_by(members, s.members, [&, &key = name](const ArdSpec& a) -> const ScalarSpec& { return a.params.at(key); });
  s.ax = stack_by(members, s.members, [](const ArdSpec& a) -> const ScalarSpec& { return a.ax; });
  s.ay = stack_by(members, s.members, [](const ArdSpec& a) -> const ScalarSpec& { return a.ay; });
  s.mxx = stack_by(members, s.members, [](const ArdSpec& a) -> const ScalarSpec& { return a.mxx; });
  s.mxy = stack_by(members, s.members, [](const ArdSpec& a) -> const ScalarSpec& { return a.mxy; });
  s.myy = stack_by(members, s.members, [](const ArdSpec& a) -> const ScalarSpec& { return a.myy; });
  for (std::size_t c = 0; c < s.initial.size(); ++c) {  // the same in every member (difference() checked)
    ScalarSpec own;
    own.cells = first.initial[c].cells(first.grid.cells());
    s.initial[c] = stack(std::vector<const ScalarSpec*>(members.size(), &own), s.members, first.grid.nx).cells;
  }
  return s;
}

}  // namespace pdex
