#pragma once
// A cell functor may ask the CUDA executor for full occupancy (static constexpr bool
// cuda_full_occupancy = true): its kernels are then compiled for 2048 resident threads a
// multiprocessor, which caps them at 32 registers. For functors that fit the cap without spilling and
// whose kernels are bound by latency; every other functor keeps the compiler's register choice.

namespace pdex {

template <class F>
constexpr bool cuda_full_occupancy_of() {
  if constexpr (requires { F::cuda_full_occupancy; }) return F::cuda_full_occupancy;
  else return false;
}

}  // namespace pdex
