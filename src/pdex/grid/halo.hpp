#pragma once
// The halo exchange: the one place where a block of a grid split among MPI ranks (grid/blocks.hpp) gets
// its neighbours' values, into the ghosts of the sides it shares with them (DESIGN principle 3). A time
// step first pushes its images as on one rank (block_boundary: a shared side is a periodic
// placeholder), then the exchange overwrites the shared sides' ghosts: along x over every row, ghost rows
// included, then along y over whole rows, then along z over whole planes, so that a ghost outside along
// two or three axes ends as the image of an image, as on one rank. Every rank calls exchange() on the
// same fields in the same order: it communicates.
#include <array>

#include "pdex/core/memory_space.hpp"
#include "pdex/grid/boundary.hpp"
#include "pdex/grid/extents.hpp"
#include "pdex/grid/field_view.hpp"

namespace pdex {

class HaloExchange {
 public:
  virtual ~HaloExchange() = default;
  // The ghosts of f (in memory space `space`) on the sides its block shares with other ranks: those
  // whose condition in bc (block_boundary's) is periodic, component by component. Waits for the work
  // queued on f before.
  virtual void exchange(FieldView<float> f, const FieldBoundary& bc, MemorySpace space) = 0;
  virtual void exchange(FieldView<double> f, const FieldBoundary& bc, MemorySpace space) = 0;
  // The largest x over the ranks (infinity where x is NaN on any): a number every rank must agree on, as
  // an adaptive step's error estimate.
  virtual double max_over_ranks(double x) = 0;
  // The sum of x over the ranks, added in rank order on every rank, so that all get the same bits: a
  // solver's dot products, on which every rank must take the same decisions.
  virtual double sum_over_ranks(double x) = 0;
  // Seconds spent in exchanges so far (waits for the neighbours included).
  virtual double seconds() const = 0;
  // The extents of the whole grid the block belongs to (SOR's weight is the whole grid's).
  virtual Extents2 whole() const = 0;
  // The global index of the block's first cell along x, y and z.
  virtual std::array<int, 3> first() const = 0;
  // The sides (bit s for side s, boundary.hpp's numbering) that face another block inside the grid, not
  // the grid's boundary (a periodic wrap is the boundary's).
  virtual unsigned shared_sides() const = 0;
  // The whole grid's conditions, from a block's (block_boundary's): every rank's low sides are rank 0's
  // and high sides the last rank's, where the blocks touch the grid's boundary.
  virtual FieldBoundary whole_boundary(const FieldBoundary& bc) = 0;
  // Every rank's part (its interior cells, the part's first cell at global index `first` of the level the
  // parts split) into the interior of `whole`, on every rank; `whole`'s ghosts are not touched. The parts
  // of a whole of given extents must lie alike at every call: MpiHalo keeps their places.
  virtual void gather(FieldView<const float> part, std::array<int, 3> first, FieldView<float> whole, MemorySpace space) = 0;
  virtual void gather(FieldView<const double> part, std::array<int, 3> first, FieldView<double> whole, MemorySpace space) = 0;
};

// Fills f's shared ghosts where there is an exchange (a block of a split grid); nothing otherwise.
template <class T>
void exchange_halo(HaloExchange* halo, FieldView<T> f, const FieldBoundary& bc, MemorySpace space) {
  if (halo) halo->exchange(f, bc, space);
}

// The largest x over the ranks where there is an exchange; x otherwise.
inline double max_over_ranks(HaloExchange* halo, double x) { return halo ? halo->max_over_ranks(x) : x; }

// x summed over the ranks where there is an exchange; x otherwise.
inline double sum_over_ranks(HaloExchange* halo, double x) { return halo ? halo->sum_over_ranks(x) : x; }

}  // namespace pdex
