#pragma once
// The grid operator of helmholtz.hpp on a 3D grid, seven points, per component c:
//   (A x)_c = alpha x_c - beta_c d_c(x) (lap x_c + d2x_c/dz2)
// Its kernels take a cell as (i, r), r a row of interior_rows(): row r % ny of plane r / ny, so that the
// vector operations of grid_ops.hpp and the Krylov methods serve both operators. No tensor: anisotropic
// diffusion in 3D is refused before a run starts.
#include <cstdint>
#include <type_traits>

#include "pdex/core/macros.hpp"
#include "pdex/grid/boundary.hpp"
#include "pdex/grid/field_view.hpp"
#include "pdex/grid/grid.hpp"
#include "pdex/grid/stencil.hpp"
#include "pdex/linalg/helmholtz.hpp"

namespace pdex {

template <class T>
struct Helmholtz3 {
  T alpha = T(0);
  T beta[max_solver_components] = {T(1), T(1)};
  const T* d[max_solver_components] = {nullptr, nullptr};
  Spacing<T> h{};  // with plane and idz2
  Extents2 extents{};
  // The factor of each side's ghost on its image (helmholtz.hpp's self), the six sides.
  T self[side_count][max_solver_components] = {};

  PDEX_HD static constexpr bool tensor() { return false; }
  PDEX_HD static constexpr bool volume() { return true; }

  PDEX_HD T coef(int c, int64_t o) const { return d[c] ? beta[c] * d[c][o] : beta[c]; }

  PDEX_HD T apply_at(const T* p, int64_t o, int c) const {
    return alpha * p[o] - coef(c, o) * (lap(p, o, h) + lap_z(p, o, h));
  }
  PDEX_HD T apply(const FieldView<const T>& x, int i, int r, int c) const {
    return apply_at(x.comp(c), x.row_offset(i, r), c);
  }

  // The coefficient of x at cell (i, j, k) in (A x) there, boundary images included.
  PDEX_HD T diag_at(int i, int j, int k, int c, int64_t o) const {
    T cx = T(2), cy = T(2), cz = T(2);
    if (i == 0) cx -= self[left][c];
    if (i == extents.nx - 1) cx -= self[right][c];
    if (j == 0) cy -= self[bottom][c];
    if (j == extents.ny - 1) cy -= self[top][c];
    if (k == 0) cz -= self[front][c];
    if (k == extents.nz - 1) cz -= self[back][c];
    return alpha + coef(c, o) * (cx * h.idx2 + cy * h.idy2 + cz * h.idz2);
  }
  PDEX_HD T diag(int i, int r, int c, int64_t o) const {
    return diag_at(i, r % extents.ny, r / extents.ny, c, o);
  }
};

// The operator on 3D grid g for fields laid out as `layout`, with conditions `bc` (their kinds and ghost
// factors).
template <class T, class U>
Helmholtz3<T> make_helmholtz3(const Grid2& g, const FieldView<U>& layout, double alpha, const double* beta,
                              int ncomp, const FieldBoundary& bc) {
  Helmholtz3<T> op;
  op.alpha = T(alpha);
  op.h = Spacing<T>::make(g.dx, g.dy, layout.pitch, g.dz, layout.plane);
  op.extents = g.extents();
  for (int c = 0; c < ncomp; ++c) op.beta[c] = T(beta[c]);
  set_sides(op, bc, ncomp);
  return op;
}

// The operator of grid g for fields laid out as `layout`: Helmholtz<T> (Op) on a 2D grid, Helmholtz3<T>
// on a 3D one.
template <class Op, class U>
Op make_grid_operator(const Grid2& g, const FieldView<U>& layout, double alpha, const double* beta, int ncomp,
                      const FieldBoundary& bc) {
  using T = std::remove_const_t<U>;
  if constexpr (Op::volume()) return make_helmholtz3<T>(g, layout, alpha, beta, ncomp, bc);
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
