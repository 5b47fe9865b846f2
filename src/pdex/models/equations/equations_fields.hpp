#pragma once
// A text model's fields on the host or a device, ghosts filled: the species (the initial state, or any
// state) and the parameters. Shared by the steppers, the algebraic species and the stable-step estimate.
#include <algorithm>
#include <utility>
#include <vector>

#include "pdex/grid/field.hpp"
#include "pdex/grid/fill_ghosts.hpp"
#include "pdex/models/equations/boundary_values.hpp"
#include "pdex/models/equations/equations_spec.hpp"
#include "pdex/models/equations/text_cell.hpp"

namespace pdex::equations_detail {

// A parameter's ghosts: periodic across the sides where the first species is periodic, mirrored
// (Neumann) elsewhere, so that an operator of a varying parameter reads sensible values beyond a side.
inline FieldBoundary parameter_boundary(const FieldBoundary& species) {
  FieldBoundary b = FieldBoundary::all(BcKind::neumann);
  for (int s = 0; s < side_count; ++s)
    if (species.side[s][0].kind == BcKind::periodic) b.side[s][0] = SideBc{BcKind::periodic, 0.0};
  return b;
}

inline int ghost_of(const EquationsSpec& spec) { return std::max(1, spec.program.reach); }

// The species with the interior values `values` (one vector per species) in `space`, ghosts filled as
// their boundaries say at time t.
template <class T>
Field<T> species_field(const EquationsSpec& spec, const std::vector<CellSource>& values, MemorySpace space, double t) {
  Field<T> host(spec.grid, int(spec.text.species.size()), ghost_of(spec), MemorySpace::host);
  for (std::size_t s = 0; s < values.size(); ++s) set_interior(host, int(s), values[s]);
  fill_ghosts(Serial{}, host.view(), spec.bc);
  BoundaryValues<Serial, T>(Serial{}, spec, ghost_of(spec)).apply(host.view(), t);
  return into_space(std::move(host), space);
}

// The initial state in `space`, its ghosts filled.
template <class T>
Field<T> initial_state(const EquationsSpec& spec, MemorySpace space) {
  return species_field<T>(spec, spec.initial, space, 0.0);
}

// The parameters that vary from cell to cell, a component each (eq::param_component), ghosts filled once:
// parameters do not change. Those that are numbers are the stages' Constants (constants_of).
template <class T>
Field<T> parameter_field(const EquationsSpec& spec, MemorySpace space) {
  int varying = 0;
  for (std::size_t k = 0; k < spec.params.size(); ++k) varying += eq::is_constant_param(spec.program, int(k)) ? 0 : 1;
  Field<T> host(spec.grid, varying, ghost_of(spec), MemorySpace::host);  // none: no memory
  const FieldBoundary bc = parameter_boundary(spec.bc);
  for (std::size_t k = 0; k < spec.params.size(); ++k) {
    if (eq::is_constant_param(spec.program, int(k))) continue;
    const int c = eq::param_component(spec.program, int(k));
    const std::vector<double> v = spec.params[k].per_cell(std::size_t(spec.grid.cells()));
    host.set_interior(c, v);
    fill_ghosts(Serial{}, host.view().components(c, 1), bc);
    exchange_halo(spec.halo, host.view().components(c, 1), bc, MemorySpace::host);  // read beyond a block's sides too
  }
  return into_space(std::move(host), space);
}

// The parameters that are numbers, by slot, as the stages read them (the first max_constants).
template <class T>
eq::Constants<T> constants_of(const EquationsSpec& spec) {
  eq::Constants<T> numbers;
  for (std::size_t k = 0; k < spec.params.size() && k < std::size_t(eq::max_constants); ++k) numbers.v[k] = T(spec.params[k].value);
  return numbers;
}

}  // namespace pdex::equations_detail
