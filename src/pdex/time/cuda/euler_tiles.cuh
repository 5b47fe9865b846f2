#pragma once
// A temporally blocked schedule of forward Euler for fully periodic, isotropic runs on CUDA: each block
// copies a tile plus a halo of K cells into shared memory, takes K steps there (the valid region
// shrinking by one cell a step), and writes back the tile's centre and its ghost images. One launch
// and one pass over memory then do K steps, which removes the per-launch floor that bounds small grids
// (seed 000's 512x512 Table 1 run) and divides memory traffic by K on large ones. Within a step each
// thread walks a few cells down one column (ColumnStars), every cell of the haloed tile is updated
// without a test, and the arithmetic is the model's own right-hand side (ArdRhs::eval_star): the same
// kernel body as every other schedule, only the order of work differs.
#include <cuda_runtime.h>

#include <cstdint>

#include "pdex/core/cuda/cuda_check.hpp"
#include "pdex/core/cuda/cuda_context.hpp"
#include "pdex/core/cuda/launch.cuh"
#include "pdex/core/executor.hpp"
#include "pdex/grid/boundary.hpp"
#include "pdex/grid/field_view.hpp"
#include "pdex/grid/stencil.hpp"
#include "pdex/time/cuda/column_stars.cuh"
#include "pdex/time/euler_tiles_shape.hpp"

namespace pdex {

namespace tiles_detail {

PDEX_HD inline int wrap(int i, int n) {
  const int r = i % n;
  return r < 0 ? r + n : r;
}

// Zeroes the ring of cells around a C::w x C::hgt region (x = -1 or w, y = -1 or hgt; row pitch
// C::pitch = w + 2) in each of `buffers` buffers of C::cells values. Kernels read the ring and never
// write it: it only has to hold finite values.
template <class C, class T>
__device__ void zero_ring(T* buf, int buffers) {
  auto at = [](int x, int y) { return (y + 1) * C::pitch + x + 1; };
  for (int k = threadIdx.x; k < buffers * (C::w + 2); k += C::threads) {
    T* b = buf + k / (C::w + 2) * C::cells;
    b[at(k % (C::w + 2) - 1, -1)] = b[at(k % (C::w + 2) - 1, C::hgt)] = T(0);
  }
  for (int k = threadIdx.x; k < buffers * C::hgt; k += C::threads) {
    T* b = buf + k / C::hgt * C::cells;
    b[at(-1, k % C::hgt)] = b[at(C::w, k % C::hgt)] = T(0);
  }
}

// C: the tile shape (EulerTiles).
template <class C, class T, class Rhs>
__global__ void __launch_bounds__(C::threads, C::min_blocks)
    euler_tiles_kernel(Rhs rhs, FieldView<const T> in, FieldView<T> out, FieldBoundary bc, T dt) {
  begin_dependent_grid();
  extern __shared__ unsigned char raw[];
  T* buf = reinterpret_cast<T*>(raw);  // [buffer][species][cell], cell (x, y) of the haloed tile at at(x, y)
  auto at = [](int x, int y) { return (y + 1) * C::pitch + x + 1; };
  // Global offsets of the tile's rows and columns, wrapped once here rather than in every step.
  __shared__ int64_t row_off[C::hgt];
  __shared__ int col_off[C::w];
  const int gx0 = int(blockIdx.x) * C::tx - C::steps, gy0 = int(blockIdx.y) * C::ty - C::steps;
  for (int k = threadIdx.x; k < C::hgt; k += C::threads) row_off[k] = in.offset(0, wrap(gy0 + k, in.ny));
  for (int k = threadIdx.x; k < C::w; k += C::threads) col_off[k] = wrap(gx0 + k, in.nx);
  zero_ring<C>(buf, 4);
  __syncthreads();
  for (int k = threadIdx.x; k < C::w * C::hgt; k += C::threads) {  // C::w is a constant: no division here
    const int x = k % C::w, y = k / C::w;
    const int64_t o = row_off[y] + col_off[x];
    buf[at(x, y)] = in.comp(0)[o];
    buf[C::cells + at(x, y)] = in.comp(1)[o];
  }
  __syncthreads();

  // Each thread owns rows y0 .. y0 + rows - 1 of column x in every step.
  const int x = threadIdx.x % C::w, y0 = threadIdx.x / C::w * C::rows;
  const int col = col_off[x];
  decltype(rhs.at(0)) cell_rhs[C::rows];  // parameters do not change between steps: read them once
#pragma unroll
  for (int k = 0; k < C::rows; ++k) cell_rhs[k] = rhs.at(row_off[y0 + k] + col);
  int cur = 0;
  for (int s = 0; s < C::steps; ++s) {
    const T* u = buf + cur * 2 * C::cells + at(x, y0);
    T* next = buf + (1 - cur) * 2 * C::cells + at(x, y0);
    ColumnStars<T, C::rows> su, sv;
    su.load(u, C::pitch);
    sv.load(u + C::cells, C::pitch);
#pragma unroll
    for (int k = 0; k < C::rows; ++k) {
      T r[2];
      cell_rhs[k].eval_star(su[k], sv[k], rhs.h, 0, r);
      next[k * C::pitch] = rhs.limit(0, su[k].c + dt * r[0]);
      next[C::cells + k * C::pitch] = rhs.limit(1, sv[k].c + dt * r[1]);
    }
    cur = 1 - cur;
    __syncthreads();
  }

  const T* u = buf + cur * 2 * C::cells;
  for (int k = threadIdx.x; k < C::tx * C::ty; k += C::threads) {
    const int tx = k % C::tx, ty = k / C::tx;
    const int i = gx0 + C::steps + tx, j = gy0 + C::steps + ty;
    if (i >= out.nx || j >= out.ny) continue;
    const int so = at(C::steps + tx, C::steps + ty);
    const int64_t o = out.offset(i, j);
    const bool edge = near_boundary(out, i, j);
    for (int c = 0; c < 2; ++c) {
      const T val = u[c * C::cells + so];
      out.comp(c)[o] = val;
      if (edge) push_ghosts(out, bc, c, i, j, val);
    }
  }
}

}  // namespace tiles_detail

// Advances C::steps steps from `in` to `out` in one launch.
template <class T, class Rhs, class C = EulerTiles<T>>
void euler_tiles(const Cuda& ex, const Rhs& rhs, FieldView<const T> in, FieldView<T> out, const FieldBoundary& bc,
                 T dt) {
  const auto kernel = tiles_detail::euler_tiles_kernel<C, T, Rhs>;
  if constexpr (C::shared_bytes > 48 * 1024) {
    static const bool opted_in = [&] {  // once per kernel: shared memory beyond 48 KB must be asked for
      PDEX_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(C::shared_bytes)));
      return true;
    }();
    (void)opted_in;
  }
  const dim3 grid(unsigned((in.nx + C::tx - 1) / C::tx), unsigned((in.ny + C::ty - 1) / C::ty));
  launch(*ex.context, "euler_tiles", kernel, grid, dim3(C::threads), C::shared_bytes, rhs, in, out, bc, dt);
}

}  // namespace pdex
