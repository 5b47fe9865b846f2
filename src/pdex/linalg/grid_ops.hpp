#pragma once
// Vector operations on the interiors of grid fields, every component in lock step (a block-diagonal
// system is solved as one), on any executor. Sums accumulate in double, in a fixed order (deterministic).
// They walk interior_rows(): a 2D field's rows, or every plane's of a 3D one, row r at row_offset(i, r);
// an operator's apply and diag take (i, r) alike (helmholtz3.hpp turns r into a row and a plane).
#include <cstdint>

#include "pdex/core/parallel.hpp"
#include "pdex/grid/boundary.hpp"
#include "pdex/grid/field_view.hpp"

namespace pdex {

// Two sums carried by one reduction pass (a fused update and its norms).
struct Pair {
  double a = 0, b = 0;
};
struct PairSum {
  PDEX_HD static constexpr Pair identity() { return Pair{0, 0}; }
  PDEX_HD Pair operator()(Pair x, Pair y) const { return Pair{x.a + y.a, x.b + y.b}; }
};

// The interior and the ghost layers: where a field is set as a whole. A 3D field's planes, ghost planes
// included, are rows of one 2D field, `plane` values apart.
template <class T>
Range2 with_ghosts(const FieldView<T>& f) {
  if (f.nz == 1) return f.extents().range(f.ghost);
  const int period = f.ny + 2 * f.ghost;
  return Range2{-f.ghost, f.nx + f.ghost, -f.ghost - f.ghost * period, (f.nz + f.ghost) * period - f.ghost};
}

template <class Exec, class T>
void fill_all(const Exec& ex, FieldView<T> x, T value) {
  for_each_cell(ex, with_ghosts(x), [=] PDEX_HD(int i, int j) {
    for (int c = 0; c < x.ncomp; ++c) x(c, i, j) = value;
  });
}

template <class Exec, class T>
void copy_interior(const Exec& ex, FieldView<const T> x, FieldView<T> y) {
  for_each_cell(ex, x.interior_rows(), [=] PDEX_HD(int i, int j) {
    const int64_t o = x.row_offset(i, j);
    for (int c = 0; c < x.ncomp; ++c) y.comp(c)[o] = x.comp(c)[o];
  });
}

// y = a x + b y
template <class Exec, class T>
void axpby(const Exec& ex, T a, FieldView<const T> x, T b, FieldView<T> y) {
  for_each_cell(ex, x.interior_rows(), [=] PDEX_HD(int i, int j) {
    const int64_t o = x.row_offset(i, j);
    for (int c = 0; c < x.ncomp; ++c) y.comp(c)[o] = a * x.comp(c)[o] + b * y.comp(c)[o];
  });
}

template <class Exec, class T>
double dot(const Exec& ex, FieldView<const T> x, FieldView<const T> y) {
  return reduce<double>(
      ex, x.interior_rows(),
      [=] PDEX_HD(int i, int j) {
        const int64_t o = x.row_offset(i, j);
        double s = 0;
        for (int c = 0; c < x.ncomp; ++c) s += double(x.comp(c)[o]) * double(y.comp(c)[o]);
        return s;
      },
      Sum<double>{});
}

// (b - A x) at cell i of row r, component c, whose offset is o: every residual's value, so that the
// kernels that make one (a GPU's fused with a restriction too) round it alike. An operator that applies
// at an offset (Helmholtz3::apply_at) takes o as it is, also without the cell (the first form): apply
// would work it out from the row again, a division by ny a cell on a 3D grid.
template <class T, class Op>
PDEX_HD inline T residual_at(const Op& op, const FieldView<const T>& x, const FieldView<const T>& b, int c, int64_t o) {
  return b.comp(c)[o] - op.apply_at(x.comp(c), o, c);
}

template <class T, class Op>
PDEX_HD inline T residual_at(const Op& op, const FieldView<const T>& x, const FieldView<const T>& b, int i, int r, int c,
                             int64_t o) {
  if constexpr (requires { op.apply_at(x.comp(c), o, c); }) return residual_at(op, x, b, c, o);
  else return b.comp(c)[o] - op.apply(x, i, r, c);
}

// r = b - A x, returning |r|^2. x's ghosts must hold its boundary images.
template <class Exec, class T, class Op>
double residual(const Exec& ex, const Op& op, FieldView<const T> x, FieldView<const T> b, FieldView<T> r) {
  return reduce<double>(
      ex, x.interior_rows(),
      [=] PDEX_HD(int i, int j) {
        const int64_t o = x.row_offset(i, j);
        double s = 0;
        for (int c = 0; c < x.ncomp; ++c) {
          const T v = residual_at(op, x, b, i, j, c, o);
          r.comp(c)[o] = v;
          s += double(v) * double(v);
        }
        return s;
      },
      Sum<double>{});
}

// |b - A x|^2 at cell (i, j), every component: a term of residual_norm2 (and of the queued residual
// tests on CUDA, which must sum the same terms).
template <class T, class Op>
PDEX_HD double cell_residual2(const Op& op, FieldView<const T> x, FieldView<const T> b, int i, int j) {
  const int64_t o = x.row_offset(i, j);
  double s = 0;
  for (int c = 0; c < x.ncomp; ++c) {
    const double v = double(residual_at(op, x, b, i, j, c, o));
    s += v * v;
  }
  return s;
}

// |b - A x|^2 without storing the residual.
template <class Exec, class T, class Op>
double residual_norm2(const Exec& ex, const Op& op, FieldView<const T> x, FieldView<const T> b) {
  return reduce<double>(
      ex, x.interior_rows(), [=] PDEX_HD(int i, int j) { return cell_residual2(op, x, b, i, j); }, Sum<double>{});
}

// |D x|^2, D the operator's diagonal: the size of the terms that b - A x sums (rounding_floor).
template <class Exec, class T, class Op>
double diagonal_norm2(const Exec& ex, const Op& op, FieldView<const T> x) {
  return reduce<double>(
      ex, x.interior_rows(),
      [=] PDEX_HD(int i, int j) {
        const int64_t o = x.row_offset(i, j);
        double s = 0;
        for (int c = 0; c < x.ncomp; ++c) {
          const double v = double(op.diag(i, j, c, o)) * double(x.comp(c)[o]);
          s += v * v;
        }
        return s;
      },
      Sum<double>{});
}

// Interior mean of component c.
template <class Exec, class T>
double mean(const Exec& ex, FieldView<const T> x, int c) {
  const double s = reduce<double>(
      ex, x.interior_rows(), [=] PDEX_HD(int i, int j) { return double(x.comp(c)[x.row_offset(i, j)]); }, Sum<double>{});
  return s / double(x.extents().cells());
}

// Removes the mean of component c (interior and ghosts): fixes the constant of a singular problem.
template <class Exec, class T>
void remove_mean(const Exec& ex, FieldView<T> x, int c) {
  const T m = T(mean(ex, as_const(x), c));
  for_each_cell(ex, with_ghosts(x), [=] PDEX_HD(int i, int j) { x(c, i, j) -= m; });
}

}  // namespace pdex
