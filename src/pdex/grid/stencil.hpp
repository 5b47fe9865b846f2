#pragma once
// Second-order finite-difference operators on one component, read through a pointer p to the component
// and the cell's offset o (neighbours at o +- 1 and o +- pitch). Ghosts must be filled.
#include <cstdint>

#include "pdex/core/macros.hpp"

namespace pdex {

// Spacing data every stencil needs, precomputed once per run.
template <class T>
struct Spacing {
  T idx, idy;      // 1/dx, 1/dy
  T idx2, idy2;    // 1/dx^2, 1/dy^2
  T ihdx, ihdy;    // 1/(2 dx), 1/(2 dy)
  int64_t pitch;   // offset between rows
  int64_t plane = 0;  // offset between planes (3D grids; 0 on 2D ones)
  T idz2 = T(0), idz = T(0), ihdz = T(0);  // 1/dz^2, 1/dz, 1/(2 dz) (3D grids)

  static Spacing make(double dx, double dy, int64_t pitch) {
    return {T(1 / dx), T(1 / dy), T(1 / (dx * dx)), T(1 / (dy * dy)), T(0.5 / dx), T(0.5 / dy), pitch};
  }
  // A 3D grid's, planes `plane` values apart.
  static Spacing make(double dx, double dy, int64_t pitch, double dz, int64_t plane) {
    Spacing h = make(dx, dy, pitch);
    h.plane = plane;
    h.idz2 = T(1 / (dz * dz));
    h.idz = T(1 / dz);
    h.ihdz = T(0.5 / dz);
    return h;
  }
};

// Five-point Laplacian from the centre value and its west, east, south and north neighbours.
template <class T>
PDEX_HD inline T lap5(T c, T w, T e, T s, T n, const Spacing<T>& h) {
  const T c2 = T(2) * c;
  return (w + e - c2) * h.idx2 + (s + n - c2) * h.idy2;
}

// A cell's value and its four neighbours: stencils take them from memory (star_at) or from registers
// (a thread walking down a column keeps two rows, see time/cuda/euler_strips.cuh).
template <class T>
struct Star {
  T c, w, e, s, n;  // centre, west, east, south, north
};

template <class T>
PDEX_HD inline Star<T> star_at(const T* p, int64_t o, int64_t pitch) {
  return {p[o], p[o - 1], p[o + 1], p[o - pitch], p[o + pitch]};
}

// Five-point Laplacian, seed 000 eq. (7) (there with dx = dy = 1).
template <class T>
PDEX_HD inline T lap(const Star<T>& p, const Spacing<T>& h) {
  return lap5(p.c, p.w, p.e, p.s, p.n, h);
}
template <class T>
PDEX_HD inline T lap(const T* p, int64_t o, const Spacing<T>& h) {
  return lap(star_at(p, o, h.pitch), h);
}

// The z part of the seven-point Laplacian of a 3D grid: lap(p) + lap_z(p) is the whole. From the values
// below, at and above the cell, or from a field at offset o.
template <class T>
PDEX_HD inline T lap_z(T below, T here, T above, const Spacing<T>& h) {
  return (below + above - T(2) * here) * h.idz2;
}
template <class T>
PDEX_HD inline T lap_z(const T* p, int64_t o, const Spacing<T>& h) {
  return lap_z(p[o - h.plane], p[o], p[o + h.plane], h);
}

// The Laplacian of a 2D grid's field (five points) or a 3D grid's (seven), at offset o.
template <class T>
PDEX_HD inline T lap_any(const T* p, int64_t o, const Spacing<T>& h, bool volume) {
  return volume ? lap(p, o, h) + lap_z(p, o, h) : lap(p, o, h);
}

// (a . grad) p with centred differences, seed 000 eq. (8).
template <class T>
PDEX_HD inline T advect_centered(const Star<T>& p, T ax, T ay, const Spacing<T>& h) {
  return ax * (p.e - p.w) * h.ihdx + ay * (p.n - p.s) * h.ihdy;
}
template <class T>
PDEX_HD inline T advect_centered(const T* p, int64_t o, T ax, T ay, const Spacing<T>& h) {
  return advect_centered(star_at(p, o, h.pitch), ax, ay, h);
}

// (a . grad) p with first-order upwind differences: stable with forward Euler under the CFL limit,
// also without diffusion.
template <class T>
PDEX_HD inline T advect_upwind(const Star<T>& p, T ax, T ay, const Spacing<T>& h) {
  const T dxp = ax > T(0) ? p.c - p.w : p.e - p.c;
  const T dyp = ay > T(0) ? p.c - p.s : p.n - p.c;
  return ax * dxp * h.idx + ay * dyp * h.idy;
}
template <class T>
PDEX_HD inline T advect_upwind(const T* p, int64_t o, T ax, T ay, const Spacing<T>& h) {
  return advect_upwind(star_at(p, o, h.pitch), ax, ay, h);
}

// The face coefficients of a symmetric tensor K = d * (mxx, mxy; mxy, myy) around the cell at offset o:
// each the mean of the two cells beside the face (east, west, north, south faces).
template <class T>
struct TensorFaces {
  T xx_e, xx_w, yy_n, yy_s, xy_e, xy_w, xy_n, xy_s;
};

template <class T, class D>
PDEX_HD inline TensorFaces<T> tensor_faces(int64_t o, int64_t s, const D& d, const T* mxx, const T* mxy,
                                           const T* myy) {
  const T d0 = d.at(o), de = d.at(o + 1), dw = d.at(o - 1), dn = d.at(o + s), ds = d.at(o - s);
  auto face = [&](const T* m, T dk, int64_t k) { return T(0.5) * (d0 * m[o] + dk * m[k]); };
  return {face(mxx, de, o + 1), face(mxx, dw, o - 1), face(myy, dn, o + s), face(myy, ds, o - s),
          face(mxy, de, o + 1), face(mxy, dw, o - 1), face(mxy, dn, o + s), face(mxy, ds, o - s)};
}

// div(K grad p) in conservative form for a symmetric tensor K = d * (mxx, mxy; mxy, myy) per cell:
// fluxes on the four faces of the cell (tensor_faces), the cross derivative on a face the mean of the
// two cells' centred differences. Summed over a periodic or zero-flux domain the fluxes cancel, so mass
// is conserved to rounding.
// p: the values, a pointer or anything indexed alike (helmholtz3.hpp's ImageProbe).
template <class T, class D, class P>
PDEX_HD inline T div_tensor(const P& p, int64_t o, const D& d, const T* mxx, const T* mxy, const T* myy,
                            const Spacing<T>& h) {
  const int64_t s = h.pitch;
  const TensorFaces<T> k = tensor_faces(o, s, d, mxx, mxy, myy);
  const T q = T(0.25) * h.idy, r = T(0.25) * h.idx;
  const T fe = k.xx_e * (p[o + 1] - p[o]) * h.idx + k.xy_e * (p[o + s] + p[o + 1 + s] - p[o - s] - p[o + 1 - s]) * q;
  const T fw = k.xx_w * (p[o] - p[o - 1]) * h.idx + k.xy_w * (p[o + s] + p[o - 1 + s] - p[o - s] - p[o - 1 - s]) * q;
  const T fn = k.yy_n * (p[o + s] - p[o]) * h.idy + k.xy_n * (p[o + 1] + p[o + 1 + s] - p[o - 1] - p[o - 1 + s]) * r;
  const T fs = k.yy_s * (p[o] - p[o - s]) * h.idy + k.xy_s * (p[o + 1] + p[o + 1 - s] - p[o - 1] - p[o - 1 - s]) * r;
  return (fe - fw) * h.idx + (fn - fs) * h.idy;
}

// The rest of div(K grad p) on a 3D grid, where div_tensor gives the part within the plane: the fluxes
// that involve z, for a symmetric tensor K = d * M with M's six entries at m + q * ms in the order xx, xy,
// yy, xz, yz, zz (the first three a 2D tensor's). Built as div_tensor builds its own (face coefficients the
// means of the two cells, cross derivatives the means of the two cells' centred differences): 19 points
// in all, conservative. On one plane between zero-flux z sides (p mirrored, M's xz and yz mirrored oddly)
// it is zero exactly.
template <class T, class D, class P>
PDEX_HD inline T div_tensor_z(const P& p, int64_t o, const D& d, const T* m, int64_t ms, const Spacing<T>& h) {
  const int64_t s = h.pitch, z = h.plane;
  const T* xz = m + 3 * ms;
  const T* yz = m + 4 * ms;
  const T* zz = m + 5 * ms;
  const T d0 = d.at(o);
  const auto face = [&](const T* q, int64_t k) { return T(0.5) * (d0 * q[o] + d.at(k) * q[k]); };
  // The sum of the centred differences along `step` of the cells at o and k (twice their mean); each
  // difference apart, so that mirrored values cancel exactly.
  const auto across = [&](int64_t k, int64_t step) { return (p[o + step] - p[o - step]) + (p[k + step] - p[k - step]); };
  const T qx = T(0.25) * h.idx, qy = T(0.25) * h.idy, qz = T(0.25) * h.idz;
  const T ze = face(xz, o + 1) * across(o + 1, z) * qz, zw = face(xz, o - 1) * across(o - 1, z) * qz;
  const T zn = face(yz, o + s) * across(o + s, z) * qz, zs = face(yz, o - s) * across(o - s, z) * qz;
  const T fa = face(zz, o + z) * (p[o + z] - p[o]) * h.idz + face(xz, o + z) * across(o + z, 1) * qx +
               face(yz, o + z) * across(o + z, s) * qy;
  const T fb = face(zz, o - z) * (p[o] - p[o - z]) * h.idz + face(xz, o - z) * across(o - z, 1) * qx +
               face(yz, o - z) * across(o - z, s) * qy;
  return (ze - zw) * h.idx + (zn - zs) * h.idy + (fa - fb) * h.idz;
}

}  // namespace pdex
