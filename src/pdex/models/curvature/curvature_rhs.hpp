#pragma once
// The right-hand sides of the semi-discrete schemes of seed 003 (Remark 3.3: du/dt = f(t, u)), as
// Systems for the Runge-Kutta driver: mean-curvature flow (Scheme 3.1, eq. 17) as a cell functor,
// Willmore flow (Scheme 3.2) as a pass for w (eq. 22, with its ghosts) and a cell functor for eq. 21. The seed recomputes the face Qs
// in the second pass rather than storing them (its Section 4.3), and so do we: it moves less memory.
#include <cstdint>
#include <type_traits>

#include "pdex/core/parallel.hpp"
#include "pdex/grid/boundary.hpp"
#include "pdex/grid/field_view.hpp"
#include "pdex/grid/grid.hpp"
#include "pdex/grid/halo.hpp"
#include "pdex/models/curvature/cfvm.hpp"
#include "pdex/models/curvature/manufactured.hpp"

namespace pdex {

enum class Flow { mean_curvature, willmore };

// Forcing F(t, x, y) at a cell: none (the seed's Schemes 3.1-3.2), or the manufactured solution's.
template <class T>
struct NoForcing {
  PDEX_HD T operator()(T, int, int) const { return T(0); }
};

template <class T, Flow F>
struct ManufacturedForcing {
  Manufactured<T> m;
  T x0, y0, dx, dy;  // cell (i, j) is centred at (x0 + (i + 1/2) dx, y0 + (j + 1/2) dy)
  PDEX_HD T operator()(T t, int i, int j) const {
    const T x = x0 + (T(i) + T(0.5)) * dx, y = y0 + (T(j) + T(0.5)) * dy;
    if constexpr (F == Flow::mean_curvature) return m.mean_curvature_forcing(t, x, y);
    else return m.willmore_forcing(t, x, y);
  }
};

// w = Q H (eq. 22); edge cells push w's ghosts (w = 0 on Dirichlet sides, eq. 13; mirrored on Neumann
// sides, eqs. 24-25).
template <class T>
struct CurvatureWCell {
  FieldView<const T> phi;
  FieldView<T> w;
  CellFaces<T> faces;
  FieldBoundary w_bc;
  template <bool MayBeEdge>
  PDEX_HD void apply(int i, int j) const {
    const int64_t o = phi.offset(i, j);
    const T v = q_times_mean_curvature(faces.patch(phi.data, o), faces);
    w.data[o] = v;
    if (MayBeEdge && near_boundary(w, i, j)) push_ghosts(w, w_bc, 0, i, j, v);
  }
};

// f(t, phi) at a cell: eq. 17, or eq. 21 (w computed before, with its ghosts), plus the forcing.
template <class T, class Forcing, Flow F>
struct CurvatureCell {
  static constexpr int ncomp = 1;
  // Mean-curvature cells without a forcing term fit in 32 registers without spilling, and their f64
  // right-hand side, bound by latency, gains from full occupancy (f32 sits at 32 anyway). Willmore cells
  // need about 64 (capped at 32 they would spill heavily); a manufactured forcing would spill.
  static constexpr bool cuda_full_occupancy = F == Flow::mean_curvature && std::is_empty_v<Forcing>;
  FieldView<const T> phi, w;  // w: Willmore flow only
  CellFaces<T> faces;
  Forcing force;
  T t;
  PDEX_HD void operator()(int i, int j, T* k) const {
    const int64_t o = phi.offset(i, j);
    const Patch<T> p = faces.patch(phi.data, o);
    if constexpr (F == Flow::mean_curvature) k[0] = q_times_mean_curvature(p, faces) + force(t, i, j);
    else k[0] = willmore_operator(p, faces.patch(w.data, o), faces) + force(t, i, j);
  }
  // Cells (i, j) and (i, j + 1) from shared loads and their shared face (rk_kernels.hpp). Mean curvature
  // in f32 only: in f64 the pair's 12 values take 24 of the 32 registers of full occupancy, and its
  // kernels would spill; a Willmore cell already needs about 64 registers alone.
  PDEX_HD void pair(int i, int j, int64_t o, T* k0, T* k1) const
    requires(F == Flow::mean_curvature && sizeof(T) == sizeof(float))
  {
    T k[2];
    q_times_mean_curvature_pair(phi.data, o, faces, k);
    k0[0] = k[0] + force(t, i, j);
    k1[0] = k[1] + force(t, i, j + 1);
  }
};

template <class T, class Forcing>
struct MeanCurvatureSystem {
  CellFaces<T> faces;
  Forcing force;
  template <class Exec>
  void prepare(const Exec&, double, FieldView<const T>) const {}
  CurvatureCell<T, Forcing, Flow::mean_curvature> cell(double t, FieldView<const T> phi) const {
    return {phi, FieldView<const T>{}, faces, force, T(t)};
  }
};

template <class Exec, class T>
void compute_w(const Exec& ex, const CurvatureWCell<T>& cell) {
  for_each_cell_split(
      ex, cell.w.interior(), cell.w.ghost, [=] PDEX_HD(int i, int j) { cell.template apply<false>(i, j); },
      [=] PDEX_HD(int i, int j) { cell.template apply<true>(i, j); });
}

// w is scratch owned by the engine (a view here, so that the System stays copyable). On a block of a
// run over MPI ranks, w's shared ghosts come from `halo` before eq. 21 reads them.
template <class T, class Forcing>
struct WillmoreSystem {
  CellFaces<T> faces;
  Forcing force;
  FieldView<T> w;
  FieldBoundary w_bc;
  HaloExchange* halo = nullptr;
  template <class Exec>
  void prepare(const Exec& ex, double, FieldView<const T> phi) const {
    compute_w(ex, CurvatureWCell<T>{phi, w, faces, w_bc});
    exchange_halo(halo, w, w_bc, Exec::space);
  }
  CurvatureCell<T, Forcing, Flow::willmore> cell(double t, FieldView<const T> phi) const {
    return {phi, as_const(w), faces, force, T(t)};
  }
};

// Floating-point operations per cell of one right-hand side as seed 003 counts them (Section 4.3):
// 85 for eq. 17; 85 for w (eq. 22) plus 218 for eq. 21.
constexpr double seed_flops_per_cell(Flow f) { return f == Flow::mean_curvature ? 85.0 : 85.0 + 218.0; }

// Field values a right-hand side reads or writes per cell at least, besides its result: phi read
// (eq. 17); phi read and w written, then phi and w read (eqs. 21-22).
constexpr double rhs_values_per_cell(Flow f) { return f == Flow::mean_curvature ? 1.0 : 4.0; }

}  // namespace pdex
