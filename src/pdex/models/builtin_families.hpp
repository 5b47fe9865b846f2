#pragma once
// The families pdex ships, one function each in its own folder (<family>/<family>_family.cpp).
#include <vector>

#include "pdex/models/family.hpp"

namespace pdex {

ModelFamily ard_family();         // advection-reaction-diffusion of 1 to 8 species (seed 000)
ModelFamily scalar_family();      // heat, Poisson, Laplace (seed 004)
ModelFamily wave_family();        // the wave equation (seed 001)
ModelFamily chemotaxis_family();  // chemotaxis-Stokes and Keller-Segel (seed 002)
ModelFamily curvature_family();   // mean-curvature and Willmore flows of graphs (seed 003)
ModelFamily equations_family();   // any model typed as equations (text)

inline std::vector<ModelFamily> builtin_families() {
  return {ard_family(), scalar_family(), wave_family(), chemotaxis_family(), curvature_family(), equations_family()};
}

}  // namespace pdex
