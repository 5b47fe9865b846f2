#pragma once
// Vector operations on every executor (seed 001 sec. 44.2.2-44.2.3: vector-vector operations and the
// vector reduce). The linear ones are the grid's (grid_ops.hpp) on the vector's row layout; those that
// would see the zero padding (min, max, element-wise quotients) test the flat index against n.
#include <cmath>
#include <cstdint>

#include "pdex/linalg/grid_ops.hpp"
#include "pdex/linalg/vector.hpp"

namespace pdex {

// y += a x (seed 001 eq. 44-1's vector-vector operation)
template <class Exec, class T>
void axpy(const Exec& ex, T a, const Vector<T>& x, Vector<T>& y) {
  axpby(ex, a, x.cview(), T(1), y.view());
}

template <class Exec, class T>
void scale(const Exec& ex, T a, Vector<T>& x) {
  FieldView<T> v = x.view();
  for_each_cell(ex, v.interior(), [=] PDEX_HD(int i, int j) { v(0, i, j) *= a; });
}

// out = x * y, element by element.
template <class Exec, class T>
void multiply(const Exec& ex, const Vector<T>& x, const Vector<T>& y, Vector<T>& out) {
  FieldView<const T> a = x.cview(), b = y.cview();
  FieldView<T> o = out.view();
  for_each_cell(ex, a.interior(), [=] PDEX_HD(int i, int j) { o(0, i, j) = a(0, i, j) * b(0, i, j); });
}

// out = x / y, element by element (the padding stays zero).
template <class Exec, class T>
void divide(const Exec& ex, const Vector<T>& x, const Vector<T>& y, Vector<T>& out) {
  FieldView<const T> a = x.cview(), b = y.cview();
  FieldView<T> o = out.view();
  const int64_t n = x.size();
  for_each_cell(ex, a.interior(), [=] PDEX_HD(int i, int j) {
    o(0, i, j) = int64_t(j) * a.pitch + i < n ? a(0, i, j) / b(0, i, j) : T(0);
  });
}

template <class Exec, class T>
double dot(const Exec& ex, const Vector<T>& x, const Vector<T>& y) {
  return dot(ex, x.cview(), y.cview());
}

template <class Exec, class T>
double sum(const Exec& ex, const Vector<T>& x) {
  FieldView<const T> v = x.cview();
  return reduce<double>(ex, v.interior(), [=] PDEX_HD(int i, int j) { return double(v(0, i, j)); }, Sum<double>{});
}

template <class Exec, class T>
double norm2(const Exec& ex, const Vector<T>& x) {
  return std::sqrt(dot(ex, x, x));
}

template <class Exec, class T>
double norm_inf(const Exec& ex, const Vector<T>& x) {
  FieldView<const T> v = x.cview();
  return reduce<double>(
      ex, v.interior(), [=] PDEX_HD(int i, int j) { return std::fabs(double(v(0, i, j))); }, Max<double>{});
}

// The smallest (Op = Min) or largest (Op = Max) value, padding excluded.
template <class Op, class Exec, class T>
double extreme(const Exec& ex, const Vector<T>& x) {
  FieldView<const T> v = x.cview();
  const int64_t n = x.size();
  return reduce<double>(
      ex, v.interior(),
      [=] PDEX_HD(int i, int j) { return int64_t(j) * v.pitch + i < n ? double(v(0, i, j)) : Op::identity(); },
      Op{});
}

template <class Exec, class T>
double min_value(const Exec& ex, const Vector<T>& x) {
  return extreme<Min<double>>(ex, x);
}

template <class Exec, class T>
double max_value(const Exec& ex, const Vector<T>& x) {
  return extreme<Max<double>>(ex, x);
}

}  // namespace pdex
