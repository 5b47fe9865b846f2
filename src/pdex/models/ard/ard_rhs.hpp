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
template <class T, class Reaction, Advection Adv = Advection::none, bool Tensor = false>
struct ArdRhs {
  using reaction_type = Reaction;
  static constexpr int ncomp = 2;
  Reaction reaction;
  Param<T> Du, Dv;
  Param<T> ax, ay;
  const T* m = nullptr;  // tensor M (Tensor only): components xx, xy, yy at m + c * m_stride
  int64_t m_stride = 0;
  T floor = T(0);        // the clamping bound: 0, or the lowest value when clamping is off
  Spacing<T> h{};

  PDEX_HD T diffusion(const T* p, int64_t o, const Param<T>& d) const {
    if constexpr (Tensor) return div_tensor(p, o, d, m, m + m_stride, m + 2 * m_stride, h);
    else return d.at(o) * lap(p, o, h);
  }

  PDEX_HD T transport(const T* p, int64_t o) const {
    if constexpr (Adv == Advection::none) return T(0);
    else if constexpr (Adv == Advection::upwind) return advect_upwind(p, o, ax.at(o), ay.at(o), h);
    else return advect_centered(p, o, ax.at(o), ay.at(o), h);
  }

  PDEX_HD void operator()(FieldView<const T> s, int i, int j, T r[ncomp]) const {
    const int64_t o = s.offset(i, j);
    const T* u = s.comp(0);
    const T* v = s.comp(1);
    T fu, fv;
    reaction(u[o], v[o], o, fu, fv);
    r[0] = fu + diffusion(u, o, Du) - transport(u, o);  // eq. (5)
    r[1] = fv + diffusion(v, o, Dv) - transport(v, o);  // eq. (6)
  }

  // Both species are kept non-negative, as the seed does (Sec. 3.1.1 and its Appendix).
  PDEX_HD T limit(int, T x) const { return x < floor ? floor : x; }
};

}  // namespace pdex
