#pragma once
// The one pointwise kernel of an explicit Runge-Kutta step, fused with the right-hand side: at a cell it
// evaluates k_s = f(stage argument) (the model's cell functor reads the argument's stencil), stores k_s
// only when a later stage or the update needs it, and writes the next stage argument
// u + sum_m w_m k_m from k_s in registers and the earlier stages at the same cell. In the last stage it
// writes the candidate u + sum_s b_s k_s instead and returns the local error |sum_s e_s k_s| (seed 003
// eqs. 28-29), which the driver reduces. The weights already hold tau. Compared with separate
// right-hand-side and combination passes, a Merson step of mean-curvature flow moves 24 instead of 32
// values per cell, in 5 launches instead of 10.
#include <cstdint>
#include <limits>

#include "pdex/core/launch_hint.hpp"
#include "pdex/core/macros.hpp"
#include "pdex/grid/boundary.hpp"
#include "pdex/grid/field_view.hpp"
#include "pdex/time/rk/tableau.hpp"

namespace pdex {

// Stage fields (all of one layout, so one offset serves all) with their weights; only nonzero weights.
template <class T>
struct StageTerms {
  const T* k[max_stages];
  T w[max_stages];
  int n = 0;
  PDEX_HD T sum(int64_t at) const {
    T s = T(0);
    if constexpr (sizeof(T) == sizeof(double)) {
      // Unrolled over every slot, guarded, rather than a loop to n that indexes the kernel's parameters
      // at run time, which is faster in f64; f32 keeps the loop, as its stage kernels sit at 32 registers
      // and full occupancy, where the unrolled sum costs more than it saves. Same sums either way.
#pragma unroll
      for (int m = 0; m < max_stages; ++m)
        if (m < n) s += w[m] * k[m][at];
    } else {
      for (int m = 0; m < n; ++m) s += w[m] * k[m][at];
    }
    return s;
  }
};

// A limiter maps a new state value of component c to an admissible one (e.g. clamping a density at 0).
template <class T>
struct NoLimit {
  PDEX_HD T limit(int, T x) const { return x; }
};

// Cell: static constexpr int ncomp; PDEX_HD void operator()(int i, int j, T* k) const, k[c] = f_c at the
// cell. The component count is a compile-time constant so that host loops over cells vectorize.
// Optionally PDEX_HD void pair(int i, int j, int64_t o, T* k0, T* k1) const: cells (i, j) and (i, j + 1)
// at once, o the offset of (i, j) in the state's layout, for cells that share loads and work between the
// two; the CUDA executor then gives each thread such a pair (parallel_cuda.cuh). The single cell
// computes its own offset: passing it in as well kept it live across the cell's arithmetic, and the f64
// mean-curvature stage, at its 32 registers, spilled.
// Limit: PDEX_HD T limit(int c, T x) const, applied to the candidate only (stage arguments stay as the
// tableau makes them, so the error estimate sees the unlimited method).
template <class Cell, class T>
concept PairedCell = requires(const Cell& f, int64_t o, T* k) { f.pair(0, 0, o, k, k); };

// A stage's stores, everything but the right-hand side: a stage kernel compiled elsewhere (a text
// model's, compiled at run time) takes these and brings its own. u, k, out and the stage terms share one
// layout: a cell's offset and a component's stride are u's in all of them.
template <class T, class Limit = NoLimit<T>>
struct RkStores {
  FieldView<const T> u;
  FieldView<T> k;    // where this stage's k goes; data == nullptr: not stored
  FieldView<T> out;  // the next stage argument, or the candidate
  FieldBoundary bc;
  StageTerms<T> sum, err;  // the earlier stages' terms
  T w_sum, w_err;          // this stage's weights in sum and err
  Limit lim{};
  bool candidate = false;  // out is the candidate: limit it

  // The stage's stores at cell (i, j) (offset o) from its k in registers, for the first n <= N
  // components (N, a constant, sizes the registers); the cell's error estimate.
  template <bool MayBeEdge, int N>
  PDEX_HD T combine(int i, int j, int64_t o, const T* kv, int n = N) const {
    T v[N];
    const T e = values<N>(o, kv, v, n);
    const bool edge = MayBeEdge && near_boundary(out, i, j);
    for (int c = 0; c < n; ++c) {
      const T x = stored(o, c, kv, v);
      if (edge) push_ghosts(out, bc, c, i, j, x);
    }
    return e;
  }

  // The same at cell (i, j) of plane `plane` of a 3D field, its images pushed within the plane and across z.
  template <int N>
  PDEX_HD T combine_volume(int i, int j, int plane, int64_t o, const T* kv, int n = N) const {
    T v[N];
    const T e = values<N>(o, kv, v, n);
    for (int c = 0; c < n; ++c) push_cell_images(out, bc, c, i, j, plane, stored(o, c, kv, v));
    return e;
  }

 private:
  // The next argument or candidate v of the first n components at offset o, unlimited; the error estimate.
  template <int N>
  PDEX_HD T values(int64_t o, const T* kv, T* v, int n) const {
    T e = T(0);
    // Every load before the first store: the compiler cannot tell the fields apart, so a load after a
    // store would wait for it, and the error's stages would be fetched only after the candidate's.
    for (int c = 0; c < n; ++c) {
      const int64_t at = o + c * u.comp_stride;
      v[c] = u.data[at] + sum.sum(at) + w_sum * kv[c];
      const T ec = err.sum(at) + w_err * kv[c], a = ec < T(0) ? -ec : ec;
      e = a == a ? (a > e ? a : e) : std::numeric_limits<T>::infinity();  // NaN must survive a Max reduction
    }
    return e;
  }
  // Stores k and component c's new value (limited, for the candidate) at offset o; returns the value.
  PDEX_HD T stored(int64_t o, int c, const T* kv, const T* v) const {
    const int64_t at = o + c * u.comp_stride;
    if (k.data) k.data[at] = kv[c];
    const T x = candidate ? lim.limit(c, v[c]) : v[c];
    out.data[at] = x;
    return x;
  }
};

template <class T, class Cell, class Limit = NoLimit<T>>
struct RkStage {
  static constexpr bool cuda_full_occupancy = cuda_full_occupancy_of<Cell>();
  static constexpr int N = Cell::ncomp;
  Cell f;
  RkStores<T, Limit> st;

  template <bool MayBeEdge>
  PDEX_HD T apply(int i, int j) const {
    T kv[N];
    f(i, j, kv);
    return st.template combine<MayBeEdge, N>(i, j, st.u.offset(i, j), kv);
  }
  PDEX_HD T operator()(int i, int j) const { return apply<true>(i, j); }
  // Cell (i, j) of plane k of a 3D field, J its stacked row (offset(i, J) is the cell's offset).
  PDEX_HD T volume_cell(int i, int j, int k, int J) const {
    T kv[N];
    f(i, J, kv);
    return st.template combine_volume<N>(i, j, k, st.u.offset(i, J), kv);
  }
  // Cells (i, j) and (i, j + 1); the larger error estimate.
  PDEX_HD T pair(int i, int j) const
    requires PairedCell<Cell, T>
  {
    const int64_t o = st.u.offset(i, j);
    T k0[N], k1[N];
    f.pair(i, j, o, k0, k1);
    const T e0 = st.template combine<true, N>(i, j, o, k0), e1 = st.template combine<true, N>(i, j + 1, o + st.u.pitch, k1);
    return e1 > e0 ? e1 : e0;  // combine turns NaN into infinity
  }
};

// k = f at the cell, nothing else (a right-hand side alone: benchmarks and tests).
template <class T, class Cell>
struct RhsOnly {
  static constexpr bool cuda_full_occupancy = cuda_full_occupancy_of<Cell>();
  Cell f;
  FieldView<T> k;
  // Forced inline: in OpenMP's outlined row loops GCC called it out of line, a call a cell.
  PDEX_HD PDEX_FORCEINLINE void operator()(int i, int j) const {
    T kv[Cell::ncomp];
    f(i, j, kv);
    store(k.offset(i, j), kv);
  }
  PDEX_HD void pair(int i, int j) const
    requires PairedCell<Cell, T>
  {
    const int64_t o = k.offset(i, j);
    T k0[Cell::ncomp], k1[Cell::ncomp];
    f.pair(i, j, o, k0, k1);
    store(o, k0);
    store(o + k.pitch, k1);
  }

 private:
  PDEX_HD void store(int64_t o, const T* kv) const {
    for (int c = 0; c < Cell::ncomp; ++c) k.data[o + c * k.comp_stride] = kv[c];
  }
};

// A stage's k already in memory, as a cell functor (the host schedule, runge_kutta.hpp).
template <class T, int N>
struct LoadCell {
  static constexpr int ncomp = N;
  static constexpr bool takes_volumes = true;  // it reads the cell's offset only
  FieldView<const T> k;
  PDEX_HD void operator()(int i, int j, T* out) const {
    for (int c = 0; c < N; ++c) out[c] = k(c, i, j);
  }
};

}  // namespace pdex
