#pragma once
// Curvature-flow tests through the run-time interface, written once and instantiated for every backend
// and precision (the BackendCase machinery of the models' tests); CUDA cases skip without a device.
#include <gtest/gtest.h>

#include <memory>

#include "models/ard_test_support.hpp"
#include "pdex/models/curvature/curvature_stepper.hpp"
#include "pdex/models/curvature/curvature_verify.hpp"

namespace pdex::test {

class CurvatureBackendTest : public ::testing::TestWithParam<BackendCase> {
 protected:
  void SetUp() override {
    if (!backend_available(GetParam().backend))
      GTEST_SKIP() << "no CUDA device: " << backend_unavailable_reason(GetParam().backend);
  }
  bool f32() const { return GetParam().precision == Precision::f32; }
  std::unique_ptr<CurvatureStepper> make(const CurvatureSpec& spec) const {
    return make_curvature_stepper(spec, GetParam().backend, GetParam().precision);
  }
  VerifyOptions study(Flow flow, BcKind bc) const {
    VerifyOptions o;
    o.flow = flow;
    o.boundary = bc;
    o.backend = GetParam().backend;
    o.precision = GetParam().precision;
    o.tol = f32() ? 1e-6 : 1e-8;  // f32: above the rounding noise of the estimate
    return o;
  }
};

}  // namespace pdex::test
