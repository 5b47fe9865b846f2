#pragma once
// Sides whose values are expressions of x, y and t (EquationsSpec::boundary_values): their ghosts are
// written after every new state, at that state's time, by a pass over the ghosts alone (fill_ghosts with
// SideOffsets); the kernels' own pushes leave them the side's number, 0. The theta scheme's solve takes
// them on its right-hand side instead (add_implicit).
#include <cstddef>
#include <limits>
#include <vector>

#include "pdex/core/buffer.hpp"
#include "pdex/core/parallel.hpp"
#include "pdex/grid/fill_ghosts.hpp"
#include "pdex/models/equations/equations_spec.hpp"

namespace pdex {

// Side e's ghost offsets at time t, factor times its value at the face, in SideOffsets' layout (a y side
// `ghost` cells beyond each end).
std::vector<double> boundary_offsets(const EquationsSpec& s, const BoundaryExpression& e, int ghost, double t);

// b += w d v at the cells of r, v indexed by the row (along = 0) or the column plus `shift` (along = 1).
template <class Exec, class T>
void add_beside(const Exec& ex, FieldView<T> b, Range2 r, const T* v, int along, int shift, T w, const T* d) {
  if (!v) return;
  for_each_cell(ex, r, [=] PDEX_HD(int i, int j) {
    const int64_t at = b.offset(i, j);
    b.data[at] += w * (d ? d[at] : T(1)) * v[along ? i + shift : j];
  });
}

template <class Exec, class T>
class BoundaryValues {
 public:
  BoundaryValues(const Exec& ex, const EquationsSpec& spec, int ghost) : ex_(ex), spec_(&spec), ghost_(ghost) {
    for (const BoundaryExpression& e : spec.boundary_values) {
      const std::size_t n = std::size_t(e.text.side < 2 ? spec.grid.ny : spec.grid.nx + 2 * ghost);
      values_.emplace_back(n, Exec::space);
    }
  }

  bool empty() const { return values_.empty(); }

  // The ghosts of the species with such sides, at time t.
  void apply(FieldView<T> u, double t) {
    if (empty()) return;
    load(t);
    for (int c = 0; c < u.ncomp; ++c) {
      const SideOffsets<T> o = offsets(c);
      if (o.at[0] || o.at[1] || o.at[2] || o.at[3]) fill_ghosts(ex_, u, spec_->bc, c, o);
    }
  }

  // b += beta d o / h^2 at the cells beside species c's such sides, o their offsets at time t: a theta
  // step's solve with those sides' offsets taken as 0 (their number) then gives the step's state.
  // d: the diffusivity's per-cell factor (null: 1); b: the species' component of the right-hand side.
  void add_implicit(FieldView<T> b, int c, T beta, const T* d, double t) {
    if (empty()) return;
    load(t);
    const Grid2& g = spec_->grid;
    const T wx = beta / T(g.dx * g.dx), wy = beta / T(g.dy * g.dy);
    const SideOffsets<T> o = offsets(c);
    const int nx = g.nx, ny = g.ny;
    add_beside(ex_, b, Range2{0, 1, 0, ny}, o.at[left], 0, 0, wx, d);
    add_beside(ex_, b, Range2{nx - 1, nx, 0, ny}, o.at[right], 0, 0, wx, d);
    add_beside(ex_, b, Range2{0, nx, 0, 1}, o.at[bottom], 1, ghost_, wy, d);
    add_beside(ex_, b, Range2{0, nx, ny - 1, ny}, o.at[top], 1, ghost_, wy, d);
  }

 private:
  SideOffsets<T> offsets(int c) const {
    SideOffsets<T> o;
    for (std::size_t k = 0; k < values_.size(); ++k)
      if (spec_->boundary_values[k].text.field == c) o.at[spec_->boundary_values[k].text.side] = values_[k].data();
    return o;
  }

  // Evaluates the sides' values at t where they change with t (all of them the first time) and uploads them.
  void load(double t) {
    if (t == loaded_t_) return;
    for (std::size_t k = 0; k < values_.size(); ++k) {
      const BoundaryExpression& e = spec_->boundary_values[k];
      if (!e.timed && loaded_) continue;
      const std::vector<double> v = boundary_offsets(*spec_, e, ghost_, t);
      Buffer<T> host(v.size(), MemorySpace::host);
      for (std::size_t q = 0; q < v.size(); ++q) host.data()[q] = T(v[q]);
      copy(values_[k], host);
    }
    loaded_ = true, loaded_t_ = t;
  }

  Exec ex_;
  const EquationsSpec* spec_;
  int ghost_;
  std::vector<Buffer<T>> values_;  // per spec.boundary_values
  bool loaded_ = false;
  double loaded_t_ = -std::numeric_limits<double>::infinity();
};

}  // namespace pdex
