#pragma once
// Instantiates the advection-reaction-diffusion engine for the CUDA executor (ard_engine.cu includes it).
#include "pdex/models/ard/ard_stepper_impl.hpp"
#include "pdex/models/ard/kinetics/all.hpp"
#include "pdex/models/ard/cuda/theta_tiles.cuh"
#include "pdex/time/cuda/euler_columns.cuh"
#include "pdex/time/cuda/euler_stream.cuh"
#include "pdex/time/cuda/euler_strips.cuh"
#include "pdex/time/cuda/euler_tiles.cuh"
#include "pdex/time/cuda/graph_loop.hpp"
#include "pdex/linalg/cuda/linear_solvers_cuda.cuh"  // the solvers the theta steppers call, from engine_cuda.cu

namespace pdex {
template std::unique_ptr<Stepper> make_ard_stepper_on<Cuda>(const Cuda&, const ArdSpec&, Precision);
}
