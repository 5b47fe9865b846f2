// The 3D forward-Euler step on the GPU by columns (time/cuda/euler_columns.cuh) against the generic cell
// kernel (euler_step_3d_cells), on the engine's own headers: Gray-Scott on n^3 cells, periodic, constant
// parameters, ms a step (median of five timed runs of 20 steps after a warm-up), and whether one step of
// each gives the same bits, ghosts included (docs/performance.md, "3D grids"), and two designs with more
// bytes in flight (namespace variants), measured and not taken. Build with the fast or the
// optimized engine library next to it, run on a GPU machine:
//   nvcc -DPDEX_HAVE_CUDA=1 -Isrc -O3 -arch=sm_90 --extended-lambda --expt-relaxed-constexpr -std=c++20 \
//     -c bench/columns_probe.cu -o columns_probe.o
//   nvcc -o columns_probe columns_probe.o build/src/libpdex_engine.a -Xcompiler=-fopenmp -ldl
//   ./columns_probe [n = 512] [f32|f64]
// The kernels timed are compiled here, optimized: a fast-compile library's warning does not concern them.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <vector>

#include "pdex/core/cuda/cuda_context.hpp"
#include "pdex/grid/field.hpp"
#include "pdex/grid/fill_ghosts.hpp"
#include "pdex/models/ard/ard_rhs.hpp"
#include "pdex/models/ard/kinetics/gray_scott.hpp"
#include "pdex/time/cuda/euler_columns.cuh"
#include "pdex/time/forward_euler.hpp"

#include <cuda_pipeline.h>

namespace pdex {
void load_engine_kernels() {}  // the probe's kernels are its own instantiations
}  // namespace pdex

using namespace pdex;


namespace variants {
using namespace pdex::columns_detail;

// The walk with the plane two above loaded an iteration ahead.
template <class T, class Rhs>
__device__ void walk2(const ColumnStep<T, Rhs>& s, int i0, int j, int k0, int k1) {
  using V = typename Vec2<T>::type;
  const Rhs& rhs = s.cell.cell.rhs;
  const FieldView<const T>& in = s.cell.cell.in;
  const FieldView<T>& out = s.cell.cell.out;
  const T dt = s.cell.cell.dt;
  const T* u = in.comp(0);
  const T* v = in.comp(1);
  const int64_t pitch = in.pitch, plane = in.plane;
  int64_t o = in.offset(i0, j, k0);
  V ub = load_pair(u + o - plane), uc = load_pair(u + o), vb = load_pair(v + o - plane), vc = load_pair(v + o);
  V ua = load_pair(u + o + plane), va = load_pair(v + o + plane);
#pragma unroll 2
  for (int k = k0; k < k1; ++k, o += plane) {
    V ua2 = ua, va2 = va;
    if (k + 2 <= k1) ua2 = load_pair(u + o + 2 * plane), va2 = load_pair(v + o + 2 * plane);
    const V us = load_pair(u + o - pitch), un = load_pair(u + o + pitch);
    const V vs = load_pair(v + o - pitch), vn = load_pair(v + o + pitch);
    const T uw = u[o - 1], ue = u[o + 2], vw = v[o - 1], ve = v[o + 2];
    T r0[2], r1[2];
    rhs.eval_column({uc.x, uw, uc.y, us.x, un.x}, {vc.x, vw, vc.y, vs.x, vn.x}, ub.x, ua.x, vb.x, va.x, o, r0);
    rhs.eval_column({uc.y, uc.x, ue, us.y, un.y}, {vc.y, vc.x, ve, vs.y, vn.y}, ub.y, ua.y, vb.y, va.y, o + 1, r1);
    store_pair(out.comp(0) + o, rhs.limit(0, uc.x + dt * r0[0]), rhs.limit(0, uc.y + dt * r1[0]));
    store_pair(out.comp(1) + o, rhs.limit(1, vc.x + dt * r0[1]), rhs.limit(1, vc.y + dt * r1[1]));
    if (near_z_side(out, k)) s.cell.push_z(i0, j, k), s.cell.push_z(i0 + 1, j, k);
    ub = uc, uc = ua, vb = vc, vc = va, ua = ua2, va = va2;
  }
}

template <class T, class Rhs>
__global__ void __launch_bounds__(block_pairs * block_rows, resident_blocks<T>) walk2_kernel(ColumnStep<T, Rhs> step) {
  begin_dependent_grid();
  const int i0 = (step.lo[0] & ~1) + 2 * int(blockIdx.x * block_pairs + threadIdx.x);
  const int j = step.lo[1] + int(blockIdx.y * block_rows + threadIdx.y);
  const int k0 = step.lo[2] + int(blockIdx.z) * step.planes, k1 = min(k0 + step.planes, step.hi[2]);
  if (i0 >= step.hi[0] || j >= step.hi[1]) return;
  if (i0 < step.lo[0] || i0 + 1 >= step.hi[0]) return step.cells(i0, j, k0, k1);
  walk2(step, i0, j, k0, k1);
}

// Tiles of 64 x 8 cells walking up through planes, each plane's tile (and its rim) copied into shared
// memory asynchronously, Ring - 3 planes ahead of the one stepped.
template <class T> constexpr int halo = 16 / int(sizeof(T));
constexpr int tile_x = 64, tile_y = 8;
template <class T> constexpr int tile_w = tile_x + 2 * halo<T>;
template <class T> constexpr int tile_values = (tile_y + 2) * tile_w<T>;
template <class T, int Ring> constexpr int tile_bytes = Ring * 2 * tile_values<T> * int(sizeof(T));

template <class T, class Rhs, int Ring>
__global__ void __launch_bounds__(256) tiles_kernel(ColumnStep<T, Rhs> step) {
  using V = typename Vec2<T>::type;
  extern __shared__ __align__(16) unsigned char raw[];
  T* const sm = reinterpret_cast<T*>(raw);
  begin_dependent_grid();
  constexpr int H = halo<T>, W = tile_w<T>, P = tile_values<T>, chunks = W / H, per_species = (tile_y + 2) * chunks;
  const FieldView<const T>& in = step.cell.cell.in;
  const FieldView<T>& out = step.cell.cell.out;
  const Rhs& rhs = step.cell.cell.rhs;
  const T dt = step.cell.cell.dt;
  const int x0 = (step.lo[0] & ~(H - 1)) + tile_x * int(blockIdx.x), j0 = step.lo[1] + tile_y * int(blockIdx.y);
  const int k0 = step.lo[2] + int(blockIdx.z) * step.planes, k1 = min(k0 + step.planes, step.hi[2]);
  const int t = int(threadIdx.y * 32 + threadIdx.x);
  const auto issue = [&](int p, int q) {
    if (p <= k1)
      for (int n = t; n < 2 * per_species; n += 256) {
        const int c = n / per_species, r = n % per_species / chunks, ch = n % chunks;
        const int x = x0 - H + ch * H, y = min(j0 - 1 + r, step.hi[1]);
        if (x <= step.hi[0]) __pipeline_memcpy_async(sm + (q * 2 + c) * P + r * W + ch * H, in.comp(c) + in.offset(x, y, p), 16);
      }
    __pipeline_commit();
  };
  for (int q = 0; q < Ring - 1; ++q) issue(k0 - 1 + q, q);
  const int i0 = x0 + 2 * int(threadIdx.x), j = j0 + int(threadIdx.y);
  const bool row_in = j < step.hi[1];
  const bool walks = row_in && i0 >= step.lo[0] && i0 + 1 < step.hi[0];
  const bool cut = row_in && !walks && i0 + 2 > step.lo[0] && i0 < step.hi[0];
  const int at = (int(threadIdx.y) + 1) * W + H + 2 * int(threadIdx.x);
  int qb = 0;  // the slot of plane k - 1; plane p lies in slot (p - k0 + 1) % Ring
  for (int k = k0; k < k1; ++k) {
    __pipeline_wait_prior(Ring - 4);  // plane k + 1 has landed
    __syncthreads();                  // everyone's copies too, and plane k - 2 is read by none
    issue(k + Ring - 2, qb == 0 ? Ring - 1 : qb - 1);
    const int qc = qb + 1 == Ring ? 0 : qb + 1, qa = qc + 1 == Ring ? 0 : qc + 1;
    if (walks) {
      const T *ubp = sm + qb * 2 * P + at, *ucp = sm + qc * 2 * P + at, *uap = sm + qa * 2 * P + at;
      const T *vbp = ubp + P, *vcp = ucp + P, *vap = uap + P;
      const V ub = *reinterpret_cast<const V*>(ubp), uc = *reinterpret_cast<const V*>(ucp), ua = *reinterpret_cast<const V*>(uap);
      const V vb = *reinterpret_cast<const V*>(vbp), vc = *reinterpret_cast<const V*>(vcp), va = *reinterpret_cast<const V*>(vap);
      const V us = *reinterpret_cast<const V*>(ucp - W), un = *reinterpret_cast<const V*>(ucp + W);
      const V vs = *reinterpret_cast<const V*>(vcp - W), vn = *reinterpret_cast<const V*>(vcp + W);
      const T uw = ucp[-1], ue = ucp[2], vw = vcp[-1], ve = vcp[2];
      const int64_t o = in.offset(i0, j, k);
      T r0[2], r1[2];
      rhs.eval_column({uc.x, uw, uc.y, us.x, un.x}, {vc.x, vw, vc.y, vs.x, vn.x}, ub.x, ua.x, vb.x, va.x, o, r0);
      rhs.eval_column({uc.y, uc.x, ue, us.y, un.y}, {vc.y, vc.x, ve, vs.y, vn.y}, ub.y, ua.y, vb.y, va.y, o + 1, r1);
      store_pair(out.comp(0) + o, rhs.limit(0, uc.x + dt * r0[0]), rhs.limit(0, uc.y + dt * r1[0]));
      store_pair(out.comp(1) + o, rhs.limit(1, vc.x + dt * r0[1]), rhs.limit(1, vc.y + dt * r1[1]));
      if (near_z_side(out, k)) step.cell.push_z(i0, j, k), step.cell.push_z(i0 + 1, j, k);
    } else if (cut) {
      step.cells(i0, j, k, k + 1);
    }
    qb = qc;
  }
}
}  // namespace variants

namespace {

// A type of its own, so that the probe's kernels do not collide with the engine library's.
template <class T>
struct ProbeRhs : ArdRhs<T, GrayScott<T, Param<T>>, Advection::none, false, Param<T>> {};

template <class T>
struct Probe {
  using Rhs = ArdRhs3D<ProbeRhs<T>>;
  int n;
  Cuda ex{&default_cuda_context()};
  Field<T> a, b;
  Rhs rhs{};
  FieldBoundary bc = FieldBoundary::all(BcKind::periodic);
  T dt = T(0.2);
  int lo[3] = {0, 0, 0}, hi[3];

  explicit Probe(int size) : n(size), hi{size, size, size} {
    Grid2 g{n, n, 1.0, 1.0};
    g.nz = n;
    Field<T> h(g, 2, 1, MemorySpace::host);
    const FieldView<T> v = h.view();
    for (int k = 0; k < n; ++k)
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {  // Pearson's cube in the middle, a little structure elsewhere
          const bool cube = std::abs(i - n / 2) < n / 8 && std::abs(j - n / 2) < n / 8 && std::abs(k - n / 2) < n / 8;
          v(0, i, j, k) = cube ? T(0.5) : T(1);
          v(1, i, j, k) = cube ? T(0.25) : T(0.001) * T((i * 7 + j * 13 + k * 3) % 17);
        }
    fill_ghosts(Serial{}, h, bc);
    a = to_space(h, MemorySpace::device);
    b = to_space(h, MemorySpace::device);
    ProbeRhs<T> r;
    r.reaction = {Param<T>{T(0.037), nullptr, 0}, Param<T>{T(0.06), nullptr, 0}};
    r.D[0] = Param<T>{T(0.2), nullptr, 0};
    r.D[1] = Param<T>{T(0.1), nullptr, 0};
    r.clamp.floor = std::numeric_limits<T>::lowest();
    r.h = Spacing<T>::make(1.0, 1.0, a.view().pitch, 1.0, a.view().plane);
    rhs = Rhs{r};
  }

  void columns(FieldView<const T> in, FieldView<T> out) { euler_columns(ex, rhs, in, out, bc, dt, lo, hi); }
  void cells(FieldView<const T> in, FieldView<T> out) { euler_step_3d_cells(ex, rhs, in, out, bc, dt, lo, hi); }

  columns_detail::ColumnStep<T, Rhs> column_step(FieldView<const T> in, FieldView<T> out, int planes) const {
    return {{{rhs, in, out, bc, dt}, Members{in.nz, in.ny, in.ghost}}, {lo[0], lo[1], lo[2]}, {hi[0], hi[1], hi[2]}, planes};
  }
  void sides(const columns_detail::ColumnStep<T, Rhs>& step) {
    const columns_detail::SideImages<T, Rhs> sides(step.cell, lo, hi);
    const int count = sides.per_plane();
    if (count > 0)
      launch(*ex.context, "sides", columns_detail::side_images_kernel<T, Rhs>, dim3(unsigned((count + 255) / 256), unsigned(n)), dim3(256), 0,
             sides, count);
  }
  void walk2(FieldView<const T> in, FieldView<T> out, int planes) {
    const auto step = column_step(in, out, planes);
    const int pairs = n / 2;
    launch(*ex.context, "walk2", variants::walk2_kernel<T, Rhs>, dim3(unsigned(pairs / 32), unsigned(n / 8), unsigned((n + planes - 1) / planes)),
           dim3(32, 8), 0, step);
    sides(step);
  }
  template <int Ring>
  void tiles(FieldView<const T> in, FieldView<T> out, int planes) {
    const auto step = column_step(in, out, planes);
    constexpr int bytes = variants::tile_bytes<T, Ring>;
    static bool set = false;
    if (!set) cudaFuncSetAttribute(variants::tiles_kernel<T, Rhs, Ring>, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes), set = true;
    launch(*ex.context, "tiles", variants::tiles_kernel<T, Rhs, Ring>,
           dim3(unsigned((n + 63) / 64), unsigned((n + 7) / 8), unsigned((n + planes - 1) / planes)), dim3(32, 8), bytes, step);
    sides(step);
  }

  template <class Step>
  double ms_a_step(Step step) {
    const cudaStream_t s = ex.context->stream();
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0), cudaEventCreate(&e1);
    std::vector<float> ms;
    for (int rep = 0; rep < 6; ++rep) {  // the first is the warm-up
      cudaEventRecord(e0, s);
      for (int k = 0; k < 20; ++k) {
        step(a.cview(), b.view());
        std::swap(a, b);
      }
      cudaEventRecord(e1, s);
      cudaEventSynchronize(e1);
      float m = 0;
      cudaEventElapsedTime(&m, e0, e1);
      if (rep) ms.push_back(m / 20);
    }
    cudaEventDestroy(e0), cudaEventDestroy(e1);
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
  }

  void report(const char* name, double ms) const {
    const double cells = double(n) * n * n;
    std::printf("%-14s n=%d %s %8.3f ms %7.1f Gcell/s %6.0f GB/s moved (4 values a cell)\n", name, n, sizeof(T) == 4 ? "f32" : "f64", ms,
                cells / ms / 1e6, 4.0 * sizeof(T) * cells / ms / 1e6);
  }

  template <class Step>
  bool same_bits(Step step) {
    Field<T> c = to_space(a, MemorySpace::device), d = to_space(a, MemorySpace::device);  // ghost corners alike too
    step(a.cview(), c.view());
    cells(a.cview(), d.view());
    const Field<T> hc = to_space(c, MemorySpace::host), hd = to_space(d, MemorySpace::host);
    return std::memcmp(hc.buffer().host_span().data(), hd.buffer().host_span().data(), hc.bytes()) == 0;
  }

  template <class Step>
  void time(const char* name, Step step) {
    report(name, ms_a_step(step));
    std::printf("  %s gives the cell kernel's bits (ghosts included): %s\n", name, same_bits(step) ? "yes" : "NO");
  }
  void run() {
    cudaError_t e = cudaGetLastError();
    time("columns", [&](FieldView<const T> in, FieldView<T> out) { columns(in, out); });
    report("cells", ms_a_step([&](FieldView<const T> in, FieldView<T> out) { cells(in, out); }));
    for (int planes : {16, 32, 64}) {
      std::printf("planes %d\n", planes);
      time("walk2", [&](FieldView<const T> in, FieldView<T> out) { walk2(in, out, planes); });
      time("tiles6", [&](FieldView<const T> in, FieldView<T> out) { tiles<6>(in, out, planes); });
      time("tiles8", [&](FieldView<const T> in, FieldView<T> out) { tiles<8>(in, out, planes); });
      time("tiles10", [&](FieldView<const T> in, FieldView<T> out) { tiles<10>(in, out, planes); });
    }
    e = cudaDeviceSynchronize();
    std::printf("cuda: %s\n", cudaGetErrorString(e));
  }
};

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 512;
  if (argc > 2 && std::strcmp(argv[2], "f64") == 0) Probe<double>(n).run();
  else Probe<float>(n).run();
  return 0;
}
