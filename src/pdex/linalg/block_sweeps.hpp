#pragma once
// Relaxation sweeps on a block of a grid split among MPI ranks (grid/blocks.hpp). Gauss-Seidel and SOR go
// colour by colour with an exchange after each, so that the next colour reads the neighbours' new values:
// two colours, four for a tensor's nine points, eight for its nineteen in 3D. Where every block starts at
// an even index the colours are the whole grid's and the sweep does one process's arithmetic (LinearSolver's
// relaxations, BlockMultigrid's smoothing). Each exchange overlaps the sweep of the block's interior
// (block_step.hpp): the cells beside the sent sides first, the rest while their slabs travel; a cell's
// update does not depend on others of its colour, so the order leaves the bits as they were.
#include "pdex/grid/block_step.hpp"
#include "pdex/grid/halo.hpp"
#include "pdex/linalg/relaxation.hpp"
#include "pdex/linalg/relaxation3.hpp"

namespace pdex {

// One sweep, the colours in order (or the reverse); returns the largest change if `measure`.
template <class Exec, class T, class Op>
T sweep_colours(const Exec& ex, const Op& op, FieldView<T> x, FieldView<const T> b, const FieldBoundary& bc, T omega,
                bool reverse, bool measure, HaloExchange& halo) {
  constexpr int colours = Op::tensor() ? tensor_colours<Op>() : 2;
  const BorderSplit parts = block_parts(&halo, x.extents(), x.ghost);
  T largest = T(0);
  for (int k = 0; k < colours; ++k) {
    const int colour = reverse ? colours - 1 - k : k;
    step_and_exchange(&halo, parts, x, bc, Exec::space, [&](const CellBox& box) {
      T m;
      if constexpr (Op::tensor())
        m = tensor_color_sweep(ex, op, x, b, bc, omega, colour, measure, box);
      else
        m = color_sweep(ex, op, x, b, bc, omega, colour, measure, box);
      largest = m > largest ? m : largest;
    });
  }
  return largest;
}

// A Jacobi sweep from `in` into `out`, whose shared ghosts the exchange then fills; returns the largest
// change if `measure`.
template <class Exec, class T, class Op>
T jacobi_block_sweep(const Exec& ex, const Op& op, FieldView<const T> in, FieldView<const T> b, FieldView<T> out,
                     const FieldBoundary& bc, T omega, bool measure, HaloExchange& halo) {
  T largest = T(0);
  step_and_exchange(&halo, block_parts(&halo, in.extents(), in.ghost), out, bc, Exec::space, [&](const CellBox& box) {
    const T m = jacobi_sweep(ex, op, in, b, out, bc, omega, measure, box);
    largest = m > largest ? m : largest;
  });
  return largest;
}

}  // namespace pdex
