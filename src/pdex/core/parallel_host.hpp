#pragma once
// for_each_cell and reduce on the host executors. The kernel body f(i, j) is the same one the CUDA
// executor runs (DESIGN principle 1); only the loop around it differs.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "pdex/core/executor.hpp"
#include "pdex/core/range.hpp"
#include "pdex/core/reduce_ops.hpp"

namespace pdex {

// row(j) for the rows j0 .. j1 - 1: in order on Serial, split evenly among the threads on OpenMP.
template <class Row>
void for_each_row(const Serial&, int j0, int j1, Row row) {
  for (int j = j0; j < j1; ++j) row(j);
}

template <class Row>
void for_each_row(const OpenMP&, int j0, int j1, Row row) {
#pragma omp parallel for schedule(static)
  for (int j = j0; j < j1; ++j) row(j);
}

// rows(j0', j1') over runs of the rows j0 .. j1 - 1: all of them on Serial, on OpenMP one run a thread
// (schedule(static)'s split), so that what a run sets up is paid once a thread, not once a row.
template <class Rows>
void for_each_row_run(const Serial&, int j0, int j1, Rows rows) {
  rows(j0, j1);
}

template <class Rows>
void for_each_row_run(const OpenMP&, int j0, int j1, Rows rows) {
  const int n = std::min(openmp_threads(), j1 - j0);
  auto row = [&](int t) { return j0 + int(int64_t(j1 - j0) * t / n); };
#pragma omp parallel for schedule(static)
  for (int t = 0; t < n; ++t) rows(row(t), row(t + 1));
}

// Cells of a row are independent by contract, which `omp simd` states to the compiler.
template <class F>
inline void for_row_cells(int i0, int i1, int j, const F& f) {
#pragma omp simd
  for (int i = i0; i < i1; ++i) f(i, j);
}

template <class Exec, class F>
  requires(Exec::space == MemorySpace::host)
void for_each_cell(const Exec& ex, Range2 r, F f) {
  for_each_row(ex, r.j0, r.j1, [&](int j) { for_row_cells(r.i0, r.i1, j, f); });
}

// The inner cells of r (at least `ghost` from every side) run `inner`, the rest run `edge`: host loops
// over the inner cells then carry no boundary test and vectorize.
inline Range2 inner_range(Range2 r, int ghost) {
  const int yb = std::min(r.j0 + ghost, r.j1), yt = std::max(yb, r.j1 - ghost);
  const int xl = std::min(r.i0 + ghost, r.i1), xr = std::max(xl, r.i1 - ghost);
  return Range2{xl, xr, yb, yt};
}

inline void split_ranges(Range2 r, int ghost, Range2& inner, Range2 strips[4]) {
  inner = inner_range(r, ghost);
  strips[0] = Range2{r.i0, r.i1, r.j0, inner.j0};
  strips[1] = Range2{r.i0, r.i1, inner.j1, r.j1};
  strips[2] = Range2{r.i0, inner.i0, inner.j0, inner.j1};
  strips[3] = Range2{inner.i1, r.i1, inner.j0, inner.j1};
}

// On the host, row by row in one pass (one parallel region; a row's edge cells are done while the row
// is in cache): a row near the bottom or top is all edge cells, any other row has edge cells at its ends.
template <class Exec, class Inner, class Edge>
  requires(Exec::space == MemorySpace::host)
void for_each_cell_split(const Exec& ex, Range2 r, int ghost, Inner inner, Edge edge) {
  const Range2 core = inner_range(r, ghost);
  for_each_row(ex, r.j0, r.j1, [&](int j) {
    if (j < core.j0 || j >= core.j1) return for_row_cells(r.i0, r.i1, j, edge);
    for_row_cells(r.i0, core.i0, j, edge);
    for_row_cells(core.i0, core.i1, j, inner);
    for_row_cells(core.i1, r.i1, j, edge);
  });
}

// Reduces f(i, j) over r with op. Rows are combined in index order, so the result is deterministic.
template <class V, class F, class Op>
V reduce(const Serial&, Range2 r, F f, Op op) {
  V acc = Op::identity();
  for (int j = r.j0; j < r.j1; ++j) {
    V row = Op::identity();
    for (int i = r.i0; i < r.i1; ++i) row = op(row, V(f(i, j)));
    acc = op(acc, row);
  }
  return acc;
}

// Same association as the Serial version (per-row partials, combined in row order), so Serial and
// OpenMP reductions agree bit for bit whatever the thread count.
template <class V, class F, class Op>
V reduce(const OpenMP&, Range2 r, F f, Op op) {
  if (r.empty()) return Op::identity();
  std::vector<V> rows(static_cast<std::size_t>(r.height()), Op::identity());
#pragma omp parallel for schedule(static)
  for (int j = r.j0; j < r.j1; ++j) {
    V row = Op::identity();
    for (int i = r.i0; i < r.i1; ++i) row = op(row, V(f(i, j)));
    rows[static_cast<std::size_t>(j - r.j0)] = row;
  }
  V acc = Op::identity();
  for (const V& v : rows) acc = op(acc, v);
  return acc;
}

// first(b0, b1) on blocks of rows that split j0 .. j1 - 1, then, once every block has done it,
// second(b0, b1) on each: one block on Serial, one a thread on OpenMP (a wavefront over a block's rows
// leaves the rows at its ends to the second phase). Returns the results combined by op in block order.
template <class V, class First, class Second, class Op>
V reduce_row_blocks(const Serial&, int j0, int j1, First first, Second second, Op op) {
  if (j1 <= j0) return Op::identity();
  const V v = first(j0, j1);
  return op(v, second(j0, j1));
}

template <class V, class First, class Second, class Op>
V reduce_row_blocks(const OpenMP&, int j0, int j1, First first, Second second, Op op) {
  const int n = std::min(openmp_threads(), j1 - j0);
  if (n <= 0) return Op::identity();
  std::vector<V> part(static_cast<std::size_t>(n), Op::identity());
  auto row = [&](int t) { return j0 + int(int64_t(j1 - j0) * t / n); };
#pragma omp parallel for schedule(static)
  for (int t = 0; t < n; ++t) part[t] = first(row(t), row(t + 1));
#pragma omp parallel for schedule(static)
  for (int t = 0; t < n; ++t) part[t] = op(part[t], second(row(t), row(t + 1)));
  V acc = Op::identity();
  for (const V& v : part) acc = op(acc, v);
  return acc;
}

// The largest value of f over r for functors returning values >= 0, NaN counting as +infinity (as
// max_of_cells on the GPU, which has a schedule of its own for it).
template <class T, class Exec, class F>
  requires(Exec::space == MemorySpace::host)
T max_of_cells(const Exec& ex, Range2 r, F f) {
  const T m = reduce<T>(ex, r, [=](int i, int j) {
    const T v = f(i, j);
    return v == v ? v : std::numeric_limits<T>::infinity();
  }, Max<T>{});
  return m > T(0) ? m : T(0);
}

}  // namespace pdex
