#pragma once
// Boundary conditions live in the ghost layers (DESIGN principle 3): interior kernels read neighbours
// without branches, and the ghosts are the one place where boundary values are produced.
//
// Cell-centred conventions, for a ghost at distance k+1 outside a side (k = 0 .. ghost-1):
//   periodic   ghost = the cell k+1 in from the opposite side
//   neumann    ghost = mirror image of the k-th interior cell (zero normal derivative at the face)
//   dirichlet  ghost = 2 b - mirror image (the value b is held at the face, second order)
//   robin      ghost = scale * mirror image + value: a u + b du/dn = c at the face (robin_side)
// Ghosts are produced by *pushing*: each interior cell near a side writes its images. A stencil kernel
// that has just computed a new value calls push_ghosts() with it, so a time step needs no separate
// ghost-filling pass; fill_ghosts() pushes every boundary cell of an existing field.
#include "pdex/core/macros.hpp"
#include "pdex/grid/field_view.hpp"

namespace pdex {

enum class BcKind : int { periodic = 0, neumann = 1, dirichlet = 2, robin = 3 };
// x: left, right; y: bottom, top; z (3D grids): front (the plane z = z0), back (z = z0 + nz dz).
enum Side : int { left = 0, right = 1, bottom = 2, top = 3, front = 4, back = 5 };
constexpr int side_count = 6;
constexpr int max_components = 8;

struct SideBc {
  BcKind kind = BcKind::periodic;
  double value = 0.0;  // dirichlet: the face's value; robin: the ghost's offset
  double scale = 0.0;  // robin: the ghost's factor on the mirror image
};

// a u + b du/dn = c (n the outward normal) at a side whose first cell centre lies h/2 inside: with u at
// the face (ghost + cell)/2 and du/dn = (ghost - cell)/h, the ghost is an affine image of the cell.
// Requires a/2 + b/h != 0.
inline SideBc robin_side(double a, double b, double c, double h) {
  const double d = a / 2 + b / h;
  return SideBc{BcKind::robin, c / d, (b / h - a / 2) / d};
}

// A side on a grid whose spacing across it is `ratio` times this one's (a multigrid level): a Robin
// side's a/2 + b/h and b/h - a/2 change with h, so do the ghost's factor and offset (robin_side's at
// ratio h). Other sides stay.
inline SideBc respaced(const SideBc& s, double ratio) {
  if (s.kind != BcKind::robin || s.scale == -1.0) return s;  // -1: b = 0, Dirichlet at every spacing
  const double r = (1 - s.scale) / (1 + s.scale), coarse = r * ratio;  // a h / (2 b) on either grid
  return SideBc{BcKind::robin, s.value * ratio * (1 + r) / (1 + coarse), (1 - coarse) / (1 + coarse)};
}

// Conditions of every side for every component of one field. Plain data, passed to kernels by value.
struct FieldBoundary {
  SideBc side[side_count][max_components];

  static FieldBoundary all(BcKind kind, double value = 0.0) {
    FieldBoundary b;
    for (auto& s : b.side)
      for (auto& c : s) c = SideBc{kind, value};
    return b;
  }

  // The conditions on a grid whose spacings are rx, ry and rz times this one's (respaced above).
  FieldBoundary respaced(double rx, double ry, double rz = 1.0) const {
    FieldBoundary b = *this;
    for (int s = 0; s < side_count; ++s)
      for (auto& c : b.side[s]) c = pdex::respaced(c, s < 2 ? rx : s < 4 ? ry : rz);
    return b;
  }

  // The conditions of components first .. first + count - 1, as those of a field of their own.
  FieldBoundary components(int first, int count) const {
    FieldBoundary b;
    for (int s = 0; s < side_count; ++s)
      for (int c = 0; c < count; ++c) b.side[s][c] = side[s][first + c];
    return b;
  }
};

// The conditions of a coefficient field (a diffusivity, a diffusion tensor's entries) beside a field with
// conditions `bc`, by the kinds of bc's component 0: periodic stays periodic, every other side mirrors
// evenly, or oddly for a tensor's off-diagonal entry, so that no flux crosses a zero-flux side.
inline SideBc coefficient_side(const SideBc& s, bool odd) {
  if (s.kind == BcKind::periodic) return s;
  return odd ? SideBc{BcKind::dirichlet, 0.0} : SideBc{BcKind::neumann, 0.0};
}
// For a field of `ncomp` components, component `odd` (-1: none) mirrored oddly.
inline FieldBoundary coefficient_boundary(const FieldBoundary& bc, int ncomp, int odd = -1) {
  FieldBoundary out;
  for (int side = 0; side < side_count; ++side)
    for (int c = 0; c < ncomp; ++c) out.side[side][c] = coefficient_side(bc.side[side][0], c == odd);
  return out;
}
// A tensor field: components xx, xy, yy (a 2D grid's), then xz, yz, zz (a 3D grid's); the off-diagonal
// entries mirror oddly.
inline FieldBoundary tensor_boundary(const FieldBoundary& bc, int ncomp = 3) {
  FieldBoundary out = coefficient_boundary(bc, ncomp, 1);
  for (int side = 0; side < side_count; ++side)
    for (int c = 3; c < ncomp && c < 5; ++c) out.side[side][c] = coefficient_side(bc.side[side][0], true);
  return out;
}

namespace detail {

template <class T>
struct GhostImage {
  int target;
  T a, b;  // ghost = a * source + b
};

// The image rule of a side that is not periodic.
template <class T>
PDEX_HD inline GhostImage<T> affine_image(const SideBc& s, int target) {
  if (s.kind == BcKind::dirichlet) return GhostImage<T>{target, T(-1), T(2 * s.value)};
  if (s.kind == BcKind::robin) return GhostImage<T>{target, T(s.scale), T(s.value)};
  return GhostImage<T>{target, T(1), T(0)};
}

// Ghost images along one axis of the cell at index i (n cells, g ghosts); returns how many (at most 4).
template <class T>
PDEX_HD inline int ghost_images_1d(int i, int n, int g, const SideBc& lo, const SideBc& hi,
                                   GhostImage<T>* out) {
  int m = 0;
  if (i < g) {
    if (hi.kind == BcKind::periodic) out[m++] = GhostImage<T>{i + n, T(1), T(0)};
    if (lo.kind != BcKind::periodic) out[m++] = affine_image<T>(lo, -1 - i);
  }
  if (i >= n - g) {
    if (lo.kind == BcKind::periodic) out[m++] = GhostImage<T>{i - n, T(1), T(0)};
    if (hi.kind != BcKind::periodic) out[m++] = affine_image<T>(hi, 2 * n - 1 - i);
  }
  return m;
}

}  // namespace detail

// True when the cell (i, j) has ghost images, i.e. lies within `ghost` cells of a side.
template <class T>
PDEX_HD inline bool near_boundary(const FieldView<T>& f, int i, int j) {
  return i < f.ghost || j < f.ghost || i >= f.nx - f.ghost || j >= f.ny - f.ghost;
}

// Writes the ghost images of value `val` of component c at interior cell (i, j) of a 2D field (of one
// plane of a 3D one). Corner ghosts get the x rule then the y rule, the same as filling x ghosts first and
// then whole rows of y ghosts.
template <class T>
PDEX_HD inline void push_ghosts(const FieldView<T>& f, const FieldBoundary& bc, int c, int i, int j, T val) {
  detail::GhostImage<T> xs[4], ys[4];
  const int mx = detail::ghost_images_1d<T>(i, f.nx, f.ghost, bc.side[left][c], bc.side[right][c], xs);
  const int my = detail::ghost_images_1d<T>(j, f.ny, f.ghost, bc.side[bottom][c], bc.side[top][c], ys);
  for (int a = 0; a < mx; ++a) f(c, xs[a].target, j) = xs[a].a * val + xs[a].b;
  for (int b = 0; b < my; ++b) f(c, i, ys[b].target) = ys[b].a * val + ys[b].b;
  for (int a = 0; a < mx; ++a)
    for (int b = 0; b < my; ++b) f(c, xs[a].target, ys[b].target) = ys[b].a * (xs[a].a * val + xs[a].b) + ys[b].b;
}

// True when plane k of a 3D field has images in the ghost planes, i.e. lies within `ghost` planes of a
// z side.
template <class T>
PDEX_HD inline bool near_z_side(const FieldView<T>& f, int k) {
  return f.nz > 1 && (k < f.ghost || k >= f.nz - f.ghost);
}

// The z images of value `val` of component c at cell (i, j, k) of a 3D field, and, where the cell lies by
// an x or y side, those images' own images within their ghost planes: the edges and corners a tensor's
// mixed derivatives read, as fill_ghosts_3d leaves them (z first, then x and y).
template <class T>
PDEX_HD inline void push_z_images(const FieldView<T>& f, const FieldBoundary& bc, int c, int i, int j, int k, T val) {
  if (!near_z_side(f, k)) return;
  detail::GhostImage<T> zs[4];
  const int m = detail::ghost_images_1d<T>(k, f.nz, f.ghost, bc.side[front][c], bc.side[back][c], zs);
  const bool by_side = near_boundary(f, i, j);
  for (int a = 0; a < m; ++a) {
    const T image = zs[a].a * val + zs[a].b;
    f(c, i, j, zs[a].target) = image;
    if (by_side) push_ghosts(f.in_plane(zs[a].target), bc, c, i, j, image);
  }
}

// The images of value `val` of component c at cell (i, j, k) of a 3D field: within its plane, and across
// z where the plane lies by a z side.
template <class T>
PDEX_HD inline void push_cell_images(const FieldView<T>& f, const FieldBoundary& bc, int c, int i, int j, int k,
                                     T val) {
  const FieldView<T> p = f.in_plane(k);
  if (near_boundary(p, i, j)) push_ghosts(p, bc, c, i, j, val);
  push_z_images(f, bc, c, i, j, k, val);
}

// The same at cell i of interior row r (FieldView::interior_rows(): row r % ny of plane r / ny), of a 2D
// or a 3D field.
template <class T>
PDEX_HD inline void push_row_images(const FieldView<T>& f, const FieldBoundary& bc, int c, int i, int r, T val) {
  if (f.nz > 1) return push_cell_images(f, bc, c, i, r % f.ny, r / f.ny, val);
  if (near_boundary(f, i, r)) push_ghosts(f, bc, c, i, r, val);
}

}  // namespace pdex
