#pragma once
// Kernel bodies of the chemotaxis models (seed 002 sec. 3 and Keller-Segel), one per executor-neutral
// function of (views, cell offset). Device-facing: only <cstdint>-level includes (DESIGN principle 6).
#include <cstdint>

#include "pdex/core/macros.hpp"
#include "pdex/grid/stencil.hpp"

namespace pdex {

template <class T>
struct Tensor2 {
  T xx, xy, yx, yy;
};

// The chemotactic tensor S: a constant, or four components of a field sharing the state's layout.
template <class T>
struct TensorParam {
  const T* cells = nullptr;  // null: `value` everywhere
  int64_t comp_stride = 0;
  Tensor2<T> value{T(1), T(0), T(0), T(1)};

  PDEX_HD PDEX_FORCEINLINE Tensor2<T> at(int64_t o) const {
    if (!cells) return value;
    return {cells[o], cells[o + comp_stride], cells[o + 2 * comp_stride], cells[o + 3 * comp_stride]};
  }
};

// Flux of n across the face between the cells at offsets a and b = a + step (step 1: an x face, pitch:
// a y face): diffusion grad n minus the chemotactic flux n S grad c, normal component. Face values are
// means of the two cells; the tangential derivative of c is the mean of their centred differences.
// Neighbouring cells evaluate their shared face by this one function with the same arguments, so the
// fluxes cancel exactly in a sum over cells: with zero flux at the sides, the mass of n is conserved
// to rounding.
template <class T>
PDEX_HD PDEX_FORCEINLINE T face_flux(const T* n, const T* c, int64_t a, int64_t step, int64_t across, T inv_h, T inv_2h_across,
                           T s_normal, T s_tangential) {
  const int64_t b = a + step;
  const T dn = (n[b] - n[a]) * inv_h, dc = (c[b] - c[a]) * inv_h;
  const T dc_t = T(0.5) * ((c[a + across] - c[a - across]) + (c[b + across] - c[b - across])) * inv_2h_across;
  return dn - T(0.5) * (n[a] + n[b]) * (s_normal * dc + s_tangential * dc_t);
}

// div(grad n - n S grad c) in conservative form: seed 002 eq. (1)_1 without advection, Keller-Segel's
// n equation with S = chi I.
template <class T>
PDEX_HD PDEX_FORCEINLINE T div_cell_flux(const T* n, const T* c, int64_t o, const TensorParam<T>& s, const Spacing<T>& h) {
  const int64_t p = h.pitch;
  const Tensor2<T> s0 = s.at(o), se = s.at(o + 1), sw = s.at(o - 1), sn = s.at(o + p), ss = s.at(o - p);
  const T fe = face_flux(n, c, o, 1, p, h.idx, h.ihdy, T(0.5) * (s0.xx + se.xx), T(0.5) * (s0.xy + se.xy));
  const T fw = face_flux(n, c, o - 1, 1, p, h.idx, h.ihdy, T(0.5) * (sw.xx + s0.xx), T(0.5) * (sw.xy + s0.xy));
  const T fn = face_flux(n, c, o, p, 1, h.idy, h.ihdx, T(0.5) * (s0.yy + sn.yy), T(0.5) * (s0.yx + sn.yx));
  const T fs = face_flux(n, c, o - p, p, 1, h.idy, h.ihdx, T(0.5) * (ss.yy + s0.yy), T(0.5) * (ss.yx + s0.yx));
  return (fe - fw) * h.idx + (fn - fs) * h.idy;
}

// The z faces' part of div(grad n - chi n grad c) on a 3D grid (Keller-Segel's isotropic S = chi I), by
// the same face fluxes: conservative, so with zero flux at the sides the mass of n is kept.
template <class T>
PDEX_HD PDEX_FORCEINLINE T div_z_flux(const T* n, const T* c, int64_t o, T chi, const Spacing<T>& h) {
  const int64_t p = h.plane;
  auto flux = [&](int64_t a) {
    const int64_t b = a + p;
    return (n[b] - n[a]) * h.idz - T(0.5) * (n[a] + n[b]) * (chi * ((c[b] - c[a]) * h.idz));
  };
  return (flux(o) - flux(o - p)) * h.idz;
}

// Centred first derivatives (seed 002 eq. (6)).
template <class T>
PDEX_HD inline T ddx(const T* p, int64_t o, const Spacing<T>& h) {
  return (p[o + 1] - p[o - 1]) * h.ihdx;
}
template <class T>
PDEX_HD inline T ddy(const T* p, int64_t o, const Spacing<T>& h) {
  return (p[o + h.pitch] - p[o - h.pitch]) * h.ihdy;
}

// The pressure's right-hand side: -lap P = div(n grad phi) = grad n . grad phi + n lap phi, seed 002's
// discretization of lap P = -div(n grad phi) (both products with a + sign: the extracted text's minus
// between the x and y products contradicts the continuous equation above it).
template <class T>
PDEX_HD inline T pressure_rhs(const T* n, const T* phi, int64_t o, const Spacing<T>& h) {
  return ddx(n, o, h) * ddx(phi, o, h) + ddy(n, o, h) * ddy(phi, o, h) + n[o] * lap(phi, o, h);
}

}  // namespace pdex
