#pragma once
// One Runge-Kutta stage of a text model on an executor (text_cell.hpp): the compiled kernel where a
// compiler is found (the host's C++ compiler, host_kernel.hpp; NVRTC on the GPU, cuda/nvrtc_kernel.cpp),
// else the interpreter on the host. With reduce it returns the stage's largest error estimate.
#include <functional>
#include <string>

#include "pdex/core/executor.hpp"
#include "pdex/models/equations/program.hpp"
#include "pdex/models/equations/text_cell.hpp"

namespace pdex {

template <class T>
using TextStage = std::function<double(eq::StageArgs<T>, bool reduce)>;

template <class T>
TextStage<T> text_stage(const Serial& ex, const eq::Program& p);
template <class T>
TextStage<T> text_stage(const OpenMP& ex, const eq::Program& p);
template <class T>
TextStage<T> text_stage(const Cuda& ex, const eq::Program& p);

// Compiles p's GPU kernels by NVRTC for sm_<arch> without a device, and discards them: where no GPU is
// present, the check that the generated source compiles (builds with CUDA only). Throws Error with
// NVRTC's messages kept where it says, or where NVRTC cannot be loaded.
void compile_device_kernels(const eq::Program& p, const std::string& arch);

}  // namespace pdex
