#pragma once
// The grid operator of helmholtz.hpp on a 3D grid, per component c: seven points,
//   (A x)_c = alpha x_c - beta_c d_c(x) (lap x_c + d2x_c/dz2),
// or with a tensor M of six entries (xx, xy, yy, xz, yz, zz: the explicit scheme's order) nineteen,
//   (A x)_c = alpha x_c - beta_c div(d_c(x) M(x) grad x_c)   (div_tensor + div_tensor_z, conservative).
// Its kernels take a cell as (i, r), r a row of interior_rows(): row r % ny of plane r / ny, so that the
// vector operations of grid_ops.hpp and the Krylov methods serve both operators.
#include <cstdint>
#include <type_traits>

#include "pdex/core/macros.hpp"
#include "pdex/grid/boundary.hpp"
#include "pdex/grid/field_view.hpp"
#include "pdex/grid/grid.hpp"
#include "pdex/grid/stencil.hpp"
#include "pdex/linalg/helmholtz.hpp"

namespace pdex {

// x as the operator's stencil sees it when x is 1 at cell o and 0 at every other cell: 1 at o, a side's
// ghost factor at o's image across that side (ghost = s x + value), the product of the factors at an image
// across two or three sides, 0 elsewhere. The operator applied to it is its diagonal, boundary images
// included, whatever its stencil.
template <class T>
struct ImageProbe {
  int64_t o, pitch, plane;
  T f[3][3];  // per axis, the factor at the offsets -1, 0, +1

  PDEX_HD T operator[](int64_t k) const {
    int64_t d = k - o;  // a stencil's offsets are within one cell along each axis
    const int dk = d > plane / 2 ? 1 : d < -plane / 2 ? -1 : 0;
    d -= dk * plane;
    const int dj = d > pitch / 2 ? 1 : d < -pitch / 2 ? -1 : 0;
    const int di = int(d - dj * pitch);
    return f[0][di + 1] * f[1][dj + 1] * f[2][dk + 1];
  }
};

// Tensor: a compile-time choice, as for Helmholtz.
template <class T, bool Tensor = false>
struct Helmholtz3 {
  T alpha = T(0);
  T beta[max_solver_components] = {T(1), T(1)};
  const T* d[max_solver_components] = {nullptr, nullptr};
  Spacing<T> h{};  // with plane and idz2
  Extents2 extents{};
  // The factor of each side's ghost on its image (helmholtz.hpp's self), the six sides.
  T self[side_count][max_solver_components] = {};
  // The tensor M (Tensor only): entry q at m + q m_stride, a field of the state's layout with ghosts
  // (tensor_boundary's images), shared by the components.
  const T* m = nullptr;
  int64_t m_stride = 0;
  // The diagonal (Tensor only) where it is kept per cell (keep_diagonal, relaxation3.hpp): component c's at
  // dg + c dg_stride, a field of the state's layout; null: the probe works it out.
  const T* dg = nullptr;
  int64_t dg_stride = 0;

  PDEX_HD static constexpr bool tensor() { return Tensor; }
  PDEX_HD static constexpr bool volume() { return true; }

  PDEX_HD T coef(int c, int64_t o) const { return d[c] ? beta[c] * d[c][o] : beta[c]; }

  // p: component c's values, or an ImageProbe.
  template <class P>
  PDEX_HD T apply_at(const P& p, int64_t o, int c) const {
    if constexpr (Tensor) {
      const CellMultiplier<T> dc{d[c]};
      return alpha * p[o] - beta[c] * (div_tensor(p, o, dc, m, m + m_stride, m + 2 * m_stride, h) +
                                       div_tensor_z(p, o, dc, m, m_stride, h));
    } else {
      return alpha * p[o] - coef(c, o) * (lap(p, o, h) + lap_z(p, o, h));
    }
  }
  PDEX_HD T apply(const FieldView<const T>& x, int i, int r, int c) const {
    return apply_at(x.comp(c), x.row_offset(i, r), c);
  }

  // The coefficient of x at cell (i, j, k) in (A x) there, boundary images included.
  PDEX_HD T diag_at(int i, int j, int k, int c, int64_t o) const {
    const bool lo[3] = {i == 0, j == 0, k == 0};
    const bool hi[3] = {i == extents.nx - 1, j == extents.ny - 1, k == extents.nz - 1};
    if constexpr (Tensor) {
      if (dg) return dg[c * dg_stride + o];
      ImageProbe<T> probe{o, h.pitch, h.plane, {}};
      for (int a = 0; a < 3; ++a) {
        probe.f[a][0] = lo[a] ? self[2 * a][c] : T(0);
        probe.f[a][1] = T(1);
        probe.f[a][2] = hi[a] ? self[2 * a + 1][c] : T(0);
      }
      return apply_at(probe, o, c);
    } else {
      T n[3];
      for (int a = 0; a < 3; ++a) n[a] = T(2) - (lo[a] ? self[2 * a][c] : T(0)) - (hi[a] ? self[2 * a + 1][c] : T(0));
      return alpha + coef(c, o) * (n[0] * h.idx2 + n[1] * h.idy2 + n[2] * h.idz2);
    }
  }
  PDEX_HD T diag(int i, int r, int c, int64_t o) const {
    return diag_at(i, r % extents.ny, r / extents.ny, c, o);
  }
};

// The operator on 3D grid g for fields laid out as `layout`, with conditions `bc` (their kinds and ghost
// factors); a Tensor one still needs its m.
template <class T, bool Tensor = false, class U>
Helmholtz3<T, Tensor> make_helmholtz3(const Grid2& g, const FieldView<U>& layout, double alpha, const double* beta,
                                      int ncomp, const FieldBoundary& bc) {
  Helmholtz3<T, Tensor> op;
  op.alpha = T(alpha);
  op.h = Spacing<T>::make(g.dx, g.dy, layout.pitch, g.dz, layout.plane);
  op.extents = g.extents();
  for (int c = 0; c < ncomp; ++c) op.beta[c] = T(beta[c]);
  set_sides(op, bc, ncomp);
  return op;
}

// The operator Op (Helmholtz or Helmholtz3, with or without a tensor) of grid g for fields laid out as
// `layout`.
template <class Op, class U>
Op make_grid_operator(const Grid2& g, const FieldView<U>& layout, double alpha, const double* beta, int ncomp,
                      const FieldBoundary& bc) {
  using T = std::remove_const_t<U>;
  if constexpr (Op::volume()) return make_helmholtz3<T, Op::tensor()>(g, layout, alpha, beta, ncomp, bc);
  else return make_helmholtz<T, Op::tensor()>(g, layout.pitch, alpha, beta, ncomp, bc);
}

// f(Helmholtz<T>{}) on a 2D grid, f(Helmholtz3<T>{}) on a 3D one: code templated on the operator picks
// its instance by the grid.
template <class T, class F>
decltype(auto) with_grid_operator(const Grid2& g, F&& f) {
  if (g.is_3d()) return f(Helmholtz3<T>{});
  return f(Helmholtz<T>{});
}

}  // namespace pdex
