// The fine level's kernels of a 3D multigrid cycle on the GPU (linalg/multigrid3.hpp) on their own, on the
// engine's sources: a red-black sweep out of place (cuda/tile_sweep3.cu), the residual and its norm (the
// solver's test after each cycle), the residual and its restriction as two launches and as the cycle's one
// (restrict_residual3), restriction and prolongation (transfer3.hpp), for Poisson on n^3 cells
// of noise (and (n/2)^3 coarse ones), Dirichlet sides: ms a call (median of five timed runs of 10 calls
// after a warm-up), the bytes a call must move at the least over its time, and a hash of each result's
// bits, to compare builds of two versions of the sources (docs/performance.md, "3D Poisson solves").
// Build with the engine library next to it, run on a GPU machine:
//   nvcc -DPDEX_HAVE_CUDA=1 -Isrc -O3 -arch=sm_90 --extended-lambda --expt-relaxed-constexpr -std=c++20 \
//     -c bench/mg3_probe.cu -o mg3_probe.o
//   nvcc -o mg3_probe mg3_probe.o build/src/libpdex_engine.a -Xcompiler=-fopenmp -ldl
//   ./mg3_probe [n = 512] [f32|f64] [once: each kernel once, untimed, for ncu | solve: a whole solve [fmg] [pre=2] [post=2]]
// The kernels timed are compiled here, optimized: a fast-compile library's warning does not concern them.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

#include "device_timing.hpp"
#include "pdex/core/cuda/cuda_context.hpp"
#include "pdex/grid/field.hpp"
#include "pdex/grid/fill_ghosts.hpp"
#include "pdex/linalg/cuda/tile_sweep3.cu"  // the sweep's kernel compiled here, optimized
#include "pdex/linalg/cuda/transfer3_walk.cu"  // and the transfers' walks
#include "pdex/linalg/grid_ops.hpp"
#include "pdex/linalg/multigrid.hpp"
#include "pdex/linalg/multigrid3.hpp"
#include "pdex/linalg/transfer3.hpp"

namespace pdex {
void load_engine_kernels() {}  // the probe's kernels are its own instantiations
}  // namespace pdex

using namespace pdex;

namespace {

// Hashes a field's bytes (FNV-1a), ghosts included.
template <class T>
uint64_t bits_hash(const Field<T>& f) {
  const Field<T> h = to_space(f, MemorySpace::host);
  const auto* p = reinterpret_cast<const unsigned char*>(h.buffer().host_span().data());
  uint64_t x = 1469598103934665603ull;
  for (std::size_t q = 0; q < h.bytes(); ++q) x = (x ^ p[q]) * 1099511628211ull;
  return x;
}

template <class T>
struct Probe {
  int n;
  Cuda ex{&default_cuda_context()};
  FieldBoundary bc = FieldBoundary::all(BcKind::dirichlet);
  Field<T> fine, coarse, b, r;
  Helmholtz3<T> op;

  explicit Probe(int size) : n(size) {
    Grid2 g{n, n, 1.0 / n, 1.0 / n};
    g.nz = n, g.dz = 1.0 / n;
    Field<T> h(g, 1, 1, MemorySpace::host), hc(g.halved(true, true, true), 1, 1, MemorySpace::host);
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> u(-1, 1);
    for (T& v : h.buffer().host_span()) v = T(u(rng));
    for (T& v : hc.buffer().host_span()) v = T(u(rng));
    fill_ghosts(Serial{}, hc.view(), bc);
    fine = to_space(h, MemorySpace::device);
    coarse = to_space(hc, MemorySpace::device);
    b = to_space(h, MemorySpace::device);
    r = to_space(h, MemorySpace::device);
    const double beta[2] = {1, 1};
    op = make_helmholtz3<T>(g, fine.view(), 0.0, beta, 1, bc);
  }

  bool once = false;  // each kernel once, untimed (for a profiler)

  template <class Call>
  double ms_a_call(Call call) {
    if (once) return call(), 0.0;
    call();  // the warm-up
    return bench::median_device_ms(5, [&] { for (int k = 0; k < 10; ++k) call(); }, ex.context->stream()) / 10;
  }

  void report(const char* name, double ms, double bytes) const {
    std::printf("%-15s n=%d %s %8.3f ms %6.0f GB/s at the least\n", name, n, sizeof(T) == 4 ? "f32" : "f64", ms, bytes / ms / 1e6);
  }

  // A whole solve, multigrid3.hpp's V(pre, post) cycles from zero to a relative residual of 1e-8 with the
  // residual's norm after each cycle (linear_solver.hpp's loop), for b a smooth mode: ms (median of three
  // after a warm-up) and cycles; with `fmg` the first cycle is a full-multigrid cycle.
  void solve(bool fmg, const MultigridSettings& settings) {
    Field<T> h = to_space(b, MemorySpace::host);
    const FieldView<T> v = h.view();
    const double pi = 3.141592653589793;
    for (int k = 0; k < n; ++k)
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i)
          v(0, i, j, k) = T(3 * pi * pi * std::sin(pi * (i + 0.5) / n) * std::sin(pi * (j + 0.5) / n) * std::sin(pi * (k + 0.5) / n));
    b = to_space(h, MemorySpace::device);
    Grid2 g{n, n, 1.0 / n, 1.0 / n};
    g.nz = n, g.dz = 1.0 / n;
    Multigrid3<Cuda, T> mg(ex, g, fine, op, bc, 1, settings);
    int cycles = 0;
    auto one = [&] {
      fill_all(ex, fine.view(), T(0));
      const double bnorm = std::sqrt(residual_norm2(ex, op, fine.cview(), b.cview()));
      for (cycles = 0; cycles < 30;) {
        if (fmg && cycles == 0) mg.fmg(fine.view(), b.cview());
        else mg.cycle(fine.view(), b.cview());
        ++cycles;
        if (std::sqrt(residual_norm2(ex, op, fine.cview(), b.cview())) <= 1e-8 * bnorm) break;
      }
    };
    one();
    const double ms = bench::median_device_ms(3, one, ex.context->stream());
    std::printf("solve%s V(%d,%d) n=%d %s %8.1f ms %d cycles, %d levels\n", fmg ? " fmg" : "", settings.pre, settings.post, n,
                sizeof(T) == 4 ? "f32" : "f64", ms, cycles, mg.levels());
  }

  void run() {
    const double fine_bytes = double(n) * n * n * sizeof(T), coarse_bytes = fine_bytes / 8;
    fill_ghosts(ex, fine.view(), bc);
    report("sweep", ms_a_call([&] { rb_sweep3_into(ex, op, fine.cview(), b.cview(), r.view(), bc, T(1.15), false); }), 3 * fine_bytes);
    std::printf("sweep bits %016llx\n", (unsigned long long)bits_hash(r));
    report("residual", ms_a_call([&] { residual_field(ex, op, fine.cview(), b.cview(), r.view()); }), 3 * fine_bytes);
    std::printf("residual bits %016llx\n", (unsigned long long)bits_hash(r));
    double norm2 = 0;  // the solver's test after each cycle
    report("residual norm", ms_a_call([&] { norm2 = residual_norm2(ex, op, fine.cview(), b.cview()); }), 2 * fine_bytes);
    std::printf("residual norm %.17g\n", norm2);
    const auto unfused = [&] {
      residual_field(ex, op, fine.cview(), b.cview(), r.view());
      restrict3(ex, r.cview(), coarse.view());
    };
    report("res+restrict", ms_a_call(unfused), 4 * fine_bytes + coarse_bytes);
    std::printf("res+restrict bits %016llx\n", (unsigned long long)bits_hash(coarse));
    report("res restrict", ms_a_call([&] { restrict_residual3_walk(ex, op, fine.cview(), b.cview(), coarse.view()); }),
           2 * fine_bytes + coarse_bytes);
    std::printf("res restrict bits %016llx\n", (unsigned long long)bits_hash(coarse));
    report("restrict3", ms_a_call([&] { restrict3_cells(ex, fine.cview(), coarse.view()); }), fine_bytes + coarse_bytes);
    restrict3_cells(ex, fine.cview(), coarse.view());  // the timed calls are idempotent
    std::printf("restrict3 bits %016llx\n", (unsigned long long)bits_hash(coarse));
    report("restrict3 walk", ms_a_call([&] { restrict3(ex, fine.cview(), coarse.view()); }), fine_bytes + coarse_bytes);
    restrict3(ex, fine.cview(), coarse.view());
    std::printf("restrict3 walk bits %016llx\n", (unsigned long long)bits_hash(coarse));
    fill_ghosts(ex, coarse.view(), bc);
    const Field<T> start = to_space(fine, MemorySpace::device);
    const CellBox every = whole_box(fine.view().extents());
    report("prolong_add3", ms_a_call([&] { prolong_add3(ex, coarse.cview(), fine.view(), bc, every); }), 2 * fine_bytes + coarse_bytes);
    fine = to_space(start, MemorySpace::device);
    PDEX_CUDA_CHECK(cudaDeviceSynchronize());  // the copy goes on the legacy stream, the kernels on another
    prolong_add3(ex, coarse.cview(), fine.view(), bc, every);
    std::printf("prolong_add3 bits %016llx\n", (unsigned long long)bits_hash(fine));
    report("prolong walk", ms_a_call([&] { prolong_add3(ex, coarse.cview(), fine.view(), bc); }), 2 * fine_bytes + coarse_bytes);
    fine = to_space(start, MemorySpace::device);
    PDEX_CUDA_CHECK(cudaDeviceSynchronize());  // the copy goes on the legacy stream, the kernels on another
    prolong_add3(ex, coarse.cview(), fine.view(), bc);
    std::printf("prolong walk bits %016llx\n", (unsigned long long)bits_hash(fine));
  }
};

}  // namespace

template <class T>
void probe(int n, bool once, bool solve, bool fmg, const MultigridSettings& settings) {
  Probe<T> p(n);
  p.once = once;
  solve ? p.solve(fmg, settings) : p.run();
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 512;
  const bool once = argc > 3 && std::strcmp(argv[3], "once") == 0;
  const bool solve = argc > 3 && std::strcmp(argv[3], "solve") == 0;
  bool fmg = false;
  MultigridSettings settings;
  for (int a = 4; a < argc; ++a) {
    if (solve && std::strcmp(argv[a], "fmg") == 0) fmg = true;
    else if (solve && std::strncmp(argv[a], "pre=", 4) == 0) settings.pre = std::atoi(argv[a] + 4);
    else if (solve && std::strncmp(argv[a], "post=", 5) == 0) settings.post = std::atoi(argv[a] + 5);
    else {
      std::fprintf(stderr, "mg3_probe: unknown argument '%s' (after 'solve': fmg, pre=N, post=N)\n", argv[a]);
      return 2;
    }
  }
  if (argc > 2 && std::strcmp(argv[2], "f32") == 0) probe<float>(n, once, solve, fmg, settings);
  else probe<double>(n, once, solve, fmg, settings);
  return 0;
}
