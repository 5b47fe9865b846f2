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
  const int gx0 = int(blockIdx.x) * C::tx - C::steps, gy0 = int(blockIdx.y) * C::ty - C::steps;
  const Spacing<T> sh = Spacing<T>{rhs.h.idx, rhs.h.idy, rhs.h.idx2, rhs.h.idy2, rhs.h.ihdx, rhs.h.ihdy, C::w};

  for (int k = threadIdx.x; k < C::cells; k += C::threads) {
    const int64_t o = in.offset(wrap(gx0 + k % C::w, in.nx), wrap(gy0 + k / C::w, in.ny));
    buf[k] = in.comp(0)[o];
    buf[C::cells + k] = in.comp(1)[o];
  }
  __syncthreads();

  int cur = 0;
  for (int s = 1; s <= C::steps; ++s) {
    const T* u = buf + cur * 2 * C::cells;
    T* next = buf + (1 - cur) * 2 * C::cells;
    const int lo = s, wi = C::w - 2 * s, hi = C::hgt - 2 * s;  // cells still exact after s steps
    for (int k = threadIdx.x; k < wi * hi; k += C::threads) {
      const int x = lo + k % wi, y = lo + k / wi, so = y * C::w + x;
      const int64_t po = in.offset(wrap(gx0 + x, in.nx), wrap(gy0 + y, in.ny));
      T r[2];
      rhs.eval(u, u + C::cells, so, sh, po, r);
      next[so] = rhs.limit(0, u[so] + dt * r[0]);
      next[C::cells + so] = rhs.limit(1, u[C::cells + so] + dt * r[1]);
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
