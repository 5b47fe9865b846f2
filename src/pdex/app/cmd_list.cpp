// pdex list [--json]: the model families as their descriptors state them, then what every run shares:
// schemes, solvers, boundaries, outputs, backends and precisions.
#include <cstdio>
#include <string>

#include "pdex/app/commands.hpp"
#include "pdex/core/executor.hpp"
#include "pdex/core/format.hpp"
#include "pdex/core/version.hpp"
#include "pdex/io/colormap.hpp"
#include "pdex/models/family.hpp"

namespace pdex {

namespace {

std::string joined(const std::vector<std::string>& items, const char* sep = ", ") {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : sep) + s;
  return out;
}

std::string backend_state(Backend b) {
  const std::string why = backend_unavailable_reason(b);
  std::string state = why.empty() ? "available: " + device_name(b) : "unavailable: " + why;
#ifdef PDEX_CUDA_FAST_COMPILE
  if (b == Backend::cuda) state += "; kernels compiled unoptimized, as a compile check (PDEX_CUDA_FAST_COMPILE)";
#endif
  return state;
}

const std::vector<Backend> backends{Backend::serial, Backend::openmp, Backend::cuda};
const std::vector<std::string> schemes{"euler", "theta", "rk4", "merson", "explicit", "crank_nicolson", "solve"};
const std::vector<std::string> solvers{"jacobi", "weighted_jacobi", "rbgs", "sor", "cg", "pcg", "bicgstab", "multigrid"};
const std::vector<std::string> preconditioners{"none", "jacobi", "multigrid"};
const std::vector<std::string> boundaries{"periodic", "neumann", "dirichlet", "robin"};
const std::vector<std::string> formats{"png", "npy"};

void print_model(const ModelDesc& m) {
  std::printf("  %-18s %s\n  %-18s %s\n", m.name.c_str(), m.title.c_str(), "", m.equations.c_str());
  std::printf("  %-18s   fields %s; time.scheme %s\n", "", joined(m.fields).c_str(), joined(m.schemes, " | ").c_str());
  for (const ParamDesc& p : m.params)
    std::printf("  %-18s   %-6s = %-10s %s [%s], slider %s..%s%s\n", "", p.name.c_str(), format_number(p.default_value).c_str(),
                p.meaning.c_str(), p.units.c_str(), format_number(p.min).c_str(), format_number(p.max).c_str(),
                p.per_cell ? "" : ", a number");
  for (const std::string& n : m.notes) std::printf("  %-18s   %s\n", "", n.c_str());
  if (!m.examples.empty()) std::printf("  %-18s   examples/%s\n", "", joined(m.examples, ", examples/").c_str());
  std::printf("\n");
}

void print_text() {
  for (const ModelFamily& f : model_families()) {
    std::printf("%s: %s\n\n", f.name.c_str(), f.title.c_str());
    for (const ModelDesc& m : f.models) print_model(m);
  }
  std::printf("Parameters are in the units of grid.dx (length) and time.dt (time). Each may be a number,\n"
              "{ value = x, noise = a, seed = s }, or { file = \"name.npy\" } of shape (ny, nx), unless marked a number.\n\n");
  std::printf("Time schemes (time.scheme):  euler   forward Euler (seed 000 eqs. 9-10)\n");
  std::printf("                             theta   diffusion implicit (time.theta: 0.5 Crank-Nicolson, 1 backward Euler;\n"
              "                                     seed 000 eqs. 11-14), advection and reaction explicit\n");
  std::printf("                             merson  Runge-Kutta-Merson, step control by time.tol (seed 003 Alg. 4.1); time.t_end\n"
              "                             rk4     classic Runge-Kutta, fixed time.dt; time.t_end\n"
              "                             each model lists the schemes it takes\n");
  std::printf("Linear solvers (solver.method):  %s\n", joined(solvers, " | ").c_str());
  std::printf("  preconditioners (solver.preconditioner, pcg and bicgstab):  %s\n", joined(preconditioners, " | ").c_str());
  std::printf("Boundaries (grid.boundary):  periodic | neumann (zero flux) | dirichlet (value) | robin (a*u + b*du/dn = value;\n"
              "                             text models), per side and per field; text models take values as\n"
              "                             expressions of x, y, t\n");
  std::printf("Initial shapes (initial.<field>.shapes):  square (size) | rectangle (width, height) | disc (radius)\n");
  std::printf("Output formats:  %s;  colormaps: %s\n", joined(formats).c_str(), joined(io::colormap_names(), " ").c_str());
  std::printf("Backends:\n");
  for (Backend b : backends) std::printf("  %-8s %s\n", std::string(backend_name(b)).c_str(), backend_state(b).c_str());
  std::printf("Precisions (run.precision):  f32, f64\n");
}

}  // namespace

nlohmann::json list_json() {
  nlohmann::json b = nlohmann::json::array();
  for (Backend k : backends)
    b.push_back({{"name", backend_name(k)}, {"available", backend_unavailable_reason(k).empty()}, {"state", backend_state(k)}});
  const nlohmann::json j = {{"pdex_version", version},      {"families", families_json()}, {"schemes", schemes},
                            {"solvers", solvers},            {"preconditioners", preconditioners},
                            {"boundaries", boundaries},      {"formats", formats},
                            {"colormaps", io::colormap_names()}, {"backends", b},
                            {"precisions", {"f32", "f64"}}};
  return j;
}

int cmd_list(bool json) {
  if (json)
    std::printf("%s\n", list_json().dump(2).c_str());
  else
    print_text();
  return 0;
}

}  // namespace pdex
