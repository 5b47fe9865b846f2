// A design probe for several forward-Euler steps per pass over memory (Gray-Scott, periodic, large grids),
// standalone so that designs can be compared before one enters the engine (docs/performance.md,
// "Several steps per pass: the design probe"). Build and run on a GPU machine:
//   nvcc -O3 -std=c++17 -arch=sm_90 -o euler_stream_probe bench/euler_stream_probe.cu && ./euler_stream_probe [0|1 f32|2 f64]
// Designs:
//   ref    : one pass per step, 2 columns x 2 rows a thread (pdex euler_strips shape), 64x4 threads a block.
//   stream : "2.5D streaming" in registers. Each warp owns a strip of 32*CPT columns (output 32*CPT - 2H, H = K
//            rounded up to CPT) and a segment of S rows; it walks down the rows keeping, for each of the K time
//            levels, the last two rows in registers (level l row r-l from level l-1 rows r-l-1..r-l+1); x
//            neighbours across threads come from warp shuffles. No shared memory, no __syncthreads.
//   tile   : shared-memory tile W x HGT (ping-pong buffers), K steps inside, output (W-2K) x (HGT-2K)
//            (pdex euler_tiles approach, resized).
// Arithmetic: one __forceinline__ function with explicit _rn intrinsics (never contracted differently),
// used by every kernel, so results must be bitwise equal.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CK(x)                                                                                  \
  do {                                                                                         \
    cudaError_t e_ = (x);                                                                      \
    if (e_ != cudaSuccess) {                                                                   \
      fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
      exit(1);                                                                                 \
    }                                                                                          \
  } while (0)

template <class T>
struct P {
  T Du, Dv, F, FK, dt, idx2, idy2;
};

__device__ __forceinline__ float ad(float a, float b) { return __fadd_rn(a, b); }
__device__ __forceinline__ float sb(float a, float b) { return __fsub_rn(a, b); }
__device__ __forceinline__ float ml(float a, float b) { return __fmul_rn(a, b); }
__device__ __forceinline__ float fm(float a, float b, float c) { return __fmaf_rn(a, b, c); }
__device__ __forceinline__ double ad(double a, double b) { return __dadd_rn(a, b); }
__device__ __forceinline__ double sb(double a, double b) { return __dsub_rn(a, b); }
__device__ __forceinline__ double ml(double a, double b) { return __dmul_rn(a, b); }
__device__ __forceinline__ double fm(double a, double b, double c) { return __fma_rn(a, b, c); }

// u' = u + dt*(Du*lap(u) - u v v + F (1-u)),  v' = v + dt*(Dv*lap(v) + u v v - (F+k) v)
// lap(w) = (wE + wW - 2wC) idx2 + (wN + wS - 2wC) idy2
template <class T>
__device__ __forceinline__ void gs(T uc, T uw, T ue, T us, T un, T vc, T vw, T ve, T vs, T vn, const P<T>& p,
                                   T& ou, T& ov) {
  const T u2 = ad(uc, uc), v2 = ad(vc, vc);
  const T lu = fm(sb(ad(ue, uw), u2), p.idx2, ml(sb(ad(un, us), u2), p.idy2));
  const T lv = fm(sb(ad(ve, vw), v2), p.idx2, ml(sb(ad(vn, vs), v2), p.idy2));
  const T uvv = ml(ml(uc, vc), vc);
  const T ru = fm(p.F, sb(T(1), uc), fm(p.Du, lu, -uvv));
  const T rv = fm(-p.FK, vc, fm(p.Dv, lv, uvv));
  ou = fm(p.dt, ru, uc);
  ov = fm(p.dt, rv, vc);
}

__host__ __device__ __forceinline__ int wrapi(int i, int n) {
  int r = i % n;
  return r < 0 ? r + n : r;
}

// Vector loads/stores of N consecutive T (16-byte pieces, or one 8-byte piece).
template <class T, int N>
__device__ __forceinline__ void ldv(const T* __restrict__ p, T (&r)[N]) {
  if constexpr (sizeof(T) * N == 8) {
    float2 x = __ldg(reinterpret_cast<const float2*>(p));
    memcpy(r, &x, 8);
  } else {
    static_assert(sizeof(T) * N % 16 == 0);
#pragma unroll
    for (int q = 0; q < int(sizeof(T) * N / 16); ++q) {
      float4 x = __ldg(reinterpret_cast<const float4*>(p) + q);
      memcpy(reinterpret_cast<char*>(r) + 16 * q, &x, 16);
    }
  }
}
template <class T, int N>
__device__ __forceinline__ void stv(T* p, const T (&r)[N]) {
  if constexpr (sizeof(T) * N == 8) {
    float2 x;
    memcpy(&x, r, 8);
    *reinterpret_cast<float2*>(p) = x;
  } else {
#pragma unroll
    for (int q = 0; q < int(sizeof(T) * N / 16); ++q) {
      float4 x;
      memcpy(&x, reinterpret_cast<const char*>(r) + 16 * q, 16);
      reinterpret_cast<float4*>(p)[q] = x;
    }
  }
}

// ---------------------------------------------------------------- reference: one pass per step
template <class T>
__global__ void __launch_bounds__(256) ref_kernel(const T* __restrict__ ui, const T* __restrict__ vi, T* __restrict__ uo,
                                                  T* __restrict__ vo, int nx, int ny, P<T> p) {
  const int i0 = 2 * (blockIdx.x * 64 + threadIdx.x);
  const int j0 = (blockIdx.y * 4 + threadIdx.y) * 2;
  if (i0 >= nx || j0 >= ny) return;
  const int64_t rm = int64_t(wrapi(j0 - 1, ny)) * nx, r0 = int64_t(j0) * nx, r1 = int64_t(j0 + 1) * nx,
                r2 = int64_t(wrapi(j0 + 2, ny)) * nx;
  const int iw = wrapi(i0 - 1, nx), ie = wrapi(i0 + 2, nx);
  T uc[4][2], vc[4][2];
  ldv<T, 2>(ui + rm + i0, uc[0]);
  ldv<T, 2>(ui + r0 + i0, uc[1]);
  ldv<T, 2>(ui + r1 + i0, uc[2]);
  ldv<T, 2>(ui + r2 + i0, uc[3]);
  ldv<T, 2>(vi + rm + i0, vc[0]);
  ldv<T, 2>(vi + r0 + i0, vc[1]);
  ldv<T, 2>(vi + r1 + i0, vc[2]);
  ldv<T, 2>(vi + r2 + i0, vc[3]);
  const T uw0 = ui[r0 + iw], ue0 = ui[r0 + ie], uw1 = ui[r1 + iw], ue1 = ui[r1 + ie];
  const T vw0 = vi[r0 + iw], ve0 = vi[r0 + ie], vw1 = vi[r1 + iw], ve1 = vi[r1 + ie];
  T ou[2], ov[2];
  gs(uc[1][0], uw0, uc[1][1], uc[0][0], uc[2][0], vc[1][0], vw0, vc[1][1], vc[0][0], vc[2][0], p, ou[0], ov[0]);
  gs(uc[1][1], uc[1][0], ue0, uc[0][1], uc[2][1], vc[1][1], vc[1][0], ve0, vc[0][1], vc[2][1], p, ou[1], ov[1]);
  stv<T, 2>(uo + r0 + i0, ou);
  stv<T, 2>(vo + r0 + i0, ov);
  gs(uc[2][0], uw1, uc[2][1], uc[1][0], uc[3][0], vc[2][0], vw1, vc[2][1], vc[1][0], vc[3][0], p, ou[0], ov[0]);
  gs(uc[2][1], uc[2][0], ue1, uc[1][1], uc[3][1], vc[2][1], vc[2][0], ve1, vc[1][1], vc[3][1], p, ou[1], ov[1]);
  stv<T, 2>(uo + r1 + i0, ou);
  stv<T, 2>(vo + r1 + i0, ov);
}

// ---------------------------------------------------------------- stream: warp-register 2.5D streaming
// The rows one level back move up: the row before last is dropped, the newest kept.
template <class T, int CPT>
__device__ __forceinline__ void shift_only(T (&hu)[2][CPT], T (&hv)[2][CPT], const T (&cu)[CPT], const T (&cv)[CPT]) {
#pragma unroll
  for (int j = 0; j < CPT; ++j) {
    hu[0][j] = hu[1][j];
    hu[1][j] = cu[j];
    hv[0][j] = hv[1][j];
    hv[1][j] = cv[j];
  }
}

// Computes level l (1..K) from level l-1: hs = rows R-1, R of level l-1; c = row R+1 (in: level l-1, out: level l
// row R). Updates hs to rows R, R+1.
template <class T, int CPT>
__device__ __forceinline__ void level_step(T (&hu)[2][CPT], T (&hv)[2][CPT], T (&cu)[CPT], T (&cv)[CPT],
                                           const P<T>& p) {
  const T uw = __shfl_up_sync(0xffffffffu, hu[1][CPT - 1], 1);
  const T ue = __shfl_down_sync(0xffffffffu, hu[1][0], 1);
  const T vw = __shfl_up_sync(0xffffffffu, hv[1][CPT - 1], 1);
  const T ve = __shfl_down_sync(0xffffffffu, hv[1][0], 1);
  T ou[CPT], ov[CPT];
#pragma unroll
  for (int j = 0; j < CPT; ++j) {
    const T w_u = j == 0 ? uw : hu[1][j - 1], e_u = j == CPT - 1 ? ue : hu[1][j + 1];
    const T w_v = j == 0 ? vw : hv[1][j - 1], e_v = j == CPT - 1 ? ve : hv[1][j + 1];
    gs(hu[1][j], w_u, e_u, hu[0][j], cu[j], hv[1][j], w_v, e_v, hv[0][j], cv[j], p, ou[j], ov[j]);
  }
  shift_only(hu, hv, cu, cv);
#pragma unroll
  for (int j = 0; j < CPT; ++j) cu[j] = ou[j], cv[j] = ov[j];
}

template <class T, int CPT, int K, int MINB, int UNR>
__global__ void __launch_bounds__(128, MINB)
    stream_kernel(const T* __restrict__ ui, const T* __restrict__ vi, T* __restrict__ uo, T* __restrict__ vo, int nx,
                  int ny, P<T> p, int strips, int S) {
  constexpr int WC = 32 * CPT, H = (K + CPT - 1) / CPT * CPT, WOUT = WC - 2 * H;
  const int lane = threadIdx.x & 31;
  const int gw = int((blockIdx.x * blockDim.x + threadIdx.x) >> 5);
  const int strip = gw % strips, seg = gw / strips;
  const int X0 = strip * WOUT;
  if (seg * S >= ny) return;
  const int r0 = min(seg * S, ny - S);  // the last segment is moved up to end at ny (rows written twice, same values)
  const int lc = CPT * lane;
  const int cb = wrapi(X0 - H + lc, nx);
  bool valid[CPT];
  bool all = true, any = false;
#pragma unroll
  for (int j = 0; j < CPT; ++j) {
    valid[j] = lc + j >= H && lc + j < H + WOUT && X0 + lc + j - H < nx;
    all = all && valid[j];
    any = any || valid[j];
  }
  T hu[K][2][CPT], hv[K][2][CPT];
#pragma unroll
  for (int l = 0; l < K; ++l)
#pragma unroll
    for (int a = 0; a < 2; ++a)
#pragma unroll
      for (int j = 0; j < CPT; ++j) hu[l][a][j] = hv[l][a][j] = T(0);
  int lrow = wrapi(r0 - K, ny);
  T nu[CPT], nv[CPT];
  ldv<T, CPT>(ui + int64_t(lrow) * nx + cb, nu);
  ldv<T, CPT>(vi + int64_t(lrow) * nx + cb, nv);
  // prologue: iterations 0 .. 2K-1, level l computed from i >= 2l
#pragma unroll
  for (int i = 0; i < 2 * K; ++i) {
    T cu[CPT], cv[CPT];
#pragma unroll
    for (int j = 0; j < CPT; ++j) cu[j] = nu[j], cv[j] = nv[j];
    lrow = lrow + 1 == ny ? 0 : lrow + 1;
    ldv<T, CPT>(ui + int64_t(lrow) * nx + cb, nu);
    ldv<T, CPT>(vi + int64_t(lrow) * nx + cb, nv);
#pragma unroll
    for (int l = 1; l <= K; ++l) {
      if (i >= 2 * l) level_step<T, CPT>(hu[l - 1], hv[l - 1], cu, cv, p);
      else if (i >= 2 * (l - 1)) shift_only<T, CPT>(hu[l - 1], hv[l - 1], cu, cv);
    }
  }
  const int iters = S + 2 * K;
  int64_t so = int64_t(r0) * nx + cb;
#pragma unroll UNR
  for (int i = 2 * K; i < iters; ++i) {
    T cu[CPT], cv[CPT];
#pragma unroll
    for (int j = 0; j < CPT; ++j) cu[j] = nu[j], cv[j] = nv[j];
    if (i + 1 < iters) {
      lrow = lrow + 1 == ny ? 0 : lrow + 1;
      ldv<T, CPT>(ui + int64_t(lrow) * nx + cb, nu);
      ldv<T, CPT>(vi + int64_t(lrow) * nx + cb, nv);
    }
#pragma unroll
    for (int l = 1; l <= K; ++l) level_step<T, CPT>(hu[l - 1], hv[l - 1], cu, cv, p);
    if (all) {
      stv<T, CPT>(uo + so, cu);
      stv<T, CPT>(vo + so, cv);
    } else if (any) {
#pragma unroll
      for (int j = 0; j < CPT; ++j)
        if (valid[j]) uo[so + j] = cu[j], vo[so + j] = cv[j];
    }
    so += nx;
  }
}

// ---------------------------------------------------------------- tile: shared-memory ping-pong tiles
template <class T, int W, int HGT, int RPT, int K>
struct TileC {
  static constexpr int pitch = W + 2, cells = pitch * (HGT + 2), threads = W * (HGT / RPT);
  static constexpr size_t smem = size_t(4) * cells * sizeof(T);
  static_assert(HGT % RPT == 0);
};

template <class T, int W, int HGT, int RPT, int K>
__global__ void __launch_bounds__(TileC<T, W, HGT, RPT, K>::threads)
    tile_kernel(const T* __restrict__ ui, const T* __restrict__ vi, T* __restrict__ uo, T* __restrict__ vo, int nx,
                int ny, P<T> p) {
  using C = TileC<T, W, HGT, RPT, K>;
  extern __shared__ unsigned char raw[];
  T* buf = reinterpret_cast<T*>(raw);  // [buffer][species][cells]
  auto at = [](int x, int y) { return (y + 1) * C::pitch + x + 1; };
  const int gx0 = int(blockIdx.x) * (W - 2 * K) - K, gy0 = int(blockIdx.y) * (HGT - 2 * K) - K;
  const int tid = threadIdx.x;
  for (int k = tid; k < 4 * (W + 2); k += C::threads) {
    T* b = buf + k / (W + 2) * C::cells;
    b[at(k % (W + 2) - 1, -1)] = b[at(k % (W + 2) - 1, HGT)] = T(0);
  }
  for (int k = tid; k < 4 * HGT; k += C::threads) {
    T* b = buf + k / HGT * C::cells;
    b[at(-1, k % HGT)] = b[at(W, k % HGT)] = T(0);
  }
  const int x = tid % W, y0 = tid / W * RPT;
  const int gi = wrapi(gx0 + x, nx);
  for (int y = tid / W; y < HGT; y += C::threads / W) {
    const int64_t o = int64_t(wrapi(gy0 + y, ny)) * nx + gi;
    buf[at(x, y)] = ui[o];
    buf[C::cells + at(x, y)] = vi[o];
  }
  __syncthreads();
  int cur = 0;
  for (int s = 0; s < K; ++s) {
    const T* u = buf + cur * 2 * C::cells + at(x, y0);
    const T* v = u + C::cells;
    T* nu = buf + (1 - cur) * 2 * C::cells + at(x, y0);
    T* nv = nu + C::cells;
    T cu[RPT + 2], cv[RPT + 2];
#pragma unroll
    for (int k = 0; k < RPT + 2; ++k) cu[k] = u[(k - 1) * C::pitch], cv[k] = v[(k - 1) * C::pitch];
#pragma unroll
    for (int k = 0; k < RPT; ++k) {
      T ou, ov;
      gs(cu[k + 1], u[k * C::pitch - 1], u[k * C::pitch + 1], cu[k], cu[k + 2], cv[k + 1], v[k * C::pitch - 1],
         v[k * C::pitch + 1], cv[k], cv[k + 2], p, ou, ov);
      nu[k * C::pitch] = ou;
      nv[k * C::pitch] = ov;
    }
    cur = 1 - cur;
    __syncthreads();
  }
  const T* u = buf + cur * 2 * C::cells;
  const int gx = gx0 + x;
  if (x >= K && x < W - K && gx < nx) {
    for (int y = K + tid / W; y < HGT - K; y += C::threads / W) {
      const int gy = gy0 + y;
      if (gy >= ny) break;
      const int64_t o = int64_t(gy) * nx + gx;
      uo[o] = u[at(x, y)];
      vo[o] = u[C::cells + at(x, y)];
    }
  }
}

// ---------------------------------------------------------------- host
template <class T>
struct Fields {
  T *u = nullptr, *v = nullptr;
};

static float median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <class T>
struct Bench {
  int n;
  size_t cells;
  P<T> p;
  std::vector<T> init, ref;
  Fields<T> A, B;
  static constexpr int steps = 168;  // divisible by 4, 6, 7, 8
  static constexpr int reps = 5;
  float ref_gcs = 0;

  explicit Bench(int n_) : n(n_), cells(size_t(n_) * n_) {
    p.Du = T(0.16);
    p.Dv = T(0.08);
    p.F = T(0.035);
    p.FK = T(0.035) + T(0.065);
    p.dt = T(0.5);
    p.idx2 = T(1.7);
    p.idy2 = T(1.3);
    init.resize(2 * cells);
    uint32_t s = 12345;
    auto rnd = [&] {
      s = s * 1664525u + 1013904223u;
      return (s >> 8) * (1.0 / 16777216.0);
    };
    for (size_t c = 0; c < cells; ++c) init[c] = T(1), init[cells + c] = T(0);
    for (int q = 0; q < 40; ++q) {
      const int cx = int(rnd() * n), cy = int(rnd() * n), h = n / 40;
      for (int y = cy - h; y < cy + h; ++y)
        for (int x = cx - h; x < cx + h; ++x) {
          const size_t c = size_t(wrapi(y, n)) * n + wrapi(x, n);
          init[c] = T(0.5) + T(0.02 * rnd());
          init[cells + c] = T(0.25) + T(0.02 * rnd());
        }
    }
    CK(cudaMalloc(&A.u, 2 * cells * sizeof(T)));
    CK(cudaMalloc(&B.u, 2 * cells * sizeof(T)));
    A.v = A.u + cells;
    B.v = B.u + cells;
  }
  ~Bench() {
    cudaFree(A.u);
    cudaFree(B.u);
  }
  void upload() { CK(cudaMemcpy(A.u, init.data(), 2 * cells * sizeof(T), cudaMemcpyHostToDevice)); }

  // pass(in, out) does `per` steps; runs steps/per passes from init and compares; then times.
  template <class F>
  void run(const char* name, const char* prec, int per, F pass, bool is_ref = false) {
    if (steps % per) return;
    const int passes = steps / per;
    upload();
    Fields<T> a = A, b = B;
    for (int q = 0; q < passes; ++q) {
      pass(a, b);
      std::swap(a, b);
    }
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<T> res(2 * cells);
    CK(cudaMemcpy(res.data(), a.u, 2 * cells * sizeof(T), cudaMemcpyDeviceToHost));
    bool eq = true;
    size_t bad = 0;
    if (is_ref) ref = res;
    else {
      eq = memcmp(res.data(), ref.data(), 2 * cells * sizeof(T)) == 0;
      if (!eq)
        for (size_t c = 0; c < 2 * cells; ++c) bad += memcmp(&res[c], &ref[c], sizeof(T)) != 0;
    }
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    std::vector<float> ts;
    for (int r = 0; r < reps + 1; ++r) {
      CK(cudaEventRecord(e0));
      for (int q = 0; q < passes; ++q) {
        pass(a, b);
        std::swap(a, b);
      }
      CK(cudaEventRecord(e1));
      CK(cudaEventSynchronize(e1));
      float ms;
      CK(cudaEventElapsedTime(&ms, e0, e1));
      if (r) ts.push_back(ms);
    }
    CK(cudaGetLastError());
    const float ms = median(ts);
    const double gcs = double(cells) * steps / (ms * 1e-3) / 1e9;
    if (is_ref) ref_gcs = float(gcs);
    printf("%-34s %s n=%5d k=%2d  %8.1f Gcell/s  (%.2fx ref)  %s", name, prec, n, per, gcs, gcs / ref_gcs,
           is_ref ? "reference" : eq ? "BITWISE-EQUAL" : "MISMATCH");
    if (bad) printf(" (%zu cells differ)", bad);
    printf("\n");
    fflush(stdout);
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
  }

  void do_ref(const char* prec) {
    run("ref one-pass", prec, 1,
        [&](Fields<T> a, Fields<T> b) {
          ref_kernel<T><<<dim3(n / 128, n / 8), dim3(64, 4)>>>(a.u, a.v, b.u, b.v, n, n, p);
        },
        true);
  }

  template <int CPT, int K, int MINB = 1, int UNR = 2>
  void do_stream(const char* prec, int S) {
    constexpr int H = (K + CPT - 1) / CPT * CPT, WOUT = 32 * CPT - 2 * H;
    if (S < 0) {  // automatic: -S waves of resident warps, one segment each
      int occ0 = 0;
      CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ0, stream_kernel<T, CPT, K, MINB, UNR>, 128, 0));
      const int strips0 = (n + WOUT - 1) / WOUT, slots = -S * occ0 * 4 * 132;
      const int segs = slots / strips0;
      S = (n + segs - 1) / segs;
    }
    const int strips = (n + WOUT - 1) / WOUT, warps = strips * ((n + S - 1) / S);
    const int blocks = (warps + 3) / 4;
    char name[96];
    cudaFuncAttributes fa;
    CK(cudaFuncGetAttributes(&fa, stream_kernel<T, CPT, K, MINB, UNR>));
    int occ = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, stream_kernel<T, CPT, K, MINB, UNR>, 128, 0));
    snprintf(name, sizeof name, "stream C%d S%d u%d r%d w%d wv%.2f", CPT, S, UNR, fa.numRegs, occ * 4, double(warps) / (occ * 4 * 132));
    run(name, prec, K, [&](Fields<T> a, Fields<T> b) {
      stream_kernel<T, CPT, K, MINB, UNR><<<blocks, 128>>>(a.u, a.v, b.u, b.v, n, n, p, strips, S);
    });
  }

  template <int W, int HGT, int RPT, int K>
  void do_tile(const char* prec) {
    using C = TileC<T, W, HGT, RPT, K>;
    auto kern = tile_kernel<T, W, HGT, RPT, K>;
    CK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, int(C::smem)));
    int occ = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, kern, C::threads, C::smem));
    char name[96];
    snprintf(name, sizeof name, "tile %dx%d rpt%d %zuKB b%d", W, HGT, RPT, C::smem / 1024, occ);
    const dim3 grid((n + W - 2 * K - 1) / (W - 2 * K), (n + HGT - 2 * K - 1) / (HGT - 2 * K));
    run(name, prec, K, [&](Fields<T> a, Fields<T> b) {
      kern<<<grid, C::threads, C::smem>>>(a.u, a.v, b.u, b.v, n, n, p);
    });
  }
};

template <class T, int CPT, int K, int MINB, int UNR>
void sweep(Bench<T>& b, const char* prec, std::initializer_list<int> Ss) {
  for (int S : Ss) b.template do_stream<CPT, K, MINB, UNR>(prec, S);
}

int main(int argc, char** argv) {
  const int which = argc > 1 ? atoi(argv[1]) : 0;  // 0: all, 1: f32 only, 2: f64 only
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  printf("%s, %d SMs\n", prop.name, prop.multiProcessorCount);
  if (which != 2)
    for (int n : {2048, 4096, 8192}) {
      Bench<float> b(n);
      b.do_ref("f32");
      const int s = n / 64;  // 32, 64, 128
      sweep<float, 4, 6, 1, 2>(b, "f32", {-1, -2, -3, s / 2, s, 2 * s});
      sweep<float, 4, 6, 1, 1>(b, "f32", {-1, -2, -3, s});
      sweep<float, 4, 7, 3, 1>(b, "f32", {-1, -2, s});
      sweep<float, 4, 4, 1, 2>(b, "f32", {-1, -2, s});
      sweep<float, 4, 8, 1, 1>(b, "f32", {-1, -2, s});
      b.template do_tile<128, 48, 6, 4>("f32");
      b.template do_tile<128, 48, 6, 8>("f32");
    }
  if (which != 1)
    for (int n : {2048, 4096, 8192}) {
      Bench<double> b(n);
      b.do_ref("f64");
      const int s = n / 64;
      sweep<double, 2, 6, 3, 1>(b, "f64", {-1, -2, s / 2, s});
      sweep<double, 2, 4, 4, 1>(b, "f64", {-1, -2, s});
      sweep<double, 2, 8, 2, 1>(b, "f64", {-1, -2, s});
      b.template do_tile<64, 48, 6, 4>("f64");
    }
  return 0;
}
