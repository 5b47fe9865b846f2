#pragma once
// The matrix-free grid operator (helmholtz.hpp) written out as a stored matrix: row k = j nx + i is cell
// (i, j) of one component. Boundary images fold into the diagonal exactly as Helmholtz::diag() counts
// them (Neumann and Dirichlet), periodic sides wrap around. Constant coefficients only: a per-cell
// multiplier d lives in device memory and is the matrix-free operator's business.
#include <vector>

#include "pdex/core/error.hpp"
#include "pdex/linalg/helmholtz.hpp"
#include "pdex/linalg/matrix.hpp"

namespace pdex {

template <class T>
CsrMatrix<T> assemble_csr(const Helmholtz<T>& op) {
  if (op.d[0]) throw InputError("assemble_csr: a per-cell diffusivity cannot be assembled; use the matrix-free operator");
  const Extents2 n = op.extents;
  const T cx = -op.beta[0] * op.h.idx2, cy = -op.beta[0] * op.h.idy2;
  std::vector<Triplet<T>> t;
  t.reserve(std::size_t(n.cells()) * 5);
  // A neighbour across side s: inside, wrapped (periodic), or folded into the diagonal (skipped).
  auto add = [&](int row, int i, int j, int s, T c) {
    if (!n.contains(i, j)) {
      if (op.self[s][0] != T(0)) return;
      i = (i + n.nx) % n.nx;
      j = (j + n.ny) % n.ny;
    }
    t.push_back({row, int(n.index(i, j)), c});
  };
  for_each_cell(n, [&](int i, int j) {
    const int row = int(n.index(i, j));
    t.push_back({row, row, op.diag(i, j, 0, 0)});
    add(row, i - 1, j, left, cx);
    add(row, i + 1, j, right, cx);
    add(row, i, j - 1, bottom, cy);
    add(row, i, j + 1, top, cy);
  });
  return csr_from_triplets(int(n.cells()), int(n.cells()), std::move(t));
}

template <class T>
BandedMatrix<T> assemble_banded(const Helmholtz<T>& op) {
  return to_banded(assemble_csr(op));
}

}  // namespace pdex
