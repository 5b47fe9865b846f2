#pragma once
// The fused vector kernels of the Krylov methods (CG, PCG, BiCGStab): each is one pass over memory
// that also returns the dot products the method needs next, so an iteration reads each vector as few
// times as the algorithm allows.
#include <cstdint>

#include "pdex/grid/block_step.hpp"
#include "pdex/linalg/grid_ops.hpp"

namespace pdex {

// q = A p over box b of p's cells (a block's part, block_step.hpp), returning the sum of p . q there.
// p's ghosts must hold its (homogeneous) boundary images, or b must keep clear of them.
template <class Exec, class T, class Op>
double apply_dot(const Exec& ex, const Op& op, FieldView<const T> p, FieldView<T> q, const CellBox& b) {
  return reduce_box_cells<double>(
      ex, b, p.ny,
      [=] PDEX_HD(int i, int j) {
        const int64_t o = p.row_offset(i, j);
        double s = 0;
        for (int c = 0; c < p.ncomp; ++c) {
          const T v = op.apply(p, i, j, c);
          q.comp(c)[o] = v;
          s += double(p.comp(c)[o]) * double(v);
        }
        return s;
      },
      Sum<double>{});
}

// The same over every cell.
template <class Exec, class T, class Op>
double apply_dot(const Exec& ex, const Op& op, FieldView<const T> p, FieldView<T> q) {
  return apply_dot(ex, op, p, q, whole_box(p.extents()));
}

// x += a p, r -= a q, returning |r|^2.
template <class Exec, class T>
double cg_update(const Exec& ex, T a, FieldView<const T> p, FieldView<const T> q, FieldView<T> x, FieldView<T> r) {
  return reduce<double>(
      ex, p.interior_rows(),
      [=] PDEX_HD(int i, int j) {
        const int64_t o = p.row_offset(i, j);
        double s = 0;
        for (int c = 0; c < p.ncomp; ++c) {
          x.comp(c)[o] += a * p.comp(c)[o];
          const T v = r.comp(c)[o] - a * q.comp(c)[o];
          r.comp(c)[o] = v;
          s += double(v) * double(v);
        }
        return s;
      },
      Sum<double>{});
}

// z = D^-1 r (the Jacobi preconditioner), returning r . z.
template <class Exec, class T, class Op>
double jacobi_precondition(const Exec& ex, const Op& op, FieldView<const T> r, FieldView<T> z) {
  return reduce<double>(
      ex, r.interior_rows(),
      [=] PDEX_HD(int i, int j) {
        const int64_t o = r.row_offset(i, j);
        double s = 0;
        for (int c = 0; c < r.ncomp; ++c) {
          const T v = r.comp(c)[o] / op.diag(i, j, c, o);
          z.comp(c)[o] = v;
          s += double(r.comp(c)[o]) * double(v);
        }
        return s;
      },
      Sum<double>{});
}

// out = a x + b y, returning |out|^2.
template <class Exec, class T>
double combine(const Exec& ex, T a, FieldView<const T> x, T b, FieldView<const T> y, FieldView<T> out) {
  return reduce<double>(
      ex, x.interior_rows(),
      [=] PDEX_HD(int i, int j) {
        const int64_t o = x.row_offset(i, j);
        double s = 0;
        for (int c = 0; c < x.ncomp; ++c) {
          const T v = a * x.comp(c)[o] + b * y.comp(c)[o];
          out.comp(c)[o] = v;
          s += double(v) * double(v);
        }
        return s;
      },
      Sum<double>{});
}

// BiCGStab's new direction p = r + beta (p - omega v).
template <class Exec, class T>
void bicgstab_direction(const Exec& ex, FieldView<const T> r, T beta, T omega, FieldView<const T> v, FieldView<T> p) {
  for_each_cell(ex, r.interior_rows(), [=] PDEX_HD(int i, int j) {
    const int64_t o = r.row_offset(i, j);
    for (int c = 0; c < r.ncomp; ++c) p.comp(c)[o] = r.comp(c)[o] + beta * (p.comp(c)[o] - omega * v.comp(c)[o]);
  });
}

// x += a p + b s
template <class Exec, class T>
void add_two(const Exec& ex, T a, FieldView<const T> p, T b, FieldView<const T> s, FieldView<T> x) {
  for_each_cell(ex, p.interior_rows(), [=] PDEX_HD(int i, int j) {
    const int64_t o = p.row_offset(i, j);
    for (int c = 0; c < p.ncomp; ++c) x.comp(c)[o] += a * p.comp(c)[o] + b * s.comp(c)[o];
  });
}

// (t . s, t . t) in one pass.
template <class Exec, class T>
Pair dot_pair(const Exec& ex, FieldView<const T> t, FieldView<const T> s) {
  return reduce<Pair>(
      ex, t.interior_rows(),
      [=] PDEX_HD(int i, int j) {
        const int64_t o = t.row_offset(i, j);
        Pair p;
        for (int c = 0; c < t.ncomp; ++c) {
          p.a += double(t.comp(c)[o]) * double(s.comp(c)[o]);
          p.b += double(t.comp(c)[o]) * double(t.comp(c)[o]);
        }
        return p;
      },
      PairSum{});
}

}  // namespace pdex
