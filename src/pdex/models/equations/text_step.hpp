#pragma once
// One Runge-Kutta stage of a text model on an executor (text_cell.hpp): the compiled kernel where a
// compiler is found (the host's C++ compiler, host_kernel.hpp; NVRTC on the GPU, cuda/nvrtc_kernel.cpp),
// else the interpreter on the host. With reduce it returns the stage's largest error estimate.
#include <functional>
#include <string>

#include "pdex/core/executor.hpp"
#include "pdex/models/equations/program.hpp"
#include "pdex/models/equations/text_cell.hpp"
#include "pdex/time/stream_args.hpp"

namespace pdex {

template <class T>
using TextStage = std::function<double(eq::StageArgs<T>, bool reduce)>;

template <class T>
TextStage<T> text_stage(const Serial& ex, const eq::Program& p);
template <class T>
TextStage<T> text_stage(const OpenMP& ex, const eq::Program& p);
template <class T>
TextStage<T> text_stage(const Cuda& ex, const eq::Program& p);

// A stage on rows r0 .. r1 - 1 (text_cell.hpp's stage_rows) on the calling thread: the compiled kernel, or
// the interpreter; the rows' largest error estimate.
template <class T>
using TextRows = std::function<double(const eq::StageArgs<T>&, int r0, int r1)>;

// Forward Euler's `steps` steps a pass over cache-blocked rows on the host (time/euler_blocked.hpp), for a
// run that euler_blocked_takes with one ring of ghosts: from `in` into base.st.out, t[l] the time of step
// l; base holds everything else of the steps' stage (reading(), the constants, forward Euler's stores).
template <class T>
using TextBlocked = std::function<void(const eq::StageArgs<T>& base, FieldView<const T> in, const double* t, int steps)>;
template <class T>
TextBlocked<T> text_blocked(const Serial& ex, const eq::Program& p);
template <class T>
TextBlocked<T> text_blocked(const OpenMP& ex, const eq::Program& p);

// Forward Euler's EulerStream<T>::steps steps in one launch on the GPU for a program that is
// eq::streamable() with at most max_stream_species species (cuda/text_stream.cuh): from args.in to args.out
// with args.cell.t the steps' times; the launch's shape (strips, seg_rows) is the pass's to set.
template <class T>
using TextPass = std::function<void(StreamArgs<T, eq::TextStreamCell<T>>)>;
template <class T>
TextPass<T> text_pass(const Cuda& ex, const eq::Program& p);

// Compiles p's GPU kernels by NVRTC for sm_<arch> without a device, and discards them: where no GPU is
// present, the check that the generated source compiles (builds with CUDA only). Throws Error with
// NVRTC's messages kept where it says, or where NVRTC cannot be loaded. A streamable program's streaming
// kernels are compiled too.
void compile_device_kernels(const eq::Program& p, const std::string& arch);

}  // namespace pdex
