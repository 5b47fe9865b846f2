#pragma once
// What a Stepper reports of one component of a field: its interior values on the host, and min, max
// and mean (the steppers' values() and stats()); and the inverse of values(), set_values().
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "pdex/core/error.hpp"
#include "pdex/core/parallel.hpp"
#include "pdex/grid/field.hpp"
#include "pdex/grid/field_reductions.hpp"
#include "pdex/grid/fill_ghosts.hpp"
#include "pdex/time/quantized.hpp"
#include "pdex/time/stepper.hpp"

namespace pdex {

template <class Exec, class T>
FieldStats field_stats(const Exec& ex, FieldView<const T> v, int c) {
  return {double(field_min(ex, v, c)), double(field_max(ex, v, c)), field_sum(ex, v, c) / double(v.extents().cells())};
}

// Interior values of component c, row-major [y][x] ([z][y][x]), on the host as double: read in place
// from a host field (no copy of the state), from a host copy of a device one.
template <class T>
std::vector<double> interior_values(const Field<T>& f, int c) {
  if (f.space() != MemorySpace::host) return interior_values(to_space(f, MemorySpace::host), c);
  const Extents2 e = f.grid().extents();
  const FieldView<const T> v = f.cview();
  std::vector<double> out(std::size_t(e.cells()));
  for_each_cell(e, [&](int i, int j, int k) { out[std::size_t(e.index(i, j, k))] = double(v(c, i, j, k)); });
  return out;
}

// Component c quantized on the field's executor (min, max and mean by reductions, then one pass), so
// that only 16 bits a cell cross to the host; `scratch` keeps the device buffer between calls. A field
// with NaN or Inf cells is quantized on the host instead.
template <class Exec, class T>
QuantizedField quantize(const Exec& ex, const Field<T>& f, int c, Buffer<uint16_t>& scratch) {
  const FieldView<const T> v = f.cview();
  const FieldStats s = field_stats(ex, v, c);
  if (!std::isfinite(s.min) || !std::isfinite(s.max) || !std::isfinite(s.mean)) return quantize_values(interior_values(f, c));
  const std::size_t cells = std::size_t(f.grid().cells());
  if (scratch.size() != cells) scratch = Buffer<uint16_t>(cells, Exec::space);
  uint16_t* q = scratch.data();
  const double lo = s.min, scale = quantize_scale(s.min, s.max);
  const int nx = f.grid().nx;
  for_each_cell(ex, v.interior_rows(), [=] PDEX_HD(int i, int r) {
    q[std::size_t(r) * std::size_t(nx) + std::size_t(i)] = uint16_t((double(row_value(v, c, i, r)) - lo) * scale + 0.5);
  });
  Buffer<uint16_t> host(cells, MemorySpace::host);
  copy(host, scratch);
  return {s.min, s.max, s.mean, std::vector<uint16_t>(host.data(), host.data() + cells)};
}

// Sets the interior of component c from row-major [y][x] ([z][y][x]) values, in whatever space the field lives, and
// refreshes the ghosts of the field under bc (of each member's, for a stacked ensemble).
template <class T>
void set_interior_values(Field<T>& f, int c, const std::vector<double>& v, const FieldBoundary& bc,
                         const Members& members = {}) {
  if (v.size() != std::size_t(f.grid().cells()))
    throw InputError("expected " + std::to_string(f.grid().cells()) + " values (ny x nx), got " + std::to_string(v.size()));
  Field<T> host = to_space(f, MemorySpace::host);
  host.set_interior(c, std::vector<T>(v.begin(), v.end()));
  fill_ghosts(Serial{}, host, bc, members);
  copy(f, host);
}

// A field's whole buffer (ghosts and padding too) as one named array, and back: state that a checkpoint
// restores exactly as it was (Stepper::extra_state), whatever its boundary rule.
template <class T>
NamedArray buffer_array(const std::string& name, const Field<T>& f) {
  const Field<T> host = to_space(f, MemorySpace::host);
  const T* d = host.buffer().data();
  return {name, std::vector<double>(d, d + host.buffer().size())};
}
template <class T>
void set_buffer_array(Field<T>& f, const std::vector<NamedArray>& arrays, const std::string& name) {
  const std::vector<double>& v = find_array(arrays, name);
  Field<T> host = f.like(MemorySpace::host);
  if (v.size() != host.buffer().size())
    throw Error("the checkpoint's '" + name + "' has " + std::to_string(v.size()) + " values, this run's " +
                std::to_string(host.buffer().size()) + ": it was written for another grid");
  std::copy(v.begin(), v.end(), host.buffer().data());
  copy(f, host);
}

// A field's cells, every component, as one per-cell named array (NamedArray::per_cell), and back with
// the ghosts refilled by bc: state that a checkpoint carries across runs over MPI ranks and back.
template <class T>
NamedArray cells_array(const std::string& name, const Field<T>& f) {
  NamedArray a{name, {}, f.components()};
  a.values.reserve(std::size_t(f.grid().cells() * f.components()));
  for (int c = 0; c < f.components(); ++c) {
    const std::vector<double> v = interior_values(f, c);
    a.values.insert(a.values.end(), v.begin(), v.end());
  }
  return a;
}
template <class T>
void set_cells_array(Field<T>& f, const std::vector<NamedArray>& arrays, const std::string& name, const FieldBoundary& bc) {
  const std::vector<double>& v = find_array(arrays, name);
  const std::size_t cells = std::size_t(f.grid().cells());
  Field<T> host = f.like(MemorySpace::host);
  if (v.size() == host.buffer().size()) {  // a checkpoint of the former format: the whole buffer, ghosts too
    std::copy(v.begin(), v.end(), host.buffer().data());
  } else if (v.size() == cells * std::size_t(f.components())) {
    for (int c = 0; c < f.components(); ++c)
      host.set_interior(c, std::vector<double>(v.begin() + std::ptrdiff_t(cells * c), v.begin() + std::ptrdiff_t(cells * (c + 1))));
    fill_ghosts(Serial{}, host, bc);
  } else {
    throw Error("the checkpoint's '" + name + "' has " + std::to_string(v.size()) + " values, this run's " +
                std::to_string(cells * std::size_t(f.components())) + ": it was written for another grid");
  }
  copy(f, host);
}

// Where component c's interior lives (Stepper::memory): its rows, plane after plane (a 3D field's planes
// apart, its ghost rows between them).
template <class T>
FieldMemory field_memory(Field<T>& f, int c) {
  FieldView<T> v = f.view();
  return {v.comp(c) + v.offset(0, 0), v.pitch, v.plane, v.nx, v.ny, v.nz, int(sizeof(T)), f.space() == MemorySpace::device};
}

}  // namespace pdex
