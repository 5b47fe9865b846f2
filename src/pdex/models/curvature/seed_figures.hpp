#pragma once
// The runs of seed 003's Figures 1-2 (and its Table 8), for the configuration layer and the benchmark.
#include <vector>

#include "pdex/grid/grid.hpp"
#include "pdex/models/curvature/curvature_spec.hpp"

namespace pdex {

// sin(k pi sqrt(x^2 + y^2)) at the cells of g, row-major: seed 003 eq. 35 with k = 3.
std::vector<double> radial_sine(const Grid2& g, double k);

// Seed 003's Figures 1-2, whose runs its Table 8 times: eq. 35 on (-2, 2)^2, h = 0.03125 (128^2),
// Neumann sides, Runge-Kutta-Merson. The seed does not give its epsilon; this is 1e-6, as in
// examples/curvature_mcf_figure1.toml and curvature_willmore_figure2.toml.
CurvatureSpec figure_spec(Flow flow);

// The figures' end times: mean curvature 0.5, Willmore 0.1.
double figure_end_time(Flow flow);

}  // namespace pdex
