#pragma once
// One Runge-Kutta stage of a text model on an executor (text_cell.hpp): the compiled kernel where a
// compiler is found (the host's C++ compiler, host_kernel.hpp; NVRTC on the GPU, cuda/nvrtc_kernel.cpp),
// else the interpreter on the host. With reduce it returns the stage's largest error estimate.
#include <functional>

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

}  // namespace pdex
