// The 3D forward-Euler step on the GPU by columns (time/cuda/euler_columns.cuh) against the generic cell
// kernel (euler_step_3d_cells), on the engine's own headers: Gray-Scott on n^3 cells, periodic, constant
// parameters, ms a step (median of five timed runs of 20 steps after a warm-up), and whether one step of
// each gives the same bits, ghosts included (docs/performance.md, "3D grids"). Build with the fast or the
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

namespace pdex {
void load_engine_kernels() {}  // the probe's kernels are its own instantiations
}  // namespace pdex

using namespace pdex;

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

  bool same_bits() {
    Field<T> c = to_space(a, MemorySpace::device), d = to_space(a, MemorySpace::device);  // ghost corners alike too
    columns(a.cview(), c.view());
    cells(a.cview(), d.view());
    const Field<T> hc = to_space(c, MemorySpace::host), hd = to_space(d, MemorySpace::host);
    return std::memcmp(hc.buffer().host_span().data(), hd.buffer().host_span().data(), hc.bytes()) == 0;
  }

  void run() {
    report("columns", ms_a_step([&](FieldView<const T> in, FieldView<T> out) { columns(in, out); }));
    report("cells", ms_a_step([&](FieldView<const T> in, FieldView<T> out) { cells(in, out); }));
    std::printf("columns give the cell kernel's bits (ghosts included): %s\n", same_bits() ? "yes" : "NO");
  }
};

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 512;
  if (argc > 2 && std::strcmp(argv[2], "f64") == 0) Probe<double>(n).run();
  else Probe<float>(n).run();
  return 0;
}
