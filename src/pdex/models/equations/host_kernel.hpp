#pragma once
// A text model's Runge-Kutta stage (text_cell.hpp) compiled by the system's C++ compiler into a shared library, loaded
// at run time and cached on disk by the hash of its source, the compiler and this build of pdex, so that
// a second run of the same text starts at once. The compiler is $PDEX_CXX, else $CXX, else c++;
// PDEX_CXX=none runs the interpreter instead. The cache is $PDEX_CACHE_DIR, else $XDG_CACHE_HOME/pdex,
// else ~/.cache/pdex.
#include <optional>
#include <string>

#include "pdex/models/equations/program.hpp"
#include "pdex/models/equations/text_cell.hpp"

namespace pdex::eq {

// The stage in one precision, T: a run takes one, and both made the compile take twice as long.
template <class T>
struct HostKernel {
  T (*stage)(const StageArgs<T>*, int j0, int j1) = nullptr;  // stage_rows
  std::string library;  // the cached shared library
  bool cached = false;  // found in the cache: nothing was compiled
  double seconds = 0;   // the compile's wall time
};

// The generated translation unit.
template <class T>
std::string host_source(const Program& p);

// The compiled kernel, or nullopt with `why` (no compiler, PDEX_CXX=none, or a compiler failure,
// whose log is kept in the cache folder): the caller runs the interpreter.
template <class T>
std::optional<HostKernel<T>> host_kernel(const Program& p, std::string& why);

}  // namespace pdex::eq
