#pragma once
// The halo exchange (grid/halo.hpp) over MPI: the block's slabs of `ghost` cells next to each shared side
// go to the neighbour across it, whose slabs come back into the ghosts, by non-blocking sends and
// receives each way per cut axis. A device field's slabs go through page-locked host buffers (strided
// copies straight from the device), or stay on the device where the MPI library reads device memory
// itself (CUDA-aware: mpi_reads_device_memory). Multigrid's coarse levels are gathered onto every rank.
#include <mpi.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "pdex/core/buffer.hpp"
#include "pdex/core/host_block.hpp"
#include "pdex/grid/blocks.hpp"
#include "pdex/grid/halo.hpp"

namespace pdex {

// Whether MPI takes device pointers: PDEX_MPI_CUDA_AWARE=1 or 0 where set (for a library pdex cannot ask,
// or to stage through the host), else OpenMPI's MPIX_Query_cuda_support() where the library has it.
bool mpi_reads_device_memory();

// One slab's buffer, kept from exchange to exchange and grown as needed: in host memory for fields on
// the host, page-locked host memory for fields on a GPU, device memory where MPI reads it there.
class SlabBuffer {
 public:
  unsigned char* take(std::size_t bytes, MemorySpace fields, bool device_aware);
  MemorySpace space() const { return space_; }
  bool pinned() const { return host_.pinned(); }

 private:
  HostBlock host_;
  Buffer<unsigned char> device_;
  MemorySpace space_ = MemorySpace::host;
  bool asked_pinned_ = false;  // host_ was asked to be page-locked (it is where a GPU could lock it)
};

class MpiHalo final : public HaloExchange {
 public:
  MpiHalo(MPI_Comm comm, const Extents2& whole, const ProcessGrid& pg, const Block& b)
      : comm_(comm), whole_(whole), pg_(pg), block_(b) {}
  void exchange(FieldView<float> f, const FieldBoundary& bc, MemorySpace space, const std::function<void()>& meanwhile) override;
  void exchange(FieldView<double> f, const FieldBoundary& bc, MemorySpace space, const std::function<void()>& meanwhile) override;
  double max_over_ranks(double x) override;
  double sum_over_ranks(double x) override;
  double seconds() const override { return seconds_; }
  std::string through() const;  // where the last exchange's slabs waited: "host memory", "pinned host memory", "device memory"
  int64_t exchanges() const { return exchanges_; }
  int64_t overlapped() const { return overlapped_; }  // exchanges whose slabs travelled while a step's interior was computed
  Extents2 whole() const override { return whole_; }
  std::array<int, 3> first() const override { return block_.first; }
  std::array<int, 3> ranks() const override { return pg_.p; }
  unsigned shared_sides() const override;
  FieldBoundary whole_boundary(const FieldBoundary& bc) override;
  void gather(FieldView<const float> part, std::array<int, 3> first, FieldView<float> whole, MemorySpace space) override;
  void gather(FieldView<const double> part, std::array<int, 3> first, FieldView<double> whole, MemorySpace space) override;

 private:
  template <class T>
  void run(FieldView<T> f, const FieldBoundary& bc, MemorySpace space, const std::function<void()>& meanwhile);
  // A gather's shape: the whole grid's counts of cells, this rank's part's first cell in it and counts.
  using GatherShape = std::array<int, 9>;
  template <class T>
  void gather_parts(FieldView<const T> part, std::array<int, 3> first, FieldView<T> whole, MemorySpace space);
  const std::vector<int>& places_of(const GatherShape& shape);
  std::size_t count_parts(const std::vector<int>& places, std::size_t cell_bytes);
  // The rank of the neighbour along `axis` on the low (dir = 0) or high (dir = 1) side, across the
  // grid's edge by wrapping (a side that is not periodic there ignores what comes back).
  int neighbour(int axis, int dir) const;

  MPI_Comm comm_;
  Extents2 whole_;
  ProcessGrid pg_;
  Block block_;
  const bool device_aware_ = mpi_reads_device_memory();
  SlabBuffer send_[2], recv_[2];
  int64_t exchanges_ = 0, overlapped_ = 0;
  MPI_Request requests_[4];
  // Every rank's place (places_of) in the gathers of each shape, all-gathered at the shape's first
  // gather. The ranks' parts of a whole grid of given counts lie alike at every gather (BlockMultigrid's
  // gathered level, a level of the halo's blocks halved alike), so every rank finds a shape kept, or
  // not, alike: none skips the all-gather that another makes.
  std::map<GatherShape, std::vector<int>> places_;
  std::vector<int> counts_, offsets_;                  // a gather's bytes from each rank, and their place
  std::vector<unsigned char> part_bytes_, parts_bytes_;  // a gather's packed part, and every rank's
  double seconds_ = 0;
};

}  // namespace pdex
