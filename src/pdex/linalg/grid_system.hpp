#pragma once
// The matrix-free grid operator (helmholtz.hpp) as a Krylov System (krylov.hpp): corrections obey the
// homogeneous boundary conditions, written into their ghosts before each application; M is none,
// Jacobi (the operator's exact diagonal) or one multigrid cycle. On a block of a grid split among MPI
// ranks (halo set), the shared sides' ghosts come from the neighbours and the products are the whole
// grid's (the multigrid cycle a BlockMultigrid's).
#include "pdex/grid/block_step.hpp"
#include "pdex/grid/fill_ghosts.hpp"
#include "pdex/grid/halo.hpp"
#include "pdex/linalg/grid_ops.hpp"
#include "pdex/linalg/helmholtz.hpp"
#include "pdex/linalg/krylov_kernels.hpp"
#include "pdex/linalg/multigrid.hpp"
#include "pdex/linalg/solver_settings.hpp"

namespace pdex {

template <class Exec, class T, class Op = Helmholtz<T>>
struct GridSystem {
  Exec ex;
  Op op;
  FieldBoundary hbc;  // homogeneous conditions
  Preconditioner pre = Preconditioner::none;
  MultigridCycle<T>* mg = nullptr;  // when pre is multigrid
  HaloExchange* halo = nullptr;            // a block's exchange with the other ranks

  // x's ghosts must hold its boundary images (and its neighbours' values).
  double residual(FieldView<const T> x, FieldView<const T> b, FieldView<T> r) {
    return sum_over_ranks(halo, pdex::residual(ex, op, x, b, r));
  }

  // A block's product goes over its interior while p's slabs travel, then over the cells beside them.
  double apply_dot(FieldView<T> p, FieldView<T> q) {
    fill_ghosts(ex, p, hbc);
    if (!halo) return pdex::apply_dot(ex, op, as_const(p), q);
    const BorderSplit parts = block_parts(halo, p.extents(), p.ghost);
    double s = 0;
    halo->exchange(p, hbc, Exec::space, [&] { s = pdex::apply_dot(ex, op, as_const(p), q, parts.interior); });
    for (int k = 0; k < parts.count; ++k) s += pdex::apply_dot(ex, op, as_const(p), q, parts.border[k]);
    return halo->sum_over_ranks(s);
  }

  double precondition(FieldView<const T> r, FieldView<T> z, double rr) {
    switch (pre) {
      case Preconditioner::jacobi: return sum_over_ranks(halo, jacobi_precondition(ex, op, r, z));
      case Preconditioner::multigrid:
        fill_all(ex, z, T(0));
        mg->cycle(z, r);
        return sum_over_ranks(halo, dot(ex, r, as_const(z)));
      case Preconditioner::none: copy_interior(ex, r, z); return rr;
    }
    return rr;
  }
};

}  // namespace pdex
