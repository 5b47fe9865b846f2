#include <cstdio>

#include "pdex/app/commands.hpp"
#include "pdex/core/executor.hpp"
#include "pdex/io/colormap.hpp"
#include "pdex/models/ard/ard_catalog.hpp"

namespace pdex {

int cmd_list() {
  std::printf("Models (model.name); all solve u_t + (a.grad)u = f(u,v) + div(Du M grad u), same for v with g, Dv:\n\n");
  for (const auto& r : ard_catalog()) {
    std::printf("  %-16s %s\n  %-16s %s\n", r.name.c_str(), r.title.c_str(), "", r.equations.c_str());
    for (const auto& p : r.params)
      std::printf("  %-16s   %-6s = %-10g %s\n", "", p.name.c_str(), p.default_value, p.meaning.c_str());
    std::printf("  %-16s   initial u = %g, v = %g; clamp = %s; suggested dt = %g (dx = 1)\n\n", "", r.u0, r.v0,
                r.clamp ? "true" : "false", r.dt);
  }
  std::printf("One-field models (u only; boundaries and [initial] as above):\n");
  std::printf("  %-16s u_t = D lap u + f          params D = 1 (diffusivity), f = 0 (source, may vary per cell)\n", "heat");
  std::printf("  %-16s -D lap u = f (steady)      params D = 1, f = 0; one solve per step, [solver] applies\n", "poisson");
  std::printf("  %-16s lap u = 0 (steady heat, seed 004); no parameters\n\n", "laplace");
  std::printf("  %-16s u_tt = c^2 lap u (seed 001)  params c = 1 (wave speed); time.scheme = explicit (CFL) | crank_nicolson (CG);\n"
              "  %-16s   [model.drops] every, radius, amplitude, seed; initial u (displacement), v (velocity)\n\n", "wave", "");
  std::printf("Parameters are dimensionless (lengths in the unit of grid.dx, times in the unit of time.dt).\n"
              "Each may be a number, { value = x, noise = a, seed = s }, or { file = \"name.npy\" } of shape (ny, nx).\n\n");
  std::printf("Curvature flows of graphs (seed 003; field phi; docs/curvature.md):\n"
              "  %-16s phi_t = Q div(grad phi / Q) + F, Q = sqrt(1 + |grad phi|^2)\n"
              "  %-16s phi_t = -Q div((1/Q)(I - grad phi grad phi^T / Q^2) grad w - w^2/(2Q^3) grad phi) + F, w = Q div(grad phi / Q)\n"
              "  %-16s   forcing = none | manufactured (amplitude = 1); initial phi: values, or preset = radial_sine (k = 3)\n\n",
              "mean_curvature", "willmore", "");
  std::printf("Chemotaxis on [0,1]^2 (seed 002; fields n, c, u1, u2, P | n, c; docs/models.md):\n"
              "  %-16s n_t = lap n - div(n S grad c) - u.grad n, c_t = lap c - n c - u.grad c, u_t = lap u + grad P + n grad phi,\n"
              "  %-16s lap P = -div(n grad phi) by multigrid each step; Dirichlet (model.boundary.n, .c; u = P = 0); S, phi\n"
              "  %-16s n_t = lap n - chi div(n grad c), c_t = lap c + n - c (variant = parabolic) or 0 = lap c + n - c\n"
              "  %-16s (elliptic), zero flux; params chi = 1; growth_warning = 10\n\n",
              "chemotaxis_stokes", "", "keller_segel", "");
  std::printf("Time schemes (time.scheme):  euler   forward Euler (seed 000 eqs. 9-10)\n");
  std::printf("                             theta   diffusion implicit (time.theta: 0.5 Crank-Nicolson, 1 backward Euler;\n"
              "                                     seed 000 eqs. 11-14), advection and reaction explicit\n");
  std::printf("                             merson  Runge-Kutta-Merson, step control by time.tol (seed 003 Alg. 4.1); time.t_end\n"
              "                             rk4     classic Runge-Kutta, fixed time.dt; time.t_end (method of lines, every model\n"
              "                                     but heat/poisson/laplace; the curvature flows take only these two)\n");
  std::printf("Linear solvers (solver.method):  jacobi | weighted_jacobi | rbgs | sor | cg | pcg | bicgstab | multigrid\n");
  std::printf("  preconditioners (solver.preconditioner, pcg and bicgstab):  none | jacobi | multigrid\n");
  std::printf("Advection (model.advection.scheme):  none | centered (seed 000 eq. 8) | upwind\n");
  std::printf("  velocity: velocity = [ax, ay] | preset = rotation | shear | vortex (strength, center, radius) | x, y fields\n");
  std::printf("Diffusion (model.diffusion.kind):  isotropic (eq. 7) | tensor (xx, xy, yy | file | preset = \"along_flow\", ratio)\n");
  std::printf("Boundaries (grid.boundary):  periodic | neumann (zero flux) | dirichlet (value), per side and per field\n");
  std::printf("Initial shapes (initial.<field>.shapes):  square (size) | rectangle (width, height) | disc (radius)\n");
  std::printf("Output formats:  png, npy;  colormaps:");
  for (const auto& c : io::colormap_names()) std::printf(" %s", c.c_str());
  std::printf("\nBackends:\n");
  for (Backend b : {Backend::serial, Backend::openmp, Backend::cuda}) {
    const std::string why = backend_unavailable_reason(b);
    std::string state = why.empty() ? "available: " + device_name(b) : "unavailable: " + why;
#ifdef PDEX_CUDA_FAST_COMPILE
    if (b == Backend::cuda) state += "; kernels compiled unoptimized, as a compile check (PDEX_CUDA_FAST_COMPILE)";
#endif
    std::printf("  %-8s %s\n", std::string(backend_name(b)).c_str(), state.c_str());
  }
  std::printf("Precisions (run.precision):  f32, f64\n");
  return 0;
}

}  // namespace pdex
