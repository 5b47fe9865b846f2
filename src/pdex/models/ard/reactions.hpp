#pragma once
// Reaction kinetics of the advection-reaction-diffusion models: f(u) for the `ncomp` species of a cell,
// f[c] from u[c]. Each is a parameter struct plus a device function, in a header of its own under
// kinetics/, so that a change to one rebuilds only what uses it; every parameter may vary per cell.
// Equations as in docs/models.md. map(f) gives the same kinetics with every parameter passed through f
// (ArdRhs::at reads them all at one cell). Here: their declarations and the list of them.
#include "pdex/models/ard/param.hpp"

namespace pdex {

template <class T, class P = Param<T>>
struct Turing;
template <class T, class P = Param<T>>
struct GrayScott;
template <class T, class P = Param<T>>
struct FitzHughNagumo;
template <class T, class P = Param<T>>
struct Brusselator;
template <class T, class P = Param<T>>
struct Schnakenberg;
template <class T, class P = Param<T>>
struct FisherKpp;
template <class T, int N, class P = Param<T>>
struct CyclicCompetition;

// May and Leonard (1975): three species; and four.
template <class T, class P = Param<T>>
using MayLeonard = CyclicCompetition<T, 3, P>;
template <class T, class P = Param<T>>
using CyclicCompetition4 = CyclicCompetition<T, 4, P>;

}  // namespace pdex

// Every built-in kinetics: its name in configurations and its type, for the engine's dispatch
// (ard_stepper_impl.hpp) and its translation units (a kinetics' host kernels are compiled in one of
// their own, ard_kinetics.cpp, listed again with its header in src/CMakeLists.txt).
#define PDEX_ARD_KINETICS(X)                                                                         \
  X("turing", Turing) X("gray_scott", GrayScott) X("fitzhugh_nagumo", FitzHughNagumo)                \
  X("brusselator", Brusselator) X("schnakenberg", Schnakenberg) X("fisher_kpp", FisherKpp)            \
  X("may_leonard", MayLeonard) X("cyclic_competition_4", CyclicCompetition4)
