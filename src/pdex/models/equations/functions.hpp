#pragma once
// The functions and operators of the text-model language, written once for the interpreter and for
// the source generated from a model (codegen.hpp), on the host and on the device.
#ifndef __CUDACC_RTC__
#include <cmath>
#endif

#include "pdex/core/macros.hpp"
#include "pdex/grid/stencil.hpp"

namespace pdex::eq {

enum class Fn : unsigned char { exp, log, sqrt, abs, sin, cos, tan, tanh, sinh, cosh, heaviside, sign, atan2, min, max, pow, mod };

// x^n as products, by squaring: exact for a negative x, unlike pow's logarithms.
template <class T>
PDEX_HD inline T power(T x, int n) {
  if (n < 0) return T(1) / power(x, -n);
  T r = T(1);
  for (T b = x; n; n >>= 1, b *= b)
    if (n & 1) r *= b;
  return r;
}

// The same with n known to the compiler (the generated code's x^2): no loop, the same products in the
// same order, so the two agree to the bit.
template <int N, class T>
PDEX_HD inline T power_by_squares(T r, T b) {
  if constexpr (N == 0) return r;
  else return power_by_squares<(N >> 1)>((N & 1) ? r * b : r, b * b);
}
template <int N, class T>
PDEX_HD inline T power(T x) {
  if constexpr (N < 0) return T(1) / power<-N>(x);
  else return power_by_squares<N>(T(1), x);
}

template <class T>
PDEX_HD inline T func1(Fn f, T a) {
#ifndef __CUDACC_RTC__  // NVRTC has these for float and double in the global namespace
  using std::abs, std::cos, std::cosh, std::exp, std::log, std::sin, std::sinh, std::sqrt, std::tan, std::tanh;
#endif
  switch (f) {
    case Fn::exp: return exp(a);
    case Fn::log: return log(a);
    case Fn::sqrt: return sqrt(a);
    case Fn::abs: return abs(a);
    case Fn::sin: return sin(a);
    case Fn::cos: return cos(a);
    case Fn::tan: return tan(a);
    case Fn::tanh: return tanh(a);
    case Fn::sinh: return sinh(a);
    case Fn::cosh: return cosh(a);
    case Fn::heaviside: return a > T(0) ? T(1) : a < T(0) ? T(0) : T(0.5);
    case Fn::sign: return T((a > T(0)) - (a < T(0)));
    default: return a;
  }
}

template <class T>
PDEX_HD inline T func2(Fn f, T a, T b) {
#ifndef __CUDACC_RTC__
  using std::atan2, std::floor, std::pow;
#endif
  switch (f) {
    case Fn::atan2: return atan2(a, b);
    case Fn::min: return a < b ? a : b;
    case Fn::max: return a > b ? a : b;
    case Fn::pow: return pow(a, b);
    case Fn::mod: return a - b * floor(a / b);
    default: return a;
  }
}

// div(K grad w) in conservative form from K and w at a cell and its four neighbours, each face's K
// the mean of the two cells beside it.
template <class T>
PDEX_HD inline T div_grad(const Star<T>& k, const Star<T>& w, const Spacing<T>& h) {
  const T half = T(0.5);
  return (half * (k.e + k.c) * (w.e - w.c) - half * (k.c + k.w) * (w.c - w.w)) * h.idx2 +
         (half * (k.n + k.c) * (w.n - w.c) - half * (k.c + k.s) * (w.c - w.s)) * h.idy2;
}

// The z parts of lap and div(K*grad(w)) on a 3D grid, from the values below (m), at (c) and above (p)
// the cell: lap(u) is pdex::lap + lap_z (grid/stencil.hpp's), div(K*grad(w)) div_grad + div_grad_z.
using pdex::lap_z;
template <class T>
PDEX_HD inline T div_grad_z(T km, T kc, T kp, T wm, T wc, T wp, const Spacing<T>& h) {
  const T half = T(0.5);
  return (half * (kp + kc) * (wp - wc) - half * (kc + km) * (wc - wm)) * h.idz2;
}

// a_z dw/dz, upwind from the side the velocity comes from: advect(w, ax, ay, az) on a 3D grid is
// pdex::advect_upwind + advect_upwind_z, the built-in 3D advection's terms (ArdRhs::transport_z).
template <class T>
PDEX_HD inline T advect_upwind_z(T below, T c, T above, T az, const Spacing<T>& h) {
  return az * (az > T(0) ? c - below : above - c) * h.idz;
}

// A value at a cell and its eight neighbours (the cross derivatives of a tensor diffusion read the corners).
template <class T>
struct Box {
  T c, w, e, s, n, sw, se, nw, ne;
};

// div(K grad p) in conservative form for the symmetric tensor K = (xx, xy; xy, yy) given per cell, each
// face's K the mean of its two cells and the cross derivative on a face the mean of the two cells'
// centred differences: the built-in anisotropic diffusion's stencil (grid/stencil.hpp div_tensor).
template <class T>
PDEX_HD inline T div_tensor(const Star<T>& xx, const Star<T>& xy, const Star<T>& yy, const Box<T>& p, const Spacing<T>& h) {
  const T half = T(0.5), q = T(0.25) * h.idy, r = T(0.25) * h.idx;
  const T fe = half * (xx.c + xx.e) * (p.e - p.c) * h.idx + half * (xy.c + xy.e) * (p.n + p.ne - p.s - p.se) * q;
  const T fw = half * (xx.c + xx.w) * (p.c - p.w) * h.idx + half * (xy.c + xy.w) * (p.n + p.nw - p.s - p.sw) * q;
  const T fn = half * (yy.c + yy.n) * (p.n - p.c) * h.idy + half * (xy.c + xy.n) * (p.e + p.ne - p.w - p.nw) * r;
  const T fs = half * (yy.c + yy.s) * (p.c - p.s) * h.idy + half * (xy.c + xy.s) * (p.e + p.se - p.w - p.sw) * r;
  return (fe - fw) * h.idx + (fn - fs) * h.idy;
}

// A value at a cell of a 3D grid, its four neighbours in the plane and the two across it.
template <class T>
struct Star3 {
  Star<T> in;
  T below, above;
};

// p around a cell of a 3D grid: its plane's nine-point box and the five-point stars below and above.
template <class T>
struct Box3 {
  Box<T> in;
  Star<T> below, above;
};

// The fluxes that involve z of div(K grad p) on a 3D grid, K = (xx, xy, xz; xy, yy, yz; xz, yz, zz)
// given per cell: div_tensor (the part within the plane) plus div_tensor_z is grid/stencil.hpp's
// div_tensor plus div_tensor_z, the built-in 3D anisotropic diffusion, with the same operations in the
// same order (each entry there d times M's, here the expression's value).
template <class T>
PDEX_HD inline T div_tensor_z(const Star3<T>& xz, const Star3<T>& yz, const Star3<T>& zz, const Box3<T>& p, const Spacing<T>& h) {
  const T half = T(0.5), qx = T(0.25) * h.idx, qy = T(0.25) * h.idy, qz = T(0.25) * h.idz;
  const Box<T>& c = p.in;
  const Star<T>& lo = p.below;
  const Star<T>& hi = p.above;
  // The cell's centred z difference; a side face's cross derivative adds its neighbour's (stencil.hpp's
  // `across`, each difference apart).
  const T dz = hi.c - lo.c;
  const T ze = half * (xz.in.c + xz.in.e) * (dz + (hi.e - lo.e)) * qz, zw = half * (xz.in.c + xz.in.w) * (dz + (hi.w - lo.w)) * qz;
  const T zn = half * (yz.in.c + yz.in.n) * (dz + (hi.n - lo.n)) * qz, zs = half * (yz.in.c + yz.in.s) * (dz + (hi.s - lo.s)) * qz;
  const T fa = half * (zz.in.c + zz.above) * (hi.c - c.c) * h.idz + half * (xz.in.c + xz.above) * ((c.e - c.w) + (hi.e - hi.w)) * qx +
               half * (yz.in.c + yz.above) * ((c.n - c.s) + (hi.n - hi.s)) * qy;
  const T fb = half * (zz.in.c + zz.below) * (c.c - lo.c) * h.idz + half * (xz.in.c + xz.below) * ((c.e - c.w) + (lo.e - lo.w)) * qx +
               half * (yz.in.c + yz.below) * ((c.n - c.s) + (lo.n - lo.s)) * qy;
  return (ze - zw) * h.idx + (zn - zs) * h.idy + (fa - fb) * h.idz;
}

}  // namespace pdex::eq
