#pragma once
// The halo exchange: the one place where a block of a grid split among MPI ranks (grid/blocks.hpp) gets
// its neighbours' values, into the ghosts of the sides it shares with them (DESIGN principle 3). A time
// step first pushes its images as on one rank (block_boundary: a shared side is a periodic
// placeholder), then the exchange overwrites the shared sides' ghosts: along x over every row, ghost rows
// included, then along y over whole rows, then along z over whole planes, so that a ghost outside along
// two or three axes ends as the image of an image, as on one rank. Every rank calls exchange() on the
// same fields in the same order: it communicates. A step may overlap the exchange with its interior
// (split_border, exchange's `meanwhile`).
#include <algorithm>
#include <array>
#include <functional>

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
  // `meanwhile`, where given, runs while the slabs of the first cut axis travel, once on every rank: work
  // that neither reads nor writes the cells within the ghost width of a shared side nor the ghosts (a
  // step's interior, once its border is done); on a device its kernels then run while the host exchanges.
  virtual void exchange(FieldView<float> f, const FieldBoundary& bc, MemorySpace space,
                        const std::function<void()>& meanwhile = {}) = 0;
  virtual void exchange(FieldView<double> f, const FieldBoundary& bc, MemorySpace space,
                        const std::function<void()>& meanwhile = {}) = 0;
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
  // The process grid: ranks along x, y and z.
  virtual std::array<int, 3> ranks() const = 0;
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

// A block's cells split for a step that overlaps the exchange: the cells within `depth` of a shared side
// (bit s of `shared` for side s, boundary.hpp's numbering), in up to six disjoint boxes (z sides' planes,
// then y sides' rows, then x sides' columns), and the rest, the interior.
struct BorderSplit {
  struct Box {
    int lo[3], hi[3];  // cells [lo, hi) along x, y, z
    bool empty() const { return hi[0] <= lo[0] || hi[1] <= lo[1] || hi[2] <= lo[2]; }
  };
  Box border[6];
  int count = 0;
  Box interior;
};

// Every cell of a grid of extents n as one box.
inline BorderSplit::Box whole_box(const Extents2& n) { return {{0, 0, 0}, {n.nx, n.ny, n.nz}}; }

// The sides whose slabs the exchange sends, from the shared ones: both sides of every cut axis (across
// a periodic side of the grid a block's slab wraps to the rank at the other end).
inline unsigned sent_sides(unsigned shared) {
  for (int axis = 0; axis < 3; ++axis)
    if (shared >> (2 * axis) & 3u) shared |= 3u << (2 * axis);
  return shared;
}

inline BorderSplit split_border(const Extents2& n, unsigned shared, int depth) {
  BorderSplit s;
  s.interior = whole_box(n);
  for (int axis = 2; axis >= 0; --axis)
    for (int dir = 0; dir < 2; ++dir) {
      if (!(shared >> (2 * axis + dir) & 1u)) continue;
      BorderSplit::Box& in = s.interior;
      BorderSplit::Box b = in;
      const int cut = dir ? std::max(in.lo[axis], in.hi[axis] - depth) : std::min(in.hi[axis], in.lo[axis] + depth);
      (dir ? b.lo : b.hi)[axis] = cut;
      (dir ? in.hi : in.lo)[axis] = cut;
      if (!b.empty()) s.border[s.count++] = b;
    }
  return s;
}

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
