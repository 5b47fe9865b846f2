#pragma once
// The right-hand side of the two-species advection-reaction-diffusion system, seed 000 eqs. (5)-(6):
//   u_t = -(a . grad) u + f(u, v) + div(sigma_u grad u)
//   v_t = -(a . grad) v + g(u, v) + div(sigma_v grad v)
// with sigma = D I (isotropic, eq. 7) or sigma = D M for a symmetric tensor field M (anisotropic).
#include <cstdint>

#include "pdex/core/macros.hpp"
#include "pdex/grid/field_view.hpp"
#include "pdex/grid/stencil.hpp"
#include "pdex/models/ard/param.hpp"

namespace pdex {

enum class Advection : int { none = 0, centered = 1, upwind = 2 };

// Adv and Tensor are fixed at compile time: each kernel carries only the terms it evaluates.
template <class T, class Reaction, Advection Adv = Advection::none, bool Tensor = false, class P = Param<T>>
struct ArdRhs {
  using reaction_type = Reaction;
  using param_type = P;
  static constexpr int ncomp = 2;
  static constexpr bool tensor = Tensor;
  Reaction reaction;
  P Du, Dv;
  P ax, ay;
  const T* m = nullptr;  // tensor M (Tensor only): components xx, xy, yy at m + c * m_stride
  int64_t m_stride = 0;
  T floor = T(0);        // the clamping bound: 0, or the lowest value when clamping is off
  Spacing<T> h{};

  // Stencils read the state around offset `so` with spacing data `sh`; parameters are read at `po`.
  // The two differ only when the state is a tile copied elsewhere (the temporally blocked CUDA schedule).
  PDEX_HD T diffusion(const T* p, int64_t so, const Spacing<T>& sh, const P& d, int64_t po) const {
    if constexpr (Tensor) return div_tensor(p, so, d, m, m + m_stride, m + 2 * m_stride, sh);  // so == po
    else return d.at(po) * lap(p, so, sh);
  }

  PDEX_HD T transport(const T* p, int64_t so, const Spacing<T>& sh, int64_t po) const {
    if constexpr (Adv == Advection::none) return T(0);
    else if constexpr (Adv == Advection::upwind) return advect_upwind(p, so, ax.at(po), ay.at(po), sh);
    else return advect_centered(p, so, ax.at(po), ay.at(po), sh);
  }

  PDEX_HD void eval(const T* u, const T* v, int64_t so, const Spacing<T>& sh, int64_t po, T r[ncomp]) const {
    T fu, fv;
    reaction(u[so], v[so], po, fu, fv);
    r[0] = fu + diffusion(u, so, sh, Du, po) - transport(u, so, sh, po);  // eq. (5)
    r[1] = fv + diffusion(v, so, sh, Dv, po) - transport(v, so, sh, po);  // eq. (6)
  }

  PDEX_HD void operator()(FieldView<const T> s, int i, int j, T r[ncomp]) const {
    const int64_t o = s.offset(i, j);
    eval(s.comp(0), s.comp(1), o, h, o, r);
  }

  // Both species are kept non-negative, as the seed does (Sec. 3.1.1 and its Appendix).
  PDEX_HD T limit(int, T x) const { return x < floor ? floor : x; }
};

}  // namespace pdex
