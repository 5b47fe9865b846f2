#pragma once
// A red-black Gauss-Seidel sweep in one pass over memory, out of place: out = one sweep applied to in.
// The two-launch sweep (relaxation.hpp, rb_sweep) reads and writes the field once per colour; on a GPU,
// where a large field does not stay in cache between launches, that is twice the traffic. Here a thread
// takes a pair of cells of one row, one of each colour. The colour relaxed first depends on `in` alone;
// the second colour's update recomputes the first colour's new values at its neighbours instead of
// waiting for them: 2.5 point updates per cell instead of 1, for half the memory traffic. The result is
// rb_sweep's, to rounding.
#include <cstdint>

#include "pdex/core/parallel.hpp"
#include "pdex/grid/boundary.hpp"
#include "pdex/grid/field_view.hpp"
#include "pdex/linalg/helmholtz.hpp"

namespace pdex {

namespace detail {
template <class T>
struct PairSweep {
  Helmholtz<T> op;
  FieldView<const T> in, b;
  FieldView<T> out;
  FieldBoundary bc;
  T omega;
  int first;  // the colour, (i + j) % 2, relaxed first

  // The change the point update makes at interior cell (i, j) whose neighbours hold w, e, s, n.
  PDEX_HD T change(int i, int j, int c, int64_t o, T w, T e, T s, T n) const {
    return omega * (b.comp(c)[o] - op.apply5(c, o, in.comp(c)[o], w, e, s, n)) * op.inv_diag(i, j, c, o);
  }

  // The first colour's change at interior cell (i, j): its neighbours are all old values.
  PDEX_HD T first_change(int i, int j, int c) const {
    const int64_t o = in.offset(i, j);
    const T* p = in.comp(c);
    return change(i, j, c, o, p[o - 1], p[o + 1], p[o - op.h.pitch], p[o + op.h.pitch]);
  }

  // What the second colour's update sees at neighbour (i, j), beyond side `side` if outside: a first-
  // colour cell's new value; otherwise the old value in `in`, which beyond a Neumann or Dirichlet side
  // is the image of the updated cell itself, as rb_sweep's second launch reads it. Beyond a periodic
  // side the neighbour is the cell it wraps to.
  PDEX_HD T seen(int i, int j, int c, int side) const {
    const bool outside = i < 0 || i >= in.nx || j < 0 || j >= in.ny;
    if (outside) {
      if (bc.side[side][c].kind != BcKind::periodic) return in(c, i, j);
      i = i < 0 ? i + in.nx : i >= in.nx ? i - in.nx : i;
      j = j < 0 ? j + in.ny : j >= in.ny ? j - in.ny : j;
    }
    if (((i + j) & 1) != first) return in(c, i, j);
    return in(c, i, j) + first_change(i, j, c);
  }

  PDEX_HD void store(int i, int j, int c, T v) const {
    out(c, i, j) = v;
    if (near_boundary(out, i, j)) push_ghosts(out, bc, c, i, j, v);
  }

  // Relaxes the pair (2k, j), (2k + 1, j); returns the largest |change|.
  PDEX_HD T operator()(int k, int j) const {
    const int i0 = 2 * k, i1 = i0 + 1;
    const int i_first = ((i0 + j) & 1) == first ? i0 : i1, i_second = i0 + i1 - i_first;
    const bool has_first = i_first < in.nx, has_second = i_second < in.nx;
    T largest = T(0);
    for (int c = 0; c < in.ncomp; ++c) {
      T v1 = T(0);
      if (has_first) {
        const T d = first_change(i_first, j, c);
        v1 = in(c, i_first, j) + d;
        store(i_first, j, c, v1);
        largest = abs_max(largest, d);
      }
      if (has_second) {
        const int i = i_second;
        const T w = has_first && i_first == i - 1 ? v1 : seen(i - 1, j, c, left);
        const T e = has_first && i_first == i + 1 ? v1 : seen(i + 1, j, c, right);
        const T d = change(i, j, c, in.offset(i, j), w, e, seen(i, j - 1, c, bottom), seen(i, j + 1, c, top));
        store(i, j, c, in(c, i, j) + d);
        largest = abs_max(largest, d);
      }
    }
    return largest;
  }

  PDEX_HD static T abs_max(T m, T d) {
    const T a = d < T(0) ? -d : d;
    return a > m ? a : m;
  }
};
}  // namespace detail

// out = one red-black sweep (black first when `reverse`) applied to in; in's ghosts must hold its
// boundary images, and out gets its own. Returns the largest |change| when `measure`, else 0.
template <class Exec, class T>
T pair_sweep(const Exec& ex, const Helmholtz<T>& op, FieldView<const T> in, FieldView<const T> b, FieldView<T> out,
             const FieldBoundary& bc, T omega, bool reverse, bool measure) {
  const detail::PairSweep<T> sweep{op.refreshed(), in, b, out, bc, omega, reverse ? 1 : 0};
  const Range2 pairs{0, (in.nx + 1) / 2, 0, in.ny};
  if (measure) return reduce<T>(ex, pairs, sweep, Max<T>{});
  for_each_cell(ex, pairs, [=] PDEX_HD(int k, int j) { (void)sweep(k, j); });
  return T(0);
}

}  // namespace pdex
