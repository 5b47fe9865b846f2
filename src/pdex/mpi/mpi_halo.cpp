#include "pdex/mpi/mpi_halo.hpp"

#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include "pdex/core/strided_copy.hpp"

namespace pdex {

namespace {

struct Span {
  int lo, hi;  // [lo, hi)
};
using Box = std::array<Span, 3>;

int length(const Span& s) { return s.hi - s.lo; }

// The cells of `box` of component c of f, and a packed buffer of them (x fastest), as copy_box's rows.
template <class T>
struct BoxCopy {
  const FieldView<T>& f;
  MemorySpace space;
  Box box;

  std::size_t bytes_per_comp() const { return sizeof(T) * std::size_t(length(box[0]) * length(box[1]) * length(box[2])); }
  detail::RowBox rows() const {
    return {sizeof(T) * std::size_t(length(box[0])), std::size_t(length(box[1])), std::size_t(length(box[2]))};
  }
  std::size_t pitch() const { return sizeof(T) * std::size_t(f.pitch); }
  std::size_t plane() const { return pitch() * std::size_t(f.ny + 2 * f.ghost); }
  T* at(int c) const { return &f(c, box[0].lo, box[1].lo, box[2].lo); }
  // Component c's cells into the packed buffer `out` in memory space `out_space`, and back.
  void pack(int c, unsigned char* out, MemorySpace out_space = MemorySpace::host) const {
    const detail::RowBox r = rows();
    detail::copy_box(out, r.width, r.width * r.rows, out_space, at(c), pitch(), plane(), space, r);
  }
  void unpack(int c, const unsigned char* in, MemorySpace in_space = MemorySpace::host) const {
    const detail::RowBox r = rows();
    detail::copy_box(at(c), pitch(), plane(), space, in, r.width, r.width * r.rows, in_space, r);
  }
};

// Runs f; its seconds.
double timed_run(const std::function<void()>& f) {
  const double t0 = MPI_Wtime();
  f();
  return MPI_Wtime() - t0;
}

// Whether the ghosts of `side` take what the neighbour sends for component c: a shared side (a periodic
// placeholder) or a periodic side of the grid, not a side with a condition of its own.
bool takes(const FieldBoundary& bc, int side, int c) { return bc.side[side][c].kind == BcKind::periodic; }

}  // namespace

bool mpi_reads_device_memory() {
  if (const char* v = std::getenv("PDEX_MPI_CUDA_AWARE")) return std::strcmp(v, "0") != 0;
#ifdef MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}

unsigned char* SlabBuffer::take(std::size_t bytes, MemorySpace fields, bool device_aware) {
  space_ = fields == MemorySpace::device && device_aware ? MemorySpace::device : MemorySpace::host;
  if (space_ == MemorySpace::device) {
    if (device_.size() < bytes) device_ = Buffer<unsigned char>(bytes, MemorySpace::device);
    return device_.data();
  }
  // Page-locked memory serves host fields as well: only a GPU's fields ask for it.
  const bool pin = fields == MemorySpace::device && !asked_pinned_;
  if (host_.size() < bytes || pin) host_ = HostBlock(std::max(bytes, host_.size()), asked_pinned_ || pin);
  asked_pinned_ = asked_pinned_ || pin;
  return reinterpret_cast<unsigned char*>(host_.data());
}

std::string MpiHalo::through() const {
  if (send_[0].space() == MemorySpace::device) return "device memory";
  return send_[0].pinned() ? "pinned host memory" : "host memory";
}

int MpiHalo::neighbour(int axis, int dir) const {
  std::array<int, 3> c = block_.coord;
  c[axis] = (c[axis] + (dir ? 1 : pg_.p[axis] - 1)) % pg_.p[axis];
  return c[0] + pg_.p[0] * (c[1] + pg_.p[1] * c[2]);
}

// The first cut axis's slabs travel by non-blocking calls while `meanwhile` runs (its seconds are not
// the exchange's); the next axes wait for it, since their slabs carry the ghosts it fills.
template <class T>
void MpiHalo::run(FieldView<T> f, const FieldBoundary& bc, MemorySpace space, const std::function<void()>& meanwhile) {
  const double t0 = MPI_Wtime();
  double overlapped = 0;
  bool ran = !meanwhile;
  ++exchanges_, overlapped_ += !ran;
  const int g = f.ghost, gz = f.nz > 1 ? g : 0;
  const int n[3] = {f.nx, f.ny, f.nz};
  const Box whole{Span{-g, f.nx + g}, Span{-g, f.ny + g}, Span{-gz, f.nz + gz}};
  for (int axis = 0; axis < 3; ++axis) {
    if (pg_.p[axis] == 1) continue;  // nothing shared along it: the step's own images hold
    BoxCopy<T> slab[2] = {{f, space, whole}, {f, space, whole}}, ghosts[2] = {{f, space, whole}, {f, space, whole}};
    for (int dir = 0; dir < 2; ++dir) {
      slab[dir].box[axis] = dir ? Span{n[axis] - g, n[axis]} : Span{0, g};
      ghosts[dir].box[axis] = dir ? Span{n[axis], n[axis] + g} : Span{-g, 0};
    }
    const std::size_t per_comp = slab[0].bytes_per_comp(), bytes = per_comp * std::size_t(f.ncomp);
    unsigned char *send[2], *recv[2];
    for (int dir = 0; dir < 2; ++dir) {
      send[dir] = send_[dir].take(bytes, space, device_aware_), recv[dir] = recv_[dir].take(bytes, space, device_aware_);
      for (int c = 0; c < f.ncomp; ++c) slab[dir].pack(c, send[dir] + std::size_t(c) * per_comp, send_[dir].space());
    }
    // The low slab goes down and arrives in the high ghosts of the rank below; and the other way.
    for (int dir = 0; dir < 2; ++dir) {
      MPI_Irecv(recv[1 - dir], int(bytes), MPI_BYTE, neighbour(axis, 1 - dir), 2 * axis + dir, comm_, &requests_[2 * dir]);
      MPI_Isend(send[dir], int(bytes), MPI_BYTE, neighbour(axis, dir), 2 * axis + dir, comm_, &requests_[2 * dir + 1]);
    }
    if (!ran) overlapped = timed_run(meanwhile), ran = true;
    MPI_Waitall(4, requests_, MPI_STATUSES_IGNORE);
    for (int dir = 0; dir < 2; ++dir)
      for (int c = 0; c < f.ncomp; ++c)
        if (takes(bc, 2 * axis + dir, c)) ghosts[dir].unpack(c, recv[dir] + std::size_t(c) * per_comp, recv_[dir].space());
  }
  if (!ran) overlapped = timed_run(meanwhile);
  seconds_ += MPI_Wtime() - t0 - overlapped;
}

double MpiHalo::max_over_ranks(double x) {
  double m = std::isnan(x) ? std::numeric_limits<double>::infinity() : x;
  MPI_Allreduce(MPI_IN_PLACE, &m, 1, MPI_DOUBLE, MPI_MAX, comm_);
  return m;
}

double MpiHalo::sum_over_ranks(double x) {
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<double> all(std::size_t(pg_.size()));
  MPI_Allgather(&x, 1, MPI_DOUBLE, all.data(), 1, MPI_DOUBLE, comm_);
  double sum = 0;
  for (const double v : all) sum += v;
  seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return sum;
}

unsigned MpiHalo::shared_sides() const {
  unsigned sides = 0;
  for (int axis = 0; axis < 3; ++axis) {
    if (block_.coord[axis] > 0) sides |= 1u << (2 * axis);
    if (block_.coord[axis] < pg_.p[axis] - 1) sides |= 1u << (2 * axis + 1);
  }
  return sides;
}

FieldBoundary MpiHalo::whole_boundary(const FieldBoundary& bc) {
  static_assert(std::is_trivially_copyable_v<FieldBoundary>);
  FieldBoundary low = bc, high = bc;  // rank 0 touches every low side of the grid, the last rank every high one
  MPI_Bcast(&low, int(sizeof low), MPI_BYTE, 0, comm_);
  MPI_Bcast(&high, int(sizeof high), MPI_BYTE, pg_.size() - 1, comm_);
  FieldBoundary out = low;
  for (int side = 1; side < side_count; side += 2)
    for (int c = 0; c < max_components; ++c) out.side[side][c] = high.side[side][c];
  return out;
}

// The parts' places: 6 ints a rank, its part's first cell in the whole grid and its counts of cells.
const std::vector<int>& MpiHalo::places_of(const GatherShape& shape) {
  const auto kept = places_.find(shape);
  if (kept != places_.end()) return kept->second;
  std::vector<int> places(std::size_t(6 * pg_.size()));
  MPI_Allgather(shape.data() + 3, 6, MPI_INT, places.data(), 6, MPI_INT, comm_);
  return places_.emplace(shape, std::move(places)).first->second;
}

// counts_ and offsets_: the bytes of each rank's part, `cell_bytes` a cell, and where they lie among
// all the parts, whose bytes it returns.
std::size_t MpiHalo::count_parts(const std::vector<int>& places, std::size_t cell_bytes) {
  const std::size_t ranks = std::size_t(pg_.size());
  counts_.resize(ranks), offsets_.resize(ranks);
  std::size_t total = 0;
  for (std::size_t r = 0; r < ranks; ++r) {
    const int* n = &places[6 * r + 3];
    const std::size_t bytes = cell_bytes * std::size_t(n[0]) * std::size_t(n[1]) * std::size_t(n[2]);
    if (total + bytes > std::size_t(INT_MAX)) throw std::runtime_error("internal: a gathered multigrid level exceeds 2 GiB");
    counts_[r] = int(bytes), offsets_[r] = int(total);
    total += bytes;
  }
  return total;
}

// Each rank's part goes to every rank, packed and placed by copy_box's rows (strided copies where a
// field lies on the device), through buffers kept from call to call.
template <class T>
void MpiHalo::gather_parts(FieldView<const T> part, std::array<int, 3> first, FieldView<T> whole, MemorySpace space) {
  const double t0 = MPI_Wtime();
  const std::vector<int>& places =
      places_of({whole.nx, whole.ny, whole.nz, first[0], first[1], first[2], part.nx, part.ny, part.nz});
  auto box_at = [&](int r) {
    const int* p = &places[std::size_t(6 * r)];
    return Box{Span{p[0], p[0] + p[3]}, Span{p[1], p[1] + p[4]}, Span{p[2], p[2] + p[5]}};
  };
  const std::size_t total = count_parts(places, sizeof(T) * std::size_t(whole.ncomp));
  const BoxCopy<const T> own{part, space, Box{Span{0, part.nx}, Span{0, part.ny}, Span{0, part.nz}}};
  part_bytes_.resize(std::size_t(part.ncomp) * own.bytes_per_comp()), parts_bytes_.resize(total);
  for (int c = 0; c < part.ncomp; ++c) own.pack(c, part_bytes_.data() + std::size_t(c) * own.bytes_per_comp());
  MPI_Allgatherv(part_bytes_.data(), int(part_bytes_.size()), MPI_BYTE, parts_bytes_.data(), counts_.data(), offsets_.data(),
                 MPI_BYTE, comm_);
  for (int r = 0; r < pg_.size(); ++r) {
    const BoxCopy<T> into{whole, space, box_at(r)};
    for (int c = 0; c < whole.ncomp; ++c)
      into.unpack(c, parts_bytes_.data() + std::size_t(offsets_[std::size_t(r)]) + std::size_t(c) * into.bytes_per_comp());
  }
  seconds_ += MPI_Wtime() - t0;
}

void MpiHalo::gather(FieldView<const float> part, std::array<int, 3> first, FieldView<float> whole, MemorySpace space) {
  gather_parts(part, first, whole, space);
}
void MpiHalo::gather(FieldView<const double> part, std::array<int, 3> first, FieldView<double> whole, MemorySpace space) {
  gather_parts(part, first, whole, space);
}

void MpiHalo::exchange(FieldView<float> f, const FieldBoundary& bc, MemorySpace space, const std::function<void()>& meanwhile) {
  run(f, bc, space, meanwhile);
}
void MpiHalo::exchange(FieldView<double> f, const FieldBoundary& bc, MemorySpace space, const std::function<void()>& meanwhile) {
  run(f, bc, space, meanwhile);
}

}  // namespace pdex
