// restrict3 and prolong_add3 on CUDA where every axis is halved exactly (transfer3.hpp). A thread per
// coarse cell reading its 64 fine cells, and one per fine cell interpolating from eight coarse ones,
// ran at a quarter and two fifths of the copy bandwidth: each fine cell was loaded by eight threads, each
// coarse cell by 27. Here a thread takes a column of cells and a run of planes and walks up it, so that
// each plane it reads serves every cell above and below that needs it:
//  - restriction: a thread per coarse column (I, J) reads each fine plane's four rows under the column's
//    hat once (a row's cells as aligned pairs) and adds their sums into the two coarse cells whose hats
//    cover the plane (taps 2 and 3 of the one below, 0 and 1 of the one above); a column by an x or y
//    side the same way with its hat's weights across x and y (restrict_cell's);
//  - prolongation: a thread per fine pair of cells (2I, 2I + 1) of a row interpolates each coarse plane
//    in x and y once and keeps the two planes the current fine plane lies between;
//  - the residual's restriction (multigrid3.hpp's restrict_residual3): the restriction's walk over the
//    residual that a block makes under its columns' hats, a plane at a time, in shared memory.
// Every value takes the cell-by-cell functions' operations in their order (detail::restrict_inside,
// detail::restrict_cell, detail::add_prolonged3), so their bits; the coarse cells of the first and last
// planes, whose hats do not lie inside along z, take detail::restrict_cell itself.
#include <algorithm>
#include <cstdint>

#include "pdex/core/cuda/cuda_context.hpp"
#include "pdex/core/cuda/launch.cuh"
#include "pdex/core/cuda/vec2.cuh"
#include "pdex/linalg/multigrid3.hpp"
#include "pdex/linalg/transfer3.hpp"

namespace pdex {
namespace transfer3_walk_detail {

// A block: 32 columns along x (coarse ones, or fine pairs) by 4 along y, a thread each.
constexpr int tx = 32, ty = 4, threads = tx * ty;

// Planes a thread walks: runs short enough for about four waves of blocks, none shorter than `least`
// unless the grid is too small to fill one wave with such runs (then latency, not loads, bounds it).
// `bx` by `by`: the kernel's block of columns.
int run_length(const CudaContext& ctx, const void* kernel, int bx, int by, int nx, int ny, int nz, int ncomp, int least) {
  const int columns = ((nx + bx - 1) / bx) * ((ny + by - 1) / by) * ncomp;
  const int resident = std::max(1, ctx.resident_blocks(kernel, bx * by, 0) * ctx.multiprocessors());
  const int most = std::max({1, nz / least, std::min(nz, resident / columns)});
  const int runs = std::clamp((4 * resident + columns - 1) / columns, 1, most);
  return (nz + runs - 1) / runs;
}

template <class T>
struct Restriction {
  FieldView<const T> fine;
  FieldView<T> coarse;
  detail::AxisMaps3 m;
  int inside_lo, inside_hi;  // the coarse planes whose hats lie inside along z
  int run;                   // coarse planes a thread takes
};

// The x sums of the four fine rows under a column's hat in fine plane kf (`column`: the column's cell
// 2I - 2 of row 2J - 1 of plane 0): each row's cells 2I - 2 .. 2I + 3 as three aligned pairs.
template <class T>
__device__ void plane_parts(const FieldView<const T>& f, const T* column, int kf, double (&parts)[4]) {
  const T* row = column + int64_t(kf) * f.plane;
#pragma unroll
  for (int b = 0; b < 4; ++b, row += f.pitch) {
    const auto lo = load_pair(row), mid = load_pair(row + 2), hi = load_pair(row + 4);
    const T cells[4] = {lo.y, mid.x, mid.y, hi.x};
    parts[b] = detail::row_part(cells);
  }
}

// A column whose hat does not lie inside along x or y: restrict_cell's weights across them, in registers.
struct ColumnHat {
  double wx[detail::max_under] = {}, wy[detail::max_under] = {};
  int i0, j0, ni, nj;
  double sxy = 0;  // the weights' sums' product
  __device__ ColumnHat(const detail::AxisMaps3& m, int I, int J)
      : i0(m.x.weights(I, wx)), j0(m.y.weights(J, wy)), ni(m.x.count(I)), nj(m.y.count(J)) {
    double sx = 0, sy = 0;
#pragma unroll
    for (int a = 0; a < detail::max_under; ++a)
      if (a < ni) sx += wx[a];
#pragma unroll
    for (int b = 0; b < detail::max_under; ++b)
      if (b < nj) sy += wy[b];
    sxy = sx * sy;
  }
  // sum += restrict_cell's terms of fine plane kf as the plane of z weight hat_tap(e), above += those
  // of weight hat_tap(ea): a row's x sum goes into both as it is made (each sum's terms keep their order).
  template <class T>
  __device__ void add(const FieldView<const T>& f, int c, int kf, double& sum, int e, double& above, int ea) const {
    const T* row = f.comp(c) + f.offset(i0, j0, kf);
#pragma unroll
    for (int b = 0; b < detail::max_under; ++b, row += f.pitch) {
      if (b >= nj) break;
      double part = 0;
#pragma unroll
      for (int a = 0; a < detail::max_under; ++a)
        if (a < ni) part += wx[a] * double(row[a]);
      sum += detail::hat_tap(e) * wy[b] * part;
      above += detail::hat_tap(ea) * wy[b] * part;
    }
  }
};

// A column's coarse cells lo .. hi - 1, whose hats lie inside along z (or whose add leaves out the fine
// planes beyond the grid): each fine plane's terms go into the two coarse cells whose hats cover it
// (add(kf, sum, e, above, ea): plane kf's terms as the hat's plane e into sum and as plane ea into
// above), each cell's sum to store(K, sum). The z planes of weight 0 are left out, as restrict_inside
// leaves them (they add zeros).
template <class Add, class Store>
__device__ void walk_up(int lo, int hi, Add add, Store store) {
  double sum = 0, unused = 0;
  add(2 * lo - 1, sum, 0, unused, 0);
  add(2 * lo, sum, 1, unused, 0);
  for (int K = lo; K < hi; ++K) {
    double above = 0;  // coarse cell K + 1's sum
    add(2 * K + 1, sum, 2, above, 0);
    add(2 * K + 2, sum, 3, above, 1);
    store(K, sum);
    sum = above;
  }
}

// A column's coarse cells K0 .. K1 - 1: those whose hats lie inside along z by walking up (columns
// inside along x and y by aligned pairs), the others by restrict_cell. Capped at 80 registers (six
// blocks an SM; it spills 40 bytes): at 96 without the cap it ran 1.8x slower (docs/performance.md).
template <class T>
__global__ void __launch_bounds__(threads, 6) restrict3_walk_kernel(const __grid_constant__ Restriction<T> r) {
  begin_dependent_grid();
  const int I = int(blockIdx.x) * tx + int(threadIdx.x) % tx, J = int(blockIdx.y) * ty + int(threadIdx.x) / tx;
  const int runs = (r.coarse.nz + r.run - 1) / r.run;
  const int c = int(blockIdx.z) / runs, K0 = int(blockIdx.z) % runs * r.run, K1 = min(K0 + r.run, r.coarse.nz);
  if (I >= r.coarse.nx || J >= r.coarse.ny) return;
  const int lo = min(max(K0, r.inside_lo), K1), hi = max(lo, min(K1, r.inside_hi));
  for (int K = K0; K < lo; ++K) detail::restrict_cell(r.fine, r.coarse, r.m, I, J, K, c, c + 1);
  if (lo < hi) {
    if (detail::halved_inside(r.m.x, I) && detail::halved_inside(r.m.y, J)) {
      const T* col = r.fine.comp(c) + r.fine.offset(2 * I - 2, 2 * J - 1);
      walk_up(
          lo, hi,
          [&](int kf, double& sum, int e, double& above, int ea) {
            double parts[4];
            plane_parts(r.fine, col, kf, parts);
            detail::add_plane(sum, e, parts);
            detail::add_plane(above, ea, parts);
          },
          [&](int K, double sum) { r.coarse(c, I, J, K) = T(sum / (2.0 * 2.0 * 2.0)); });
    } else {
      const ColumnHat hat(r.m, I, J);
      walk_up(
          lo, hi, [&](int kf, double& sum, int e, double& above, int ea) { hat.add(r.fine, c, kf, sum, e, above, ea); },
          [&](int K, double sum) { r.coarse(c, I, J, K) = T(sum / (hat.sxy * 2.0)); });
    }
  }
  for (int K = hi; K < K1; ++K) detail::restrict_cell(r.fine, r.coarse, r.m, I, J, K, c, c + 1);
}

// The residual restricted where it is made (restrict_residual3_walk): a block's coarse columns need the
// fine residual under their hats, 2 rtx + 2 by 2 rty + 2 cells of each fine plane from (2 I0 - 1, 2 J0 - 1),
// which the block makes into shared memory a plane at a time (zeros outside the grid: weighed by a side
// column's taps they add nothing, as restrict_cell leaves those cells out), two planes' tiles in turn so
// that one barrier a plane keeps the tile's makers and readers apart.
constexpr int rtx = 32, rty = 8, rthreads = rtx * rty;  // a block's coarse columns: taller tiles redo fewer ring cells (18% here, 29% at 32 x 4)
constexpr int rx = 2 * rtx + 2, ry = 2 * rty + 2;

template <class T, bool Tensor>
struct ResidualRestriction {
  Helmholtz3<T, Tensor> op;
  FieldView<const T> x, b;
  FieldView<T> coarse;
  int run;  // coarse planes a block takes
};

// The sum of coarse cell k's hat taps over the fine cells that exist along an axis of n fine cells (quarters,
// so exact in any order): restrict_cell's sx, sy or sz.
__device__ inline double taps_inside(int k, int n) {
  double s = 0;
  for (int a = 0; a < 4; ++a)
    if (const int f = 2 * k - 1 + a; f >= 0 && f < n) s += detail::hat_tap(a);
  return s;
}

// The tile cells a thread of the block makes in each plane.
constexpr int per_thread = (rx * ry + rthreads - 1) / rthreads;

// Every coarse cell takes walk_up's sums over its hat (a side column's too: its missing cells are zeros),
// divided by restrict_cell's norm, so the bits of residual_field then restrict3.
template <class T, bool Tensor>
__global__ void __launch_bounds__(rthreads) residual_restrict3_kernel(const __grid_constant__ ResidualRestriction<T, Tensor> rr) {
  __shared__ __align__(16) T tile[2][ry * rx];
  begin_dependent_grid();
  const FieldView<const T>& x = rr.x;
  const int I0 = int(blockIdx.x) * rtx, J0 = int(blockIdx.y) * rty, li = int(threadIdx.x) % rtx, lj = int(threadIdx.x) / rtx;
  const int runs = (rr.coarse.nz + rr.run - 1) / rr.run;
  const int c = int(blockIdx.z) / runs, K0 = int(blockIdx.z) % runs * rr.run, K1 = min(K0 + rr.run, rr.coarse.nz);
  const int I = I0 + li, J = J0 + lj;
  const double sxy = taps_inside(I, x.nx) * taps_inside(J, x.ny);
  // The thread's tile cells (q, a flat index into a tile) at their offsets in plane 0, -1 for those
  // outside the grid: found once, then moved up a plane at a time.
  int64_t at[per_thread];
#pragma unroll
  for (int n = 0; n < per_thread; ++n) {
    const int q = int(threadIdx.x) + n * rthreads, i = 2 * I0 - 1 + q % rx, j = 2 * J0 - 1 + q / rx;
    at[n] = q < rx * ry && i >= 0 && i < x.nx && j >= 0 && j < x.ny ? x.offset(i, j) : -1;
  }
  // Fine plane kf's terms as the hat's plane e into sum and as plane ea into above (walk_up's add); a
  // plane outside the grid adds none (the same for the whole block: its barrier stays common).
  auto add = [&](int kf, double& sum, int e, double& above, int ea) {
    if (kf < 0 || kf >= x.nz) return;
    T* t = tile[kf & 1];
#pragma unroll
    for (int n = 0; n < per_thread; ++n)
      if (const int q = int(threadIdx.x) + n * rthreads; q < rx * ry)
        t[q] = at[n] >= 0 ? residual_at(rr.op, x, rr.b, c, at[n] + int64_t(kf) * x.plane) : T(0);
    __syncthreads();
    double parts[4];
#pragma unroll
    for (int b = 0; b < 4; ++b) {
      const auto lo = load_pair(t + (2 * lj + b) * rx + 2 * li), hi = load_pair(t + (2 * lj + b) * rx + 2 * li + 2);
      const T cells[4] = {lo.x, lo.y, hi.x, hi.y};
      parts[b] = detail::row_part(cells);
    }
    detail::add_plane(sum, e, parts);
    detail::add_plane(above, ea, parts);
  };
  walk_up(K0, K1, add, [&](int K, double sum) {
    if (I < rr.coarse.nx && J < rr.coarse.ny) rr.coarse(c, I, J, K) = T(sum / (sxy * taps_inside(K, x.nz)));
  });
}

template <class T>
struct Prolongation {
  FieldView<const T> coarse;
  FieldView<T> fine;
  FieldBoundary bc;
  detail::AxisMaps3 m;
  int run;  // fine planes a thread takes
};

template <class T>
__global__ void __launch_bounds__(threads) prolong3_walk_kernel(const __grid_constant__ Prolongation<T> p) {
  begin_dependent_grid();
  const int I = int(blockIdx.x) * tx + int(threadIdx.x) % tx, j = int(blockIdx.y) * ty + int(threadIdx.x) / tx;
  const int runs = (p.fine.nz + p.run - 1) / p.run;
  const int c = int(blockIdx.z) / runs, k0 = int(blockIdx.z) % runs * p.run, k1 = min(k0 + p.run, p.fine.nz);
  if (I >= p.coarse.nx || j >= p.fine.ny) return;
  const int i = 2 * I;  // the pair's cells i and i + 1 lie between coarse cells I - 1, I and I, I + 1
  double tx0, tx1, ty, tz;
  const int left = detail::lower_of(p.m.x.coarse_coord(i), tx0), J = detail::lower_of(p.m.y.coarse_coord(j), ty);
  (void)detail::lower_of(p.m.x.coarse_coord(i + 1), tx1);
  const int64_t pitch = p.coarse.pitch;
  const T* column = p.coarse.comp(c) + p.coarse.offset(left, J);
  // The x and y interpolations of coarse plane K at the pair's cells.
  auto plane = [&](int K, double (&v)[2]) {
    const T* s = column + int64_t(K) * p.coarse.plane;
    v[0] = detail::bilinear(s, pitch, tx0, ty);
    v[1] = detail::bilinear(s + 1, pitch, tx1, ty);
  };
  int K = detail::lower_of(p.m.z.coarse_coord(k0), tz);
  double below[2], above[2];
  plane(K, below);
  plane(K + 1, above);
  T* pair = p.fine.comp(c) + p.fine.offset(i, j);
  for (int k = k0; k < k1; ++k) {
    if (detail::lower_of(p.m.z.coarse_coord(k), tz) != K) {  // one plane up, every second fine plane
      ++K;
      below[0] = above[0], below[1] = above[1];
      plane(K + 1, above);
    }
    T* to = pair + int64_t(k) * p.fine.plane;
    const auto old = load_pair(to);
    const T a = old.x + T((1 - tz) * below[0] + tz * above[0]), e = old.y + T((1 - tz) * below[1] + tz * above[1]);
    store_pair(to, a, e);
    push_cell_images(p.fine, p.bc, c, i, j, k, a);
    push_cell_images(p.fine, p.bc, c, i + 1, j, k, e);
  }
}

}  // namespace transfer3_walk_detail

template <class T>
void restrict3_walk(const Cuda& ex, FieldView<const T> fine, FieldView<T> coarse_b, unsigned open) {
  using namespace transfer3_walk_detail;
  const CudaContext& ctx = *ex.context;
  const detail::AxisMaps3 m = detail::AxisMaps3::between(fine, coarse_b, open);
  int lo, hi;
  detail::inside_run(m.z, coarse_b.nz, lo, hi);
  const auto kernel = restrict3_walk_kernel<T>;
  const int run = run_length(ctx, reinterpret_cast<const void*>(kernel), tx, ty, coarse_b.nx, coarse_b.ny, coarse_b.nz, coarse_b.ncomp, 8);
  const dim3 grid(unsigned((coarse_b.nx + tx - 1) / tx), unsigned((coarse_b.ny + ty - 1) / ty),
                  unsigned(coarse_b.ncomp * ((coarse_b.nz + run - 1) / run)));
  launch(ctx, "restrict3_walk_kernel", kernel, grid, dim3(threads), 0, Restriction<T>{fine, coarse_b, m, lo, hi, run});
}

template <class T, bool Tensor>
void restrict_residual3_walk(const Cuda& ex, const Helmholtz3<T, Tensor>& op, FieldView<const T> x, FieldView<const T> b,
                             FieldView<T> coarse_b) {
  using namespace transfer3_walk_detail;
  const CudaContext& ctx = *ex.context;
  const auto kernel = residual_restrict3_kernel<T, Tensor>;
  const int run = run_length(ctx, reinterpret_cast<const void*>(kernel), rtx, rty, coarse_b.nx, coarse_b.ny, coarse_b.nz, coarse_b.ncomp, 16);
  const dim3 grid(unsigned((coarse_b.nx + rtx - 1) / rtx), unsigned((coarse_b.ny + rty - 1) / rty),
                  unsigned(coarse_b.ncomp * ((coarse_b.nz + run - 1) / run)));
  launch(ctx, "residual_restrict3_kernel", kernel, grid, dim3(rthreads), 0, ResidualRestriction<T, Tensor>{op, x, b, coarse_b, run});
}

template <class T>
void prolong_add3_walk(const Cuda& ex, FieldView<const T> coarse, FieldView<T> fine, const FieldBoundary& fine_bc) {
  using namespace transfer3_walk_detail;
  const CudaContext& ctx = *ex.context;
  const auto kernel = prolong3_walk_kernel<T>;
  const int run = run_length(ctx, reinterpret_cast<const void*>(kernel), tx, ty, coarse.nx, fine.ny, fine.nz, fine.ncomp, 16);
  const dim3 grid(unsigned((coarse.nx + tx - 1) / tx), unsigned((fine.ny + ty - 1) / ty), unsigned(fine.ncomp * ((fine.nz + run - 1) / run)));
  launch(ctx, "prolong3_walk_kernel", kernel, grid, dim3(threads), 0,
         Prolongation<T>{coarse, fine, fine_bc, detail::AxisMaps3::between(fine, coarse), run});
}

template void restrict3_walk<float>(const Cuda&, FieldView<const float>, FieldView<float>, unsigned);
template void restrict3_walk<double>(const Cuda&, FieldView<const double>, FieldView<double>, unsigned);
template void restrict_residual3_walk<float, false>(const Cuda&, const Helmholtz3<float, false>&, FieldView<const float>,
                                                   FieldView<const float>, FieldView<float>);
template void restrict_residual3_walk<float, true>(const Cuda&, const Helmholtz3<float, true>&, FieldView<const float>,
                                                  FieldView<const float>, FieldView<float>);
template void restrict_residual3_walk<double, false>(const Cuda&, const Helmholtz3<double, false>&, FieldView<const double>,
                                                    FieldView<const double>, FieldView<double>);
template void restrict_residual3_walk<double, true>(const Cuda&, const Helmholtz3<double, true>&, FieldView<const double>,
                                                   FieldView<const double>, FieldView<double>);
template void prolong_add3_walk<float>(const Cuda&, FieldView<const float>, FieldView<float>, const FieldBoundary&);
template void prolong_add3_walk<double>(const Cuda&, FieldView<const double>, FieldView<double>, const FieldBoundary&);

}  // namespace pdex
