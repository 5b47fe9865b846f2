#pragma once
// The complementary finite volume operators of seed 003's appendix (eqs. 36-52), on one cell of a
// cell-centred grid: the cell's four faces, each with the normal difference of phi across it and the
// tangential difference of the corner averages (eqs. 40-47), Q on the face (eqs. 36-39), and the mean
// of the four Qs in the cell (eq. 49). Read through a pointer and the cell's offset, as stencil.hpp.
#include <cmath>
#include <cstdint>

#include "pdex/core/macros.hpp"
#include "pdex/grid/stencil.hpp"

namespace pdex {

// Derivatives of p on the face between the cell at o and its neighbour at o + n: dn along the outward
// normal (eqs. 40-41), dt along the face from the corner averages (eqs. 42-47), whose sum reduces to
// (p[o+t] + p[o+n+t] - p[o-t] - p[o+n-t]) / 4.
template <class T>
struct FaceGrad {
  T dn, dt;
};

template <class T>
PDEX_HD inline FaceGrad<T> face_grad(const T* p, int64_t o, int64_t n, int64_t t, T inv_hn, T inv_ht) {
  return {(p[o + n] - p[o]) * inv_hn, (p[o + t] + p[o + n + t] - p[o - t] - p[o + n - t]) * (T(0.25) * inv_ht)};
}

template <class T>
PDEX_HD inline T face_q(FaceGrad<T> g) {
  return std::sqrt(T(1) + g.dn * g.dn + g.dt * g.dt);
}

// The faces of a cell in the order east, west, north, south: neighbour offset, tangent offset, 1/h
// normal to the face and 1/h along it.
template <class T>
struct CellFaces {
  int64_t n[4], t[4];
  T inv_hn[4], inv_ht[4];

  static CellFaces make(const Spacing<T>& h) {
    const int64_t s = h.pitch;
    return {{1, -1, s, -s}, {s, s, 1, 1}, {h.idx, h.idx, h.idy, h.idy}, {h.idy, h.idy, h.idx, h.idx}};
  }
  PDEX_HD FaceGrad<T> grad(const T* p, int64_t o, int f) const { return face_grad(p, o, n[f], t[f], inv_hn[f], inv_ht[f]); }
};

// Q_ij H_ij = Q div(grad phi / Q) at the cell (eqs. 48-50): the right-hand side of Scheme 3.1 (eq. 17)
// and the w of Scheme 3.2 (eq. 22).
template <class T>
PDEX_HD inline T q_times_mean_curvature(const T* p, int64_t o, const CellFaces<T>& faces) {
  T q_sum = T(0), flux = T(0);
#pragma unroll
  for (int f = 0; f < 4; ++f) {
    const FaceGrad<T> g = faces.grad(p, o, f);
    const T q = face_q(g);
    q_sum += q;
    flux += g.dn * faces.inv_hn[f] / q;
  }
  return T(0.25) * q_sum * flux;
}

// The Willmore operator of Scheme 3.2 (eq. 21) without forcing:
//   -Q_ij sum over faces of [ (E grad w) . n - w_f^2 / (2 Q_f^3) dn ] / h
// with E = (1/Q)(I - grad phi (x) grad phi / Q^2) on the face (eq. 53, as read: the projection P of
// Problem 2.2 over Q), w on the face the mean of its two cells (eqs. 51-52), and grad w on the face
// differenced like grad phi.
template <class T>
PDEX_HD inline T willmore_operator(const T* p, const T* w, int64_t o, const CellFaces<T>& faces) {
  T q_sum = T(0), div = T(0);
#pragma unroll
  for (int f = 0; f < 4; ++f) {
    const FaceGrad<T> g = faces.grad(p, o, f), gw = faces.grad(w, o, f);
    const T q = face_q(g), iq = T(1) / q, iq2 = iq * iq;
    const T wf = T(0.5) * (w[o] + w[o + faces.n[f]]);
    const T e_grad_w = (gw.dn - g.dn * (g.dn * gw.dn + g.dt * gw.dt) * iq2) * iq;
    q_sum += q;
    div += (e_grad_w - T(0.5) * wf * wf * iq2 * iq * g.dn) * faces.inv_hn[f];
  }
  return -T(0.25) * q_sum * div;
}

}  // namespace pdex
