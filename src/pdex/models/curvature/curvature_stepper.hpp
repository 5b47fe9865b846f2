#pragma once
// Builds the engine of a curvature-flow run (seed 003) for a backend and precision chosen at run time.
#include <cstdint>
#include <memory>

#include "pdex/core/executor.hpp"
#include "pdex/core/precision.hpp"
#include "pdex/models/curvature/curvature_spec.hpp"
#include "pdex/time/stepper.hpp"

namespace pdex {

// Sums over the interior at the current time of the error against the manufactured solution:
// sum |e| h1 h2, sum e^2 h1 h2 and max |e| (one time level of seed 003 eqs. 31-33).
struct ErrorSample {
  double l1 = 0, l2_squared = 0, linf = 0;
};

// A curvature flow's method-of-lines stepper, with what its verification and benchmark need.
class CurvatureStepper : public MolStepper {
 public:
  // Throws Error unless the run uses the manufactured solution.
  virtual ErrorSample error_vs_exact() = 0;
  // Floating-point operations per step, counted as the seed counts them (curvature_rhs.hpp), and the
  // right-hand side evaluations per step.
  virtual double flops_per_step() const = 0;
  virtual int rhs_per_step() const = 0;
  // Evaluates the right-hand side n times and waits for it (benchmarks); bytes it moves at least.
  virtual void rhs_only(int64_t n) = 0;
  virtual double rhs_bytes() const = 0;
};

// Throws BackendUnavailable for a backend this build or machine lacks, InputError for a bad spec.
std::unique_ptr<CurvatureStepper> make_curvature_stepper(const CurvatureSpec& spec, Backend backend,
                                                         Precision precision);

// One per executor, each compiled in its own translation unit (the CUDA one by nvcc).
template <class Exec>
std::unique_ptr<CurvatureStepper> make_curvature_stepper_on(const Exec& ex, const CurvatureSpec& spec,
                                                            Precision precision);

}  // namespace pdex
