#pragma once
// A checked text model as C++ source: the body of a function computing every species' right-hand side
// at one cell, compiled by the host's compiler (host_kernel.hpp) and by NVRTC (cuda/nvrtc_kernel.cpp). It performs the
// interpreter's operations in the interpreter's order, through the same functions (functions.hpp,
// grid/stencil.hpp), so that the two agree to the last bit where the compiler does not contract.
#include <string>
#include <type_traits>

#include "pdex/core/precision.hpp"
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
//   device: a thread a cell, where the branch on theta is uniform and skips the work;
//   stream: forward Euler's cells in a streaming walk (models/equations/cuda/text_stream.cuh), which hands
//           over the species' five-point stars s[k] in registers, the time t and the parameters' offset
//           co (c.s and c.t are not read); for programs that are streamable().
enum class Target { host, device, stream };
std::string rhs_body(const Program& p, Target target);

// Whether p's right-hand sides can take their species' stars from registers: a 2D grid, and every
// spatial operator applied to a species or to a number (lap(u), grad_x(v), advect(u, ...), div(D*grad(u))
// with D a parameter that is a number), none to an expression, a parameter field or a tensor.
bool streamable(const Program& p);

// constexpr int N = <species>; struct Rhs { that function as its operator() }; for Target::stream
//   struct StarRhs { template <class T, class C> PDEX_HD void operator()(const C& c, const pdex::Star<T>* s,
//                    int ci, int cj, int64_t co, T t, T* f) const; }.
std::string rhs_struct(const Program& p, Target target);

// Precision T as the generated source names it, and the name of its entry point `kernel` (kernel_f32,
// kernel_f64, after precision_name): a compiled text holds one precision, the run's.
template <class T>
std::string type_name() {
  return std::is_same_v<T, float> ? "float" : "double";
}
template <class T>
std::string entry_point(const std::string& kernel) {
  return kernel + "_" + std::string(precision_name(std::is_same_v<T, float> ? Precision::f32 : Precision::f64));
}

}  // namespace pdex::eq
