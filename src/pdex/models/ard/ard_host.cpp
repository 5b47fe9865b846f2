// Instantiates the advection-reaction-diffusion engine for the host executors. Each kinetics' kernels
// are compiled in a translation unit of their own (ard_kinetics.cpp), declared here.
#include "pdex/models/ard/ard_stepper_impl.hpp"

namespace pdex {
namespace ard_detail {
#define PDEX_EXTERN_KINETICS(name, R)                                                                    \
  extern template std::unique_ptr<Stepper> make_for<Serial, float, R>(const Serial&, const ArdSpec&);   \
  extern template std::unique_ptr<Stepper> make_for<Serial, double, R>(const Serial&, const ArdSpec&);  \
  extern template std::unique_ptr<Stepper> make_for<OpenMP, float, R>(const OpenMP&, const ArdSpec&);   \
  extern template std::unique_ptr<Stepper> make_for<OpenMP, double, R>(const OpenMP&, const ArdSpec&);
PDEX_ARD_KINETICS(PDEX_EXTERN_KINETICS)
#undef PDEX_EXTERN_KINETICS
}  // namespace ard_detail

template std::unique_ptr<Stepper> make_ard_stepper_on<Serial>(const Serial&, const ArdSpec&, Precision);
template std::unique_ptr<Stepper> make_ard_stepper_on<OpenMP>(const OpenMP&, const ArdSpec&, Precision);
}  // namespace pdex
