#pragma once
// Gauss-Seidel and SOR on a block of a grid split among MPI ranks (grid/blocks.hpp): one sweep colour by
// colour with an exchange after each, so that the next colour reads the neighbours' new values: two
// colours, four for a tensor's nine points, eight for its nineteen in 3D. Where every block starts at an
// even index the colours are the whole grid's and the sweep does one process's arithmetic (LinearSolver's
// relaxations, BlockMultigrid's smoothing).
#include "pdex/grid/halo.hpp"
#include "pdex/linalg/relaxation.hpp"
#include "pdex/linalg/relaxation3.hpp"

namespace pdex {

// One sweep, the colours in order (or the reverse); returns the largest change if `measure`.
template <class Exec, class T, class Op>
T sweep_colours(const Exec& ex, const Op& op, FieldView<T> x, FieldView<const T> b, const FieldBoundary& bc, T omega,
                bool reverse, bool measure, HaloExchange& halo) {
  constexpr int colours = Op::tensor() ? tensor_colours<Op>() : 2;
  T largest = T(0);
  for (int k = 0; k < colours; ++k) {
    const int colour = reverse ? colours - 1 - k : k;
    T m;
    if constexpr (Op::tensor())
      m = tensor_color_sweep(ex, op, x, b, bc, omega, colour, measure);
    else
      m = color_sweep(ex, op, x, b, bc, omega, colour, measure);
    largest = m > largest ? m : largest;
    halo.exchange(x, bc, Exec::space);
  }
  return largest;
}

}  // namespace pdex
