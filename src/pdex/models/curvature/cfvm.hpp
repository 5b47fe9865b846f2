#pragma once
// The complementary finite volume operators of seed 003's appendix (eqs. 36-52), on one cell of a
// cell-centred grid: the cell's four faces, each with the normal difference of phi across it and the
// tangential difference of the corner averages (eqs. 40-47), Q on the face (eqs. 36-39), and the mean
// of the four Qs in the cell (eq. 49).
//
// The operators are bound by instructions, not memory, on the GPU (seed 003 found its kernels limited
// by registers): so the cell's 3x3 neighbourhood is loaded once into registers (a Patch) and the faces'
// geometry is known at compile time, and 1/Q is one reciprocal square root, with Q = (Q^2) (1/Q),
// instead of a correctly rounded square root and a division per face.
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "pdex/core/macros.hpp"
#include "pdex/grid/stencil.hpp"

namespace pdex {

// The values of a field at a cell and its eight neighbours.
template <class T>
struct Patch {
  T v[3][3];  // v[dj + 1][di + 1]

  PDEX_HD static Patch load(const T* p, int64_t o, int64_t pitch) {
    Patch q;
#pragma unroll
    for (int dj = -1; dj <= 1; ++dj)
#pragma unroll
      for (int di = -1; di <= 1; ++di) q.v[dj + 1][di + 1] = p[o + dj * pitch + di];
    return q;
  }
  PDEX_HD T at(int di, int dj) const { return v[dj + 1][di + 1]; }
};

// Face F of a cell (0 east, 1 west, 2 north, 3 south): the outward normal (ni, nj) and the tangent
// (ti, tj) in cells.
template <int F>
struct Face {
  static constexpr int ni = F == 0 ? 1 : F == 1 ? -1 : 0;
  static constexpr int nj = F == 2 ? 1 : F == 3 ? -1 : 0;
  static constexpr int ti = nj != 0;
  static constexpr int tj = ni != 0;
};

// Derivatives of p on face F: dn along the outward normal (eqs. 40-41), dt along the face from the
// corner averages (eqs. 42-47), whose sum reduces to (p[t] + p[n+t] - p[-t] - p[n-t]) / 4.
template <class T>
struct FaceGrad {
  T dn, dt;
};

// 1/sqrt(x) for a normal x (here Q^2 >= 1). On the GPU: the hardware approximation, which in f64 gets
// the refinement CUDA's rsqrt() applies (e = 1 - x y^2, y += y e (1/2 + 3/8 e): cubic, so the 2^-22 of
// the estimate becomes rounding), without rsqrtf's and rsqrt()'s handling of subnormal, infinite and
// huge arguments. That handling cost 4 (f32) to 8 (f64) instructions a face and, in f64, a branch that
// kept the later faces' loads from being hoisted above the first face's square root.
template <class T>
PDEX_HD inline T inv_sqrt(T x) {
#ifdef __CUDA_ARCH__
  T y;
  if constexpr (sizeof(T) == sizeof(float)) {
    asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
  } else {
    asm("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(x));
    const T e = fma(-x, y * y, T(1));
    return fma(fma(T(0.375), e, T(0.5)), y * e, y);
  }
#else
  return T(1) / std::sqrt(x);
#endif
}

// The grid spacing the faces need.
template <class T>
struct CellFaces {
  T idx, idy;      // 1/dx, 1/dy
  int64_t pitch;   // offset between rows

  static CellFaces make(const Spacing<T>& h) { return {h.idx, h.idy, h.pitch}; }

  template <int F>
  PDEX_HD T inv_hn() const {
    return Face<F>::ni != 0 ? idx : idy;
  }
  template <int F>
  PDEX_HD FaceGrad<T> grad(const Patch<T>& p) const {
    using D = Face<F>;
    const T inv_ht = D::ni != 0 ? idy : idx;
    return {(p.at(D::ni, D::nj) - p.at(0, 0)) * inv_hn<F>(),
            (p.at(D::ti, D::tj) + p.at(D::ni + D::ti, D::nj + D::tj) - p.at(-D::ti, -D::tj) -
             p.at(D::ni - D::ti, D::nj - D::tj)) *
                (T(0.25) * inv_ht)};
  }
  PDEX_HD Patch<T> patch(const T* p, int64_t o) const { return Patch<T>::load(p, o, pitch); }
};

// Q^2 = 1 + |grad phi|^2 on a face (eqs. 36-39).
template <class T>
PDEX_HD inline T face_q2(FaceGrad<T> g) {
  return T(1) + g.dn * g.dn + g.dt * g.dt;
}

// Calls body(Face index) for the four faces in the order east, west, north, south.
template <class Body>
PDEX_HD inline void for_faces(Body&& body) {
  body(std::integral_constant<int, 0>{});
  body(std::integral_constant<int, 1>{});
  body(std::integral_constant<int, 2>{});
  body(std::integral_constant<int, 3>{});
}

// Q_ij, the mean of the four face Qs (eq. 49).
template <class T>
PDEX_HD inline T cell_q(const Patch<T>& p, const CellFaces<T>& faces) {
  T q_sum = T(0);
  for_faces([&](auto f) {
    const T q2 = face_q2(faces.template grad<decltype(f)::value>(p));
    q_sum += q2 * inv_sqrt(q2);
  });
  return T(0.25) * q_sum;
}

// A face's share of Q_ij H_ij: Q^2 and 1/Q of the face, and its normal derivative.
template <class T>
struct FaceQ {
  T dn, q2, iq;
  PDEX_HD static FaceQ of(FaceGrad<T> g) {
    const T q2 = face_q2(g);
    return {g.dn, q2, inv_sqrt(q2)};
  }
  // The same face seen from the cell on its other side: the normal derivative changes sign.
  PDEX_HD FaceQ flipped() const { return {-dn, q2, iq}; }
};

// The running sums of Q_ij H_ij over a cell's faces (eqs. 48-50).
template <class T>
struct MeanCurvatureSum {
  T q_sum = T(0), flux = T(0);
  template <int F>
  PDEX_HD void add(const FaceQ<T>& f, const CellFaces<T>& faces) {
    q_sum += f.q2 * f.iq;
    flux += f.dn * faces.template inv_hn<F>() * f.iq;
  }
  PDEX_HD T value() const { return T(0.25) * q_sum * flux; }
};

// Q_ij H_ij = Q div(grad phi / Q) at the cell (eqs. 48-50): the right-hand side of Scheme 3.1 (eq. 17)
// and the w of Scheme 3.2 (eq. 22).
template <class T>
PDEX_HD inline T q_times_mean_curvature(const Patch<T>& p, const CellFaces<T>& faces) {
  MeanCurvatureSum<T> s;
  for_faces([&](auto f) {
    constexpr int F = decltype(f)::value;
    s.template add<F>(FaceQ<T>::of(faces.template grad<F>(p)), faces);
  });
  return s.value();
}

// Q H at the cell at offset o and at the cell above it (k[0], k[1]), from one load of the 4x3 values
// around them and the face between them evaluated once: 12 loads and 7 faces for two cells instead of
// 18 and 8. The GPU kernel is bound by issuing instructions, and this is a fifth fewer. The result
// equals q_times_mean_curvature's up to the order of one addition in the shared face's tangential
// difference.
template <class T>
PDEX_HD inline void q_times_mean_curvature_pair(const T* p, int64_t o, const CellFaces<T>& faces, T* k) {
  const Patch<T> lo = faces.patch(p, o), hi = faces.patch(p, o + faces.pitch);
  const FaceQ<T> between = FaceQ<T>::of(faces.template grad<2>(lo));
  MeanCurvatureSum<T> a, b;
  a.template add<0>(FaceQ<T>::of(faces.template grad<0>(lo)), faces);
  a.template add<1>(FaceQ<T>::of(faces.template grad<1>(lo)), faces);
  a.template add<2>(between, faces);
  a.template add<3>(FaceQ<T>::of(faces.template grad<3>(lo)), faces);
  b.template add<0>(FaceQ<T>::of(faces.template grad<0>(hi)), faces);
  b.template add<1>(FaceQ<T>::of(faces.template grad<1>(hi)), faces);
  b.template add<2>(FaceQ<T>::of(faces.template grad<2>(hi)), faces);
  b.template add<3>(between.flipped(), faces);
  k[0] = a.value();
  k[1] = b.value();
}

// The Willmore operator of Scheme 3.2 (eq. 21) without forcing:
//   -Q_ij sum over faces of [ (E grad w) . n - w_f^2 / (2 Q_f^3) dn ] / h
// with E = (1/Q)(I - grad phi (x) grad phi / Q^2) on the face (eq. 53, as read: the projection P of
// Problem 2.2 over Q), w on the face the mean of its two cells (eqs. 51-52), and grad w on the face
// differenced like grad phi. The face term is evaluated as
//   (dn_w - dn (grad phi . grad w + w_f^2 / 2) / Q^2) / Q,
// the same expression with 10 operations instead of 18 (the kernel is bound by its f64 arithmetic).
template <class T>
PDEX_HD inline T willmore_operator(const Patch<T>& p, const Patch<T>& w, const CellFaces<T>& faces) {
  T q_sum = T(0), div[2] = {T(0), T(0)};  // the x and y faces' terms, each scaled by 1/h once
  for_faces([&](auto f) {
    constexpr int F = decltype(f)::value;
    using D = Face<F>;
    const FaceGrad<T> g = faces.template grad<F>(p), gw = faces.template grad<F>(w);
    const T q2 = face_q2(g), iq = inv_sqrt(q2);
    const T w_sum = w.at(0, 0) + w.at(D::ni, D::nj);  // 2 w_f
    const T s = T(0.125) * w_sum * w_sum + (g.dn * gw.dn + g.dt * gw.dt);
    q_sum += q2 * iq;
    div[F / 2] += (gw.dn - g.dn * (iq * iq) * s) * iq;
  });
  return -T(0.25) * q_sum * (div[0] * faces.idx + div[1] * faces.idy);
}

}  // namespace pdex
