#pragma once
// One point's relaxation, x += omega D^-1 (b - A x), with its boundary images: the update every sweep of
// relaxation.hpp makes, on every backend and in every order of work.
#include <cstdint>

#include "pdex/core/macros.hpp"
#include "pdex/grid/boundary.hpp"
#include "pdex/grid/field_view.hpp"

namespace pdex {
namespace detail {
template <class T>
PDEX_HD inline T abs_of(T x) {
  return x < T(0) ? -x : x;
}

// The larger of a change so far and a new one; a NaN change is not taken (as relax_point always did).
template <class T>
PDEX_HD inline T larger_change(T so_far, T d) {
  return d > so_far ? d : so_far;
}

// out(i, j) = in(i, j) + omega D^-1 (b - A in)(i, j) for component c, with its boundary images;
// returns |change|. `in` and `out` may be the same field (Gauss-Seidel).
template <class T, class Op>
PDEX_HD inline T relax_component(const Op& op, const FieldView<const T>& in, const FieldView<const T>& b,
                                 const FieldView<T>& out, const FieldBoundary& bc, T omega, int i, int j, int c) {
  const int64_t o = in.offset(i, j);
  const T dx = omega * (b.comp(c)[o] - op.apply(in, i, j, c)) * op.inv_diag(i, j, c, o);
  const T v = in.comp(c)[o] + dx;
  out.comp(c)[o] = v;
  if (near_boundary(out, i, j)) push_ghosts(out, bc, c, i, j, v);
  return abs_of(dx);
}

// The same for every component; returns the largest |change|.
template <class T, class Op>
PDEX_HD inline T relax_point(const Op& op, const FieldView<const T>& in, const FieldView<const T>& b,
                             const FieldView<T>& out, const FieldBoundary& bc, T omega, int i, int j) {
  T change = T(0);
  for (int c = 0; c < in.ncomp; ++c) change = larger_change(change, relax_component(op, in, b, out, bc, omega, i, j, c));
  return change;
}

}  // namespace detail
}  // namespace pdex
