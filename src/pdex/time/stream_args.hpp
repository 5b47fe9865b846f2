#pragma once
// The arguments of the register-streaming forward Euler kernel (time/cuda/stream_walk.cuh), data only,
// so that host code that launches a kernel compiled elsewhere (a text model's, by NVRTC) lays them out
// as the kernel reads them. Cell: what the model's right-hand side reads, its own type.
#include "pdex/core/macros.hpp"
#include "pdex/grid/boundary.hpp"
#include "pdex/grid/field_view.hpp"

namespace pdex {

// The species a streaming walk holds in registers, at most.
constexpr int max_stream_species = 2;

// The ghost image a * cell + b of each non-periodic side, per species (the rule of push_ghosts).
template <class T>
struct Images {
  T a[4][max_stream_species], b[4][max_stream_species];
  PDEX_HD T of(int side, int c, T cell) const { return a[side][c] * cell + b[side][c]; }
};

template <class T>
Images<T> images(const FieldBoundary& bc) {
  Images<T> m{};
  for (int s = 0; s < 4; ++s)
    for (int c = 0; c < max_stream_species; ++c) {
      const detail::GhostImage<T> g = detail::affine_image<T>(bc.side[s][c], 0);
      m.a[s][c] = g.a;
      m.b[s][c] = g.b;
    }
  return m;
}

template <class T, class Cell>
struct StreamArgs {
  Cell cell;
  FieldView<const T> in;
  FieldView<T> out;
  FieldBoundary bc;
  Images<T> img;
  T dt;
  bool x_periodic, y_periodic;
  int strips, seg_rows;  // the launch's shape (stream_launch)
};

}  // namespace pdex
