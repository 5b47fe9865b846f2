#pragma once
// The right-hand side of the advection-reaction-diffusion system, seed 000 eqs. (5)-(6), for the
// reaction's ncomp species (two in the seed: u, v):
//   u_c,t = -(a . grad) u_c + f_c(u) + div(sigma_c grad u_c)
// with sigma_c = D_c I (isotropic, eq. 7) or sigma_c = D_c M for a symmetric tensor field M (anisotropic).
#include <cstdint>

#include "pdex/core/macros.hpp"
#include "pdex/grid/field_view.hpp"
#include "pdex/grid/stencil.hpp"
#include "pdex/models/ard/param.hpp"

namespace pdex {

// `runtime` is a kernel's choice, never a run's: the kernel reads the run's scheme (ArdRhs::advection).
enum class Advection : int { none = 0, centered = 1, upwind = 2, runtime = 3 };

// Every species is kept non-negative, as the seed does (Sec. 3.1.1 and its Appendix): clamped from below
// at 0, or at the lowest value where the model does not clamp. A type apart from the right-hand side, so
// that the kernels that only clamp (the theta scheme's, the method of lines' host combinations) are
// compiled once for every species count rather than once for each model.
template <class T, int N = 2>
struct ClampBelow {
  static constexpr int ncomp = N;
  T floor = T(0);
  PDEX_HD T limit(int, T x) const { return x < floor ? floor : x; }
};

// Adv and Tensor are fixed at compile time: each kernel carries only the terms it evaluates. With Adv
// runtime the scheme is `advection`'s, a branch uniform across the grid.
template <class T, class Reaction, Advection Adv = Advection::none, bool Tensor = false, class P = Param<T>>
struct ArdRhs {
  using value_type = T;
  using reaction_type = Reaction;
  using param_type = P;
  static constexpr int ncomp = Reaction::ncomp;
  static constexpr bool tensor = Tensor;
  Reaction reaction;
  P D[ncomp];  // diffusivities, one per species
  P ax, ay, az;               // the velocity; az on 3D grids only (ArdRhs3D)
  Advection advection = Adv;  // the scheme, where Adv is Advection::runtime
  const T* m = nullptr;  // tensor M (Tensor only): components xx, xy, yy (xz, yz, zz in 3D) at m + c * m_stride
  int64_t m_stride = 0;
  ClampBelow<T, ncomp> clamp{};
  Spacing<T> h{};

  // Stencils read the state around offset `so` with spacing data `sh`; parameters are read at `po`.
  // Forced inline (with operator() and eval_stars): in some host loops (OpenMP's outlined rows, the
  // Runge-Kutta stages) GCC called it out of line, a call a cell and no vectors.
  // The two differ only when the state is a tile copied elsewhere (the temporally blocked CUDA schedule).
  // `comp(c)` gives species c's values.
  template <class Comps>
  PDEX_HD PDEX_FORCEINLINE void eval(const Comps& comp, int64_t so, const Spacing<T>& sh, int64_t po, T r[ncomp]) const {
    if constexpr (Tensor) {  // so == po
      T x[ncomp], f[ncomp];
      for (int c = 0; c < ncomp; ++c) x[c] = comp(c)[so];
      reaction(x, po, f);
      for (int c = 0; c < ncomp; ++c)
        r[c] = f[c] + diffusion(comp(c), so, D[c], sh, po) - transport(star_at(comp(c), so, sh.pitch), sh, po);
    } else {
      Star<T> s[ncomp];
      for (int c = 0; c < ncomp; ++c) s[c] = star_at(comp(c), so, sh.pitch);
      eval_stars(s, sh, po, r);
    }
  }

  // Isotropic diffusion needs only a cell and its four neighbours, which a kernel may hold in registers.
  PDEX_HD PDEX_FORCEINLINE void eval_stars(const Star<T> (&s)[ncomp], const Spacing<T>& sh, int64_t po, T r[ncomp]) const
    requires(!Tensor)
  {
    T x[ncomp], f[ncomp];
    for (int c = 0; c < ncomp; ++c) x[c] = s[c].c;
    reaction(x, po, f);
    for (int c = 0; c < ncomp; ++c) r[c] = f[c] + D[c].at(po) * lap(s[c], sh) - transport(s[c], sh, po);  // eqs. (5)-(6)
  }
  // The two-species schedules of CUDA (tiles, strips) hold u's and v's stars apart.
  PDEX_HD void eval_star(const Star<T>& u, const Star<T>& v, const Spacing<T>& sh, int64_t po, T r[ncomp]) const
    requires(!Tensor && ncomp == 2)
  {
    const Star<T> s[2] = {u, v};
    eval_stars(s, sh, po, r);
  }

  // This right-hand side with every parameter read once, at cell offset po: a kernel that updates the
  // same cell many times (the temporally blocked CUDA schedule) keeps the values in registers instead
  // of reading and selecting them at every update.
  PDEX_HD auto at(int64_t po) const
    requires(!Tensor)
  {
    const auto freeze = [po](const P& p) { return ConstParam<T>(p.at(po)); };
    ArdRhs<T, decltype(reaction.map(freeze)), Adv, false, ConstParam<T>> r;
    r.reaction = reaction.map(freeze);
    for (int c = 0; c < ncomp; ++c) r.D[c] = freeze(D[c]);
    r.ax = freeze(ax);
    r.ay = freeze(ay);
    r.az = freeze(az);
    r.advection = advection;
    r.clamp = clamp;
    r.h = h;
    return r;
  }

  // div(sigma grad p) for a species of diffusivity D: D lap p (eq. 7), or div(D M grad p) with the tensor
  // (the theta scheme's implicit part is this term, helmholtz.hpp).
  PDEX_HD T diffusion(const T* p, int64_t so, const P& d, const Spacing<T>& sh, int64_t po) const {
    if constexpr (Tensor) return div_tensor(p, so, d, m, m + m_stride, m + 2 * m_stride, sh);  // so == po
    else return d.at(po) * lap(p, so, sh);
  }

  PDEX_HD Advection scheme() const { return Adv == Advection::runtime ? advection : Adv; }

  PDEX_HD T transport(const Star<T>& p, const Spacing<T>& sh, int64_t po) const {
    const Advection a = scheme();
    if (a == Advection::none) return T(0);
    if (a == Advection::upwind) return advect_upwind(p, ax.at(po), ay.at(po), sh);
    return advect_centered(p, ax.at(po), ay.at(po), sh);
  }

  // a_z dp/dz on a 3D grid at offset po from the values below, at and above the cell: upwind from the
  // side the velocity comes from, or centred, as the x and y terms.
  PDEX_HD T transport_z(T below, T here, T above, int64_t po) const {
    const T w = az.at(po);
    if (scheme() == Advection::upwind) return w * (w > T(0) ? here - below : above - here) * h.idz;
    return w * (above - below) * h.ihdz;
  }

  PDEX_HD PDEX_FORCEINLINE void operator()(FieldView<const T> s, int i, int j, T r[ncomp]) const {
    const int64_t o = s.offset(i, j);
    eval([&](int c) { return s.comp(c); }, o, h, o, r);
  }

  PDEX_HD T limit(int c, T x) const { return clamp.limit(c, x); }
};

// The right-hand side on a 3D grid: the 2D right-hand side of the cell's plane plus diffusion across the
// planes, D_c (u_below + u_above - 2 u_c) / dz^2 (lap_z) or, with a tensor, the fluxes that involve z
// (div_tensor_z, M's six entries), and transport across them (transport_z).
template <class Rhs>
struct ArdRhs3D {
  using T = typename Rhs::value_type;
  static constexpr int ncomp = Rhs::ncomp;
  Rhs rhs;

  PDEX_HD PDEX_FORCEINLINE void operator()(FieldView<const T> s, int i, int j, T r[ncomp]) const {
    rhs(s, i, j, r);
    const int64_t o = s.offset(i, j), plane = rhs.h.plane;
    for (int c = 0; c < ncomp; ++c) {
      const T* p = s.comp(c);
      r[c] = add_z(c, r[c], p, o, p[o - plane], p[o], p[o + plane]);
    }
  }
  // The same for two species from registers (a CUDA kernel walking columns up through the planes): their
  // stars within the cell's plane and their values in the planes below and above, at offset o.
  PDEX_HD PDEX_FORCEINLINE void eval_column(const Star<T>& u, const Star<T>& v, T u_below, T u_above, T v_below,
                                            T v_above, int64_t o, T r[2]) const
    requires(!Rhs::tensor && ncomp == 2)
  {
    rhs.eval_star(u, v, rhs.h, o, r);
    r[0] = add_z(0, r[0], nullptr, o, u_below, u.c, u_above);
    r[1] = add_z(1, r[1], nullptr, o, v_below, v.c, v_above);
  }
  PDEX_HD T limit(int c, T x) const { return rhs.limit(c, x); }

 private:
  // r plus species c's terms across the planes at offset o, from its values below, at and above the cell
  // (a tensor's mixed terms read more of them, from p).
  PDEX_HD PDEX_FORCEINLINE T add_z(int c, T r, const T* p, int64_t o, T below, T here, T above) const {
    if constexpr (Rhs::tensor) r += div_tensor_z(p, o, rhs.D[c], rhs.m, rhs.m_stride, rhs.h);
    else r += rhs.D[c].at(o) * lap_z(below, here, above, rhs.h);
    if (rhs.scheme() != Advection::none) r -= rhs.transport_z(below, here, above, o);
    return r;
  }
};

}  // namespace pdex
