#include "pdex/core/buffer.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "pdex/core/error.hpp"
#include "pdex/core/host_memory.hpp"
#include "pdex/core/memory_stats.hpp"
#include "pdex/core/strided_copy.hpp"
#ifdef PDEX_HAVE_CUDA
#include "pdex/core/cuda/cuda_check.hpp"
#endif

namespace pdex::detail {

namespace {
constexpr std::size_t host_alignment = 64;  // one cache line; also satisfies AVX-512 loads

#ifndef PDEX_HAVE_CUDA
[[noreturn]] void no_cuda() { throw BackendUnavailable("device memory requested but pdex was built without CUDA"); }
#endif

std::string gib(std::size_t bytes) { return std::to_string(double(bytes) / double(1ull << 30)).substr(0, 6) + " GiB"; }

// The device buffers alive, by address, their sum and its peak. Buffers are made at set-up, never in a
// step loop: the lock costs nothing that matters.
struct DeviceLedger {
  std::mutex lock;
  std::unordered_map<const void*, std::size_t> sizes;
  std::size_t now = 0, peak = 0;

  void add(const void* p, std::size_t bytes) {
    const std::lock_guard<std::mutex> g(lock);
    sizes[p] = bytes;
    now += bytes;
    peak = std::max(peak, now);
  }
  void remove(const void* p) {
    const std::lock_guard<std::mutex> g(lock);
    const auto it = sizes.find(p);
    if (it == sizes.end()) return;
    now -= it->second;
    sizes.erase(it);
  }
};

DeviceLedger& ledger() {
  static DeviceLedger l;
  return l;
}
}  // namespace

void* allocate_bytes(std::size_t bytes, MemorySpace space) {
  if (bytes == 0) return nullptr;
  if (space == MemorySpace::host) {
    std::size_t rounded = (bytes + host_alignment - 1) / host_alignment * host_alignment;
    void* p = std::aligned_alloc(host_alignment, rounded);
    if (!p) throw Error("out of host memory: could not allocate " + gib(bytes) + "; use a smaller grid");
    return p;
  }
#ifdef PDEX_HAVE_CUDA
  void* p = nullptr;
  cudaError_t err = cudaMalloc(&p, bytes);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    std::size_t free_b = 0, total_b = 0;
    (void)cudaMemGetInfo(&free_b, &total_b);
    throw Error("out of GPU memory: could not allocate " + gib(bytes) + " (" + gib(free_b) + " free of " +
                gib(total_b) + "); use a smaller grid, f32, or a CPU backend");
  }
  ledger().add(p, bytes);
  return p;
#else
  no_cuda();
#endif
}

void free_bytes(void* p, MemorySpace space) noexcept {
  if (!p) return;
  if (space == MemorySpace::host) {
    std::free(p);
    return;
  }
#ifdef PDEX_HAVE_CUDA
  ledger().remove(p);
  (void)cudaFree(p);
#endif
}

void copy_bytes(void* dst, MemorySpace dst_space, const void* src, MemorySpace src_space, std::size_t bytes) {
  if (bytes == 0) return;
  if (dst_space == MemorySpace::host && src_space == MemorySpace::host) {
    std::memcpy(dst, src, bytes);
    return;
  }
#ifdef PDEX_HAVE_CUDA
  // Kernels run on non-blocking streams, which the copy (legacy default stream) does not wait for, and a
  // device-to-device copy returns before it is done: order the copy with everything around it.
  PDEX_CUDA_CHECK(cudaDeviceSynchronize());
  PDEX_CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDefault));
  PDEX_CUDA_CHECK(cudaDeviceSynchronize());
#else
  no_cuda();
#endif
}

void copy_box(void* dst, std::size_t dst_pitch, std::size_t dst_plane, MemorySpace dst_space, const void* src,
              std::size_t src_pitch, std::size_t src_plane, MemorySpace src_space, RowBox box) {
  if (box.width == 0 || box.rows == 0 || box.planes == 0) return;
  if (dst_space == MemorySpace::host && src_space == MemorySpace::host) {
    for (std::size_t k = 0; k < box.planes; ++k)
      for (std::size_t j = 0; j < box.rows; ++j)
        std::memcpy(static_cast<char*>(dst) + k * dst_plane + j * dst_pitch,
                    static_cast<const char*>(src) + k * src_plane + j * src_pitch, box.width);
    return;
  }
#ifdef PDEX_HAVE_CUDA
  // A plane stride that is a whole number of rows: cudaMemcpy3D's pitched pointers (pitch, rows a plane).
  if (src_plane % src_pitch || dst_plane % dst_pitch)
    throw Error("internal: copy_box's plane strides must be whole rows");
  cudaMemcpy3DParms p{};
  p.srcPtr = make_cudaPitchedPtr(const_cast<void*>(src), src_pitch, box.width, src_plane / src_pitch);
  p.dstPtr = make_cudaPitchedPtr(dst, dst_pitch, box.width, dst_plane / dst_pitch);
  p.extent = make_cudaExtent(box.width, box.rows, box.planes);
  p.kind = cudaMemcpyDefault;
  PDEX_CUDA_CHECK(cudaDeviceSynchronize());  // see copy_bytes
  PDEX_CUDA_CHECK(cudaMemcpy3D(&p));
  PDEX_CUDA_CHECK(cudaDeviceSynchronize());
#else
  no_cuda();
#endif
}

void fill_zero_bytes(void* p, MemorySpace space, std::size_t bytes) {
  if (bytes == 0) return;
  if (space == MemorySpace::host) {
    std::memset(p, 0, bytes);
    return;
  }
#ifdef PDEX_HAVE_CUDA
  PDEX_CUDA_CHECK(cudaMemset(p, 0, bytes));
  PDEX_CUDA_CHECK(cudaDeviceSynchronize());  // see copy_bytes
#else
  no_cuda();
#endif
}

}  // namespace pdex::detail

namespace pdex {

std::size_t device_bytes_peak() {
  detail::DeviceLedger& l = detail::ledger();
  const std::lock_guard<std::mutex> g(l.lock);
  return l.peak;
}

std::size_t host_peak_bytes() {
  rusage u{};
  if (::getrusage(RUSAGE_SELF, &u) != 0) return 0;
  return std::size_t(u.ru_maxrss) * 1024;  // Linux reports kilobytes
}

namespace {

// The number after `key` in a file of lines "key number ..." (/proc/meminfo's "MemAvailable: 123 kB", a
// cgroup's memory.stat), or nullopt.
std::optional<std::size_t> keyed_number(const std::string& path, const std::string& key) {
  std::ifstream in(path);
  std::string name;
  std::size_t n = 0;
  while (in >> name >> n) {
    if (name == key) return n;
    in.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
  }
  return std::nullopt;
}

// A cgroup v2 file's number of bytes, or nullopt (where it is absent, or "max": no limit).
std::optional<std::size_t> cgroup_bytes(const std::string& path) {
  std::ifstream in(path);
  std::size_t n = 0;
  if (in >> n) return n;
  return std::nullopt;
}

bool device_room(std::size_t bytes) {
#ifdef PDEX_HAVE_CUDA
  std::size_t free_b = 0, total_b = 0;
  if (cudaMemGetInfo(&free_b, &total_b) == cudaSuccess) return free_b / 2 >= bytes;
  (void)cudaGetLastError();
#else
  (void)bytes;
#endif
  return false;
}

}  // namespace

std::size_t available_bytes(const std::string& meminfo, const std::string& cgroup) {
  std::size_t room = std::numeric_limits<std::size_t>::max();
  if (const auto kb = keyed_number(meminfo, "MemAvailable:")) room = *kb * 1024;
  const auto limit = cgroup_bytes(cgroup + "/memory.max"), used = cgroup_bytes(cgroup + "/memory.current");
  if (limit && used) {
    // The cgroup's usage counts the page cache; the part it would drop first (inactive files) is free.
    const std::size_t cache = keyed_number(cgroup + "/memory.stat", "inactive_file").value_or(0);
    const std::size_t held = *used > cache ? *used - cache : 0;
    room = std::min(room, *limit > held ? *limit - held : 0);
  }
  return room;
}

std::size_t budget_left(const std::string& budget, std::size_t resident) {
  std::size_t n = 0;
  const char* end = budget.data() + budget.size();
  auto [rest, ec] = std::from_chars(budget.data(), end, n);
  int shift = 0;
  const std::string_view units = "KMGT";
  if (const auto unit = end - rest == 1 ? units.find(char(std::toupper(static_cast<unsigned char>(*rest)))) : units.npos;
      ec == std::errc() && unit != units.npos)
    shift = 10 * int(unit + 1), ++rest;
  if (ec != std::errc() || rest != end || (shift > 0 && n > (std::numeric_limits<std::size_t>::max() >> shift)))
    throw InputError("PDEX_HOST_MEMORY: expected a number of bytes, with K, M, G or T after it for powers of 1024 (e.g. 8G), got '" + budget + "'");
  n <<= shift;
  return n > resident ? n - resident : 0;
}

namespace {

// The process's resident memory now (/proc/self/statm's second number, in pages).
std::size_t resident_bytes() {
  std::ifstream in("/proc/self/statm");
  std::size_t size = 0, pages = 0;
  if (!(in >> size >> pages)) return 0;
  return pages * std::size_t(::sysconf(_SC_PAGESIZE));
}

}  // namespace

std::size_t host_available_bytes() {
  const std::size_t room = available_bytes("/proc/meminfo", "/sys/fs/cgroup");
  const char* budget = std::getenv("PDEX_HOST_MEMORY");
  return budget ? std::min(room, budget_left(budget, resident_bytes())) : room;
}

MemorySpace spare_space(MemorySpace space, std::size_t bytes) {
  return space == MemorySpace::host || device_room(bytes) ? space : MemorySpace::host;
}

bool room_for_copy(MemorySpace space, std::size_t bytes) {
  return (space != MemorySpace::host && device_room(bytes)) || host_available_bytes() / 2 >= bytes;
}

}  // namespace pdex
