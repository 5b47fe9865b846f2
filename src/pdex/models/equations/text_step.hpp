#pragma once
// One forward-Euler step of a text model on an executor: the compiled kernel where a compiler is found
// (the host's C++ compiler, host_kernel.hpp; NVRTC on the GPU, cuda/nvrtc_kernel.cpp), else the
// interpreter on the host.
#include <functional>

#include "pdex/core/executor.hpp"
#include "pdex/models/equations/program.hpp"
#include "pdex/models/equations/text_cell.hpp"

namespace pdex {

template <class T>
using TextStep = std::function<void(const eq::EulerArgs<T>&)>;

template <class T>
TextStep<T> text_step(const Serial& ex, const eq::Program& p);
template <class T>
TextStep<T> text_step(const OpenMP& ex, const eq::Program& p);
template <class T>
TextStep<T> text_step(const Cuda& ex, const eq::Program& p);

}  // namespace pdex
