#pragma once
// Forward Euler on CUDA for 3D grids of two species with isotropic diffusion, one pass a step: each
// thread walks a pair of neighbouring columns of one row up through a run of planes, holding the pairs
// below, at and above the plane it updates in registers, so that a pair's two seven-point stencils take
// five loads a species (three of them vectors) instead of fourteen, and no cell works out its plane by
// division. Pairs by an x or y side walk too, reading the ghosts as the generic step does; a second
// launch then pushes the in-plane images of the cells by those sides (a thread pushing them in the walk
// held up its whole warp). Pairs cut by the box's x range step cell by cell as the generic step does
// (EulerCell3D). The arithmetic is the right-hand side's own: ArdRhs3D::eval_column is its operator() on
// values from registers, so both paths give the same bits.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "pdex/core/cuda/cuda_context.hpp"
#include "pdex/core/cuda/launch.cuh"
#include "pdex/core/cuda/vec2.cuh"
#include "pdex/core/executor.hpp"
#include "pdex/time/forward_euler.hpp"

namespace pdex {

namespace columns_detail {

constexpr int block_pairs = 32, block_rows = 8;  // a block: a warp's 32 pairs of columns by 8 rows
// Blocks an SM holds at the least, which caps the registers: f32 walks fastest with three blocks (80
// registers), f64 with two (more blocks spill).
template <class T>
constexpr int resident_blocks = sizeof(T) == sizeof(float) ? 3 : 2;

template <class T, class Rhs>
struct ColumnStep {
  using V = typename Vec2<T>::type;
  EulerCell3D<T, Rhs> cell;
  int lo[3], hi[3];  // the box of cells stepped
  int planes;        // planes a thread walks

  // Cells i0 and i0 + 1 (i0 even) of row j in planes k0 .. k1 - 1, their z images pushed (not those in
  // their plane: SideImages).
  __device__ void walk(int i0, int j, int k0, int k1) const {
    const Rhs& rhs = cell.cell.rhs;
    const FieldView<const T>& in = cell.cell.in;
    const FieldView<T>& out = cell.cell.out;
    const T dt = cell.cell.dt;
    const T* u = in.comp(0);
    const T* v = in.comp(1);
    const int64_t pitch = in.pitch, plane = in.plane;
    int64_t o = in.offset(i0, j, k0);
    V ub = load_pair(u + o - plane), uc = load_pair(u + o), vb = load_pair(v + o - plane), vc = load_pair(v + o);
#pragma unroll 2
    for (int k = k0; k < k1; ++k, o += plane) {
      const V ua = load_pair(u + o + plane), va = load_pair(v + o + plane);
      const V us = load_pair(u + o - pitch), un = load_pair(u + o + pitch);
      const V vs = load_pair(v + o - pitch), vn = load_pair(v + o + pitch);
      const T uw = u[o - 1], ue = u[o + 2], vw = v[o - 1], ve = v[o + 2];
      T r0[2], r1[2];
      rhs.eval_column({uc.x, uw, uc.y, us.x, un.x}, {vc.x, vw, vc.y, vs.x, vn.x}, ub.x, ua.x, vb.x, va.x, o, r0);
      rhs.eval_column({uc.y, uc.x, ue, us.y, un.y}, {vc.y, vc.x, ve, vs.y, vn.y}, ub.y, ua.y, vb.y, va.y, o + 1, r1);
      store_pair(out.comp(0) + o, rhs.limit(0, uc.x + dt * r0[0]), rhs.limit(0, uc.y + dt * r1[0]));
      store_pair(out.comp(1) + o, rhs.limit(1, vc.x + dt * r0[1]), rhs.limit(1, vc.y + dt * r1[1]));
      if (near_z_side(out, k)) cell.push_z(i0, j, k), cell.push_z(i0 + 1, j, k);
      ub = uc, uc = ua, vb = vc, vc = va;
    }
  }

  // The same cells (those of them in the box) one at a time, with their images: a pair the box cuts.
  __device__ void cells(int i0, int j, int k0, int k1) const {
    const int i1 = min(i0 + 2, hi[0]);
#pragma unroll 1
    for (int k = k0; k < k1; ++k)
      for (int i = max(i0, lo[0]); i < i1; ++i) cell.template apply<true>(i, cell.planes.row(k, j));
  }
};

template <class T, class Rhs>
__global__ void __launch_bounds__(block_pairs * block_rows, resident_blocks<T>) euler_columns_kernel(ColumnStep<T, Rhs> step) {
  begin_dependent_grid();
  const int i0 = (step.lo[0] & ~1) + 2 * int(blockIdx.x * block_pairs + threadIdx.x);
  const int j = step.lo[1] + int(blockIdx.y * block_rows + threadIdx.y);
  const int k0 = step.lo[2] + int(blockIdx.z) * step.planes, k1 = min(k0 + step.planes, step.hi[2]);
  if (i0 >= step.hi[0] || j >= step.hi[1]) return;
  if (i0 < step.lo[0] || i0 + 1 >= step.hi[0]) return step.cells(i0, j, k0, k1);
  step.walk(i0, j, k0, k1);
}

// The cells of a box by an x or y side, plane by plane: every cell of the rows with y images (the first
// low_rows rows of the box, and those from high_row), then, in the rows between (from inner_row), the
// cells of the columns with x images (the first low_cols columns, and those from high_col).
template <class T, class Rhs>
struct SideImages {
  EulerCell3D<T, Rhs> cell;
  int lo[3], width;
  int low_rows, high_row, side_rows, inner_row, inner_rows;
  int low_cols, high_col, side_cols;

  SideImages(const EulerCell3D<T, Rhs>& c, const int (&l)[3], const int (&h)[3]) : cell(c), lo{l[0], l[1], l[2]}, width(h[0] - l[0]) {
    const FieldView<T>& out = c.cell.out;
    const int g = out.ghost;
    inner_row = std::min(std::max(l[1], g), h[1]), high_row = std::max(inner_row, std::min(h[1], out.ny - g));
    low_rows = inner_row - l[1], side_rows = low_rows + h[1] - high_row, inner_rows = high_row - inner_row;
    const int inner_col = std::min(std::max(l[0], g), h[0]);
    high_col = std::max(inner_col, std::min(h[0], out.nx - g));
    low_cols = inner_col - l[0], side_cols = low_cols + h[0] - high_col;
  }
  int per_plane() const { return side_rows * width + side_cols * inner_rows; }

  // The n-th side cell of a plane (n < per_plane()).
  PDEX_HD void cell_at(int n, int& i, int& j) const {
    if (n < side_rows * width) {
      const int s = n / width;
      i = lo[0] + n % width, j = s < low_rows ? lo[1] + s : high_row + s - low_rows;
      return;
    }
    n -= side_rows * width;
    const int c = n % side_cols;
    i = c < low_cols ? lo[0] + c : high_col + c - low_cols, j = inner_row + n / side_cols;
  }

  // The n-th side cell of plane k: its in-plane images, from the value stored.
  __device__ void operator()(int n, int k) const {
    int i, j;
    cell_at(n, i, j);
    const FieldView<T> p = cell.cell.out.in_plane(k);
    const int64_t o = p.offset(i, j);
    for (int c = 0; c < Rhs::ncomp; ++c) push_ghosts(p, cell.cell.bc, c, i, j, p.comp(c)[o]);
  }
};

template <class T, class Rhs>
__global__ void __launch_bounds__(256) side_images_kernel(SideImages<T, Rhs> sides, int count) {
  begin_dependent_grid();
  const int n = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (n < count) sides(n, sides.lo[2] + int(blockIdx.y));
}

// Planes a thread walks: as many as leave four waves of resident threads over the box (a longer walk
// loads fewer planes twice), at least four.
inline int walk_planes(const CudaContext& ctx, int64_t pair_columns, int depth) {
  const int64_t threads = int64_t(4) * ctx.multiprocessors() * 2048;
  const int64_t planes = pair_columns * depth / threads;
  return int(std::clamp<int64_t>(planes, std::min(4, depth), depth));
}

}  // namespace columns_detail

// One forward Euler step of the cells of the box [lo, hi) of a 3D field (x, y, z), from `in` to `out`,
// ghosts of `out` written as its cells are, as euler_step_3d_cells steps them.
template <class T, class Rhs>
void euler_columns(const Cuda& ex, const Rhs& rhs, FieldView<const T> in, FieldView<T> out, const FieldBoundary& bc,
                   T dt, const int (&lo)[3], const int (&hi)[3]) {
  using namespace columns_detail;
  if (lo[0] >= hi[0] || lo[1] >= hi[1] || lo[2] >= hi[2]) return;
  const CudaContext& ctx = *ex.context;
  const int pairs = (hi[0] - (lo[0] & ~1) + 1) / 2, rows = hi[1] - lo[1], depth = hi[2] - lo[2];
  ColumnStep<T, Rhs> step{{{rhs, in, out, bc, dt}, Members{in.nz, in.ny, in.ghost}}, {lo[0], lo[1], lo[2]},
                          {hi[0], hi[1], hi[2]}, walk_planes(ctx, int64_t(pairs) * rows, depth)};
  const dim3 grid(unsigned((pairs + block_pairs - 1) / block_pairs), unsigned((rows + block_rows - 1) / block_rows),
                  unsigned((depth + step.planes - 1) / step.planes));
  launch(ctx, "euler_columns", euler_columns_kernel<T, Rhs>, grid, dim3(block_pairs, block_rows), 0, step);
  const SideImages<T, Rhs> sides(step.cell, lo, hi);
  const int count = sides.per_plane();
  if (count > 0)
    launch(ctx, "euler_columns_sides", side_images_kernel<T, Rhs>, dim3(unsigned((count + 255) / 256), unsigned(depth)), dim3(256), 0,
           sides, count);
}

}  // namespace pdex
