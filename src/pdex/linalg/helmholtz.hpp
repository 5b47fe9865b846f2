#pragma once
// The grid operator of every implicit solve here, matrix-free, per component c:
//   (A x)_c = alpha x_c - beta_c d_c(x) lap x_c           (five points), or with a tensor M
//   (A x)_c = alpha x_c - beta_c div(d_c(x) M(x) grad x_c) (nine points, conservative: div_tensor)
// Poisson -lap u = f is alpha = 0, beta = 1; a theta step (seed 000, eqs. 13-14) is alpha = 1,
// beta_c = theta dt D_c. d_c is a per-cell diffusivity multiplier (a field of the state's layout) or 1.
// Boundary values enter through x's ghosts (boundary.hpp), so A is affine for a Dirichlet value b != 0;
// solvers apply it with the homogeneous conditions to corrections and search directions.
#include <cstdint>
#include <type_traits>

#include "pdex/core/macros.hpp"
#include "pdex/grid/boundary.hpp"
#include "pdex/grid/field_view.hpp"
#include "pdex/grid/grid.hpp"
#include "pdex/grid/stencil.hpp"

namespace pdex {

constexpr int max_solver_components = 2;

// d_c at a cell: the multiplier field's value, or 1 where there is none (div_tensor's `d`).
template <class T>
struct CellMultiplier {
  const T* d;
  PDEX_HD T at(int64_t o) const { return d ? d[o] : T(1); }
};

// Tensor is a compile-time choice, as in ArdRhs: a kernel carries only its own stencil (compiled into
// every five-point kernel, the nine-point path would raise their registers and cut their occupancy).
template <class T, bool Tensor = false>
struct Helmholtz {
  T alpha = T(0);
  T beta[max_solver_components] = {T(1), T(1)};
  const T* d[max_solver_components] = {nullptr, nullptr};
  Spacing<T> h{};
  Extents2 extents{};
  // How a side's ghost depends on the cell beside it (ghost = s x + value): +1 Neumann, -1 Dirichlet,
  // Robin's factor, 0 periodic (the ghost is another cell). It corrects the diagonal of the cells along
  // that side.
  T self[4][max_solver_components] = {};
  // 1 / diag at cells away from the sides, for components without a per-cell coefficient (set by
  // refreshed(): a division per point update is what bounded the sweeps on a GPU).
  T inner_inv[max_solver_components] = {};
  // The tensor M of anisotropic diffusion (Tensor only): components xx, xy, yy at m + k m_stride, a field
  // of the state's layout whose ghosts hold even images (odd for xy: no flux crosses a zero-flux side), as
  // are d's. Shared by the components. The GPU's tile and resident sweeps take five points only; with a
  // tensor the solvers take their generic kernels (LinearSolver, Multigrid).
  const T* m = nullptr;
  int64_t m_stride = 0;

  PDEX_HD static constexpr bool tensor() { return Tensor; }
  // A 2D grid's operator (Helmholtz3 is a 3D grid's).
  PDEX_HD static constexpr bool volume() { return false; }

  PDEX_HD T coef(int c, int64_t o) const { return d[c] ? beta[c] * d[c][o] : beta[c]; }

  PDEX_HD T apply(const FieldView<const T>& x, int i, int j, int c) const {
    const int64_t o = x.offset(i, j);
    const T* p = x.comp(c);
    if constexpr (Tensor)
      return alpha * p[o] - beta[c] * div_tensor(p, o, CellMultiplier<T>{d[c]}, m, m + m_stride, m + 2 * m_stride, h);
    else return alpha * p[o] - coef(c, o) * lap(p, o, h);
  }

  // The same from given values of the cell (offset o) and its west, east, south and north neighbours.
  PDEX_HD T apply5(int c, int64_t o, T x, T w, T e, T s, T n) const { return apply5_with(coef(c, o), x, w, e, s, n); }
  // The same with the coefficient given: a kernel that knows there is no per-cell one passes beta[c].
  PDEX_HD T apply5_with(T coef, T x, T w, T e, T s, T n) const { return alpha * x - coef * lap5(x, w, e, s, n, h); }

  // The coefficient of x(i, j) in (A x)(i, j), boundary images included: exact Jacobi and Gauss-Seidel.
  PDEX_HD T diag(int i, int j, int c, int64_t o) const {
    if constexpr (Tensor) return tensor_diag(extents.edges(i, j), c, o);
    else return diag_at(extents.edges(i, j), c, coef(c, o));
  }
  // The diagonal of a cell touching the sides `e`, whose coefficient is `coef`.
  PDEX_HD T diag_at(Edges2 e, int c, T coef) const {
    T cx = T(2), cy = T(2);
    if (e.west) cx -= self[left][c];
    if (e.east) cx -= self[right][c];
    if (e.south) cy -= self[bottom][c];
    if (e.north) cy -= self[top][c];
    return alpha + coef * (cx * h.idx2 + cy * h.idy2);
  }

  // The same with a tensor. A ghost beside the cell is an image of it (ghost = s x + value), so its share of
  // the fluxes falls on the diagonal: in the normal fluxes as in diag_at, and in the cross fluxes of the
  // two faces across it. (A corner ghost is the cell's own image only where both sides are Neumann or
  // Dirichlet, where the faces across it carry no cross flux: M's odd images.)
  PDEX_HD T tensor_diag(Edges2 e, int c, int64_t o) const
    requires(Tensor)
  {
    const TensorFaces<T> k = tensor_faces(o, h.pitch, CellMultiplier<T>{d[c]}, m, m + m_stride, m + 2 * m_stride);
    const T sw = e.west ? self[left][c] : T(0), se = e.east ? self[right][c] : T(0);
    const T ss = e.south ? self[bottom][c] : T(0), sn = e.north ? self[top][c] : T(0);
    const T normal = (k.xx_e * (T(1) - se) + k.xx_w * (T(1) - sw)) * h.idx2 +
                     (k.yy_n * (T(1) - sn) + k.yy_s * (T(1) - ss)) * h.idy2;
    const T cross = T(0.25) * h.idx * h.idy *
                    (sw * (k.xy_s - k.xy_n) + se * (k.xy_n - k.xy_s) + ss * (k.xy_w - k.xy_e) + sn * (k.xy_e - k.xy_w));
    return alpha + beta[c] * (normal - cross);
  }

  // 1 / diag(i, j, c, o); needs inner_inv to match the coefficients (refreshed()).
  PDEX_HD T inv_diag(int i, int j, int c, int64_t o) const {
    if (!Tensor && !d[c] && !extents.edges(i, j).any()) return inner_inv[c];
    return T(1) / diag(i, j, c, o);
  }

  // Component c alone, as component 0: a kernel looping over components at run time then indexes the
  // coefficient arrays with constants, which keeps them in registers.
  PDEX_HD Helmholtz component(int c) const {
    Helmholtz op = *this;
    op.beta[0] = beta[c];
    op.d[0] = d[c];
    op.inner_inv[0] = inner_inv[c];
    for (int s = 0; s < 4; ++s) op.self[s][0] = self[s][c];
    return op;
  }

  // This operator with inner_inv worked out for its present coefficients and spacing; the sweeps call
  // it at every launch, so that changing a coefficient or the spacing cannot leave it stale.
  Helmholtz refreshed() const {
    Helmholtz op = *this;
    for (int c = 0; c < max_solver_components; ++c) {
      const T dg = alpha + beta[c] * (T(2) * h.idx2 + T(2) * h.idy2);
      op.inner_inv[c] = dg != T(0) ? T(1) / dg : T(0);
    }
    return op;
  }
};

// op.self from the conditions `bc`: the factor of a side's ghost on its image (ghost = self x + value), for
// each side the operator has (four; six for helmholtz3.hpp's).
template <class Op>
void set_sides(Op& op, const FieldBoundary& bc, int ncomp) {
  using T = std::remove_reference_t<decltype(op.self[0][0])>;
  constexpr int sides = int(sizeof(op.self) / sizeof(op.self[0]));
  for (int c = 0; c < ncomp; ++c)
    for (int s = 0; s < sides; ++s) {
      const SideBc& b = bc.side[s][c];
      op.self[s][c] = b.kind == BcKind::periodic ? T(0) : detail::affine_image<T>(b, 0).a;
    }
}

// The operator on a grid with conditions `bc` (only their kinds and ghost factors matter here); a Tensor
// one still needs its m.
template <class T, bool Tensor = false>
Helmholtz<T, Tensor> make_helmholtz(const Grid2& g, int64_t pitch, double alpha, const double* beta, int ncomp,
                                    const FieldBoundary& bc) {
  Helmholtz<T, Tensor> op;
  op.alpha = T(alpha);
  op.h = Spacing<T>::make(g.dx, g.dy, pitch);
  op.extents = g.extents();
  for (int c = 0; c < ncomp; ++c) op.beta[c] = T(beta[c]);
  set_sides(op, bc, ncomp);
  return op;
}

// The same conditions with every Dirichlet value 0: the conditions a correction or a search direction obeys.
inline FieldBoundary homogeneous(FieldBoundary bc) {
  for (auto& side : bc.side)
    for (auto& s : side) s.value = 0.0;
  return bc;
}

// True when A has constants in its null space for component c: no identity part, and no Dirichlet side
// or Robin side with a u term (a > 0: its ghost factor is not 1).
inline bool has_constant_null_space(double alpha, const FieldBoundary& bc, int c) {
  if (alpha != 0.0) return false;
  for (const auto& side : bc.side)
    if (side[c].kind == BcKind::dirichlet || (side[c].kind == BcKind::robin && side[c].scale != 1.0)) return false;
  return true;
}

}  // namespace pdex
