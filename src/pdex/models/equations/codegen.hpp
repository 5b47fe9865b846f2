#pragma once
// A checked text model as C++ source: the body of a function computing every species' right-hand side
// at one cell, compiled by the host's compiler (host_kernel.hpp) and by NVRTC (cuda/nvrtc_kernel.cpp). It performs the
// interpreter's operations in the interpreter's order, through the same functions (functions.hpp,
// grid/stencil.hpp), so that the two agree to the last bit where the compiler does not contract.
#include <string>

#include "pdex/models/equations/program.hpp"

namespace pdex::eq {

// The statements of
//   template <class T, class C> PDEX_HD void rhs(const C& c, int ci, int cj, int ck, T* f)
// where c.s(k, o) and c.p(k, o) read species and parameters at offset o, c.x(i), c.y(j), c.z(k), c.t,
// c.dx, c.dy, c.dz, c.lx, c.ly, c.lz the coordinates, time, spacing and size, c.h the stencils'
// Spacing<T>, c.theta the share of the implicit terms (program.hpp's ImplicitTerm) to take out; f[s]
// receives species s's right-hand side at cell (ci, cj, ck) (ck = 0 on a 2D grid).
//   host: the theta share is subtracted without a branch (theta is 0 outside the theta scheme), so
//         that the compiler vectorizes a row's cells;
//   device: a thread a cell, where the branch on theta is uniform and skips the work.
enum class Target { host, device };
std::string rhs_body(const Program& p, Target target);

// constexpr int N = <species>; struct Rhs { that function as its operator() };
std::string rhs_struct(const Program& p, Target target);

}  // namespace pdex::eq
