#pragma once
// A temporally blocked schedule of forward Euler for fully periodic, isotropic runs on CUDA: each block
// copies a tile plus a halo of K cells into shared memory, takes K steps there (the valid region
// shrinking by one cell a step), and writes back the tile's centre and its ghost images. One launch
// and one pass over memory then do K steps, which removes the per-launch floor that bounds small grids
// (seed 000's 512x512 Table 1 run) and divides memory traffic by K on large ones. The arithmetic is the
// model's own right-hand side (ArdRhs::eval) applied to the tile: the same kernel body as every
// other schedule, only the order of work differs.
#include <cuda_runtime.h>

#include <cstdint>

#include "pdex/core/cuda/cuda_check.hpp"
#include "pdex/core/cuda/cuda_context.hpp"
#include "pdex/core/executor.hpp"
#include "pdex/grid/boundary.hpp"
#include "pdex/grid/field_view.hpp"
#include "pdex/grid/stencil.hpp"
#include "pdex/time/euler_tiles_shape.hpp"

namespace pdex {

namespace tiles_detail {

PDEX_HD inline int wrap(int i, int n) {
  const int r = i % n;
  return r < 0 ? r + n : r;
}

template <class T, class Rhs>
__global__ void __launch_bounds__(EulerTiles<T>::threads)
    euler_tiles_kernel(Rhs rhs, FieldView<const T> in, FieldView<T> out, FieldBoundary bc, T dt) {
  using C = EulerTiles<T>;
  extern __shared__ unsigned char raw[];
  T* buf = reinterpret_cast<T*>(raw);  // [buffer][species][cell]
  // Global offsets of the tile's rows and columns, wrapped once here rather than in every step.
  __shared__ int64_t row_off[C::hgt];
  __shared__ int col_off[C::w];
  const int gx0 = int(blockIdx.x) * C::tx - C::steps, gy0 = int(blockIdx.y) * C::ty - C::steps;
  for (int k = threadIdx.x; k < C::hgt; k += C::threads) row_off[k] = in.offset(0, wrap(gy0 + k, in.ny));
  for (int k = threadIdx.x; k < C::w; k += C::threads) col_off[k] = wrap(gx0 + k, in.nx);
  __syncthreads();
  const Spacing<T> sh{rhs.h.idx, rhs.h.idy, rhs.h.idx2, rhs.h.idy2, rhs.h.ihdx, rhs.h.ihdy, C::w};

  for (int k = threadIdx.x; k < C::cells; k += C::threads) {  // C::w is a constant: no division here
    const int64_t o = row_off[k / C::w] + col_off[k % C::w];
    buf[k] = in.comp(0)[o];
    buf[C::cells + k] = in.comp(1)[o];
  }
  __syncthreads();

  int cur = 0;
  for (int s = 1; s <= C::steps; ++s) {
    const T* u = buf + cur * 2 * C::cells;
    T* next = buf + (1 - cur) * 2 * C::cells;
    for (int k = threadIdx.x; k < C::cells; k += C::threads) {
      const int x = k % C::w, y = k / C::w;
      if (x < s || x >= C::w - s || y < s || y >= C::hgt - s) continue;  // not exact after s steps
      T r[2];
      rhs.eval(u, u + C::cells, k, sh, row_off[y] + col_off[x], r);
      next[k] = rhs.limit(0, u[k] + dt * r[0]);
      next[C::cells + k] = rhs.limit(1, u[C::cells + k] + dt * r[1]);
    }
    cur = 1 - cur;
    __syncthreads();
  }

  const T* u = buf + cur * 2 * C::cells;
  for (int k = threadIdx.x; k < C::tx * C::ty; k += C::threads) {
    const int i = gx0 + C::steps + k % C::tx, j = gy0 + C::steps + k / C::tx;
    if (i >= out.nx || j >= out.ny) continue;
    const int so = (j - gy0) * C::w + (i - gx0);
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

// Advances EulerTiles<T>::steps steps from `in` to `out` in one launch.
template <class T, class Rhs>
void euler_tiles(const Cuda& ex, const Rhs& rhs, FieldView<const T> in, FieldView<T> out, const FieldBoundary& bc,
                 T dt) {
  using C = EulerTiles<T>;
  const dim3 grid(unsigned((in.nx + C::tx - 1) / C::tx), unsigned((in.ny + C::ty - 1) / C::ty));
  tiles_detail::euler_tiles_kernel<T, Rhs>
      <<<grid, C::threads, C::shared_bytes, ex.context->stream()>>>(rhs, in, out, bc, dt);
  PDEX_CUDA_CHECK_LAUNCH("euler_tiles");
}

}  // namespace pdex
