// The host executors' engine for one built-in kinetics, PDEX_KINETICS, whose header is included first:
// src/CMakeLists.txt compiles this file once for each, so that a change to one kinetics rebuilds its own
// kernels (ard_host.cpp declares them).
#include "pdex/models/ard/ard_stepper_impl.hpp"

#ifndef PDEX_KINETICS
#error "PDEX_KINETICS names the kinetics this translation unit instantiates, its header included first (src/CMakeLists.txt)"
#endif

namespace pdex::ard_detail {
template std::unique_ptr<Stepper> make_for<Serial, float, PDEX_KINETICS>(const Serial&, const ArdSpec&);
template std::unique_ptr<Stepper> make_for<Serial, double, PDEX_KINETICS>(const Serial&, const ArdSpec&);
template std::unique_ptr<Stepper> make_for<OpenMP, float, PDEX_KINETICS>(const OpenMP&, const ArdSpec&);
template std::unique_ptr<Stepper> make_for<OpenMP, double, PDEX_KINETICS>(const OpenMP&, const ArdSpec&);
}  // namespace pdex::ard_detail
