// pdex verify curvature: the convergence study of seed 003 Section 5 (Tables 2-4) against the
// manufactured solution of docs/curvature.md: space-time errors (eqs. 31-33) and EOC (eq. 34) per grid.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "pdex/app/commands.hpp"
#include "pdex/app/suite_args.hpp"
#include "pdex/core/error.hpp"
#include "pdex/models/curvature/curvature_verify.hpp"

namespace pdex {

namespace {
const char* flow_name(Flow f) { return f == Flow::mean_curvature ? "mean_curvature" : "willmore"; }

// The seed's table for the study, for the reader to compare by eye.
const char* seed_table(Flow f, Precision p) {
  if (f == Flow::willmore) return "seed 003 Table 4 (f64, its own eq. 30 solution)";
  return p == Precision::f32 ? "seed 003 Table 2 (its own eq. 30 solution)" : "seed 003 Table 3 (its own eq. 30 solution)";
}

nlohmann::json run_study(const VerifyOptions& o) {
  std::printf("\n%s flow, %s boundaries, %s, %s: (-%g, %g)^2, T = %g, %d time levels, Merson eps = %g; compare %s\n",
              flow_name(o.flow), o.boundary == BcKind::neumann ? "Neumann" : "Dirichlet",
              std::string(precision_name(o.precision)).c_str(), std::string(backend_name(o.backend)).c_str(),
              o.half_width, o.half_width, o.t_end, o.samples, o.tol, seed_table(o.flow, o.precision));
  std::printf("%8s %11s %6s %11s %6s %11s %6s %9s %9s %10s\n", "meshes", "L1 error", "EOC", "L2 error", "EOC",
              "Linf error", "EOC", "steps", "rejected", "seconds");
  nlohmann::json rows = nlohmann::json::array();
  std::vector<EocRow> done;
  for (int n : o.sizes) {  // one grid at a time, so that long studies print as they go
    EocRow r = curvature_errors(o, n);
    if (!done.empty()) set_eoc(done.back(), r);
    done.push_back(r);
    const std::string mesh = std::to_string(n) + "^2";
    if (done.size() == 1)
      std::printf("%8s %11.2e %6s %11.2e %6s %11.2e %6s", mesh.c_str(), r.l1, "", r.l2, "", r.linf, "");
    else
      std::printf("%8s %11.2e %6.2f %11.2e %6.2f %11.2e %6.2f", mesh.c_str(), r.l1, r.eoc_l1, r.l2, r.eoc_l2, r.linf,
                  r.eoc_linf);
    std::printf(" %9lld %9lld %10.3f\n", (long long)r.steps, (long long)r.rejected, r.seconds);
    std::fflush(stdout);
    rows.push_back({{"n", n}, {"l1", r.l1}, {"l2", r.l2}, {"linf", r.linf}, {"eoc_l1", r.eoc_l1}, {"eoc_l2", r.eoc_l2},
                    {"eoc_linf", r.eoc_linf}, {"steps", r.steps}, {"rejected", r.rejected}, {"seconds", r.seconds}});
  }
  return {{"flow", flow_name(o.flow)}, {"boundary", o.boundary == BcKind::neumann ? "neumann" : "dirichlet"},
          {"precision", precision_name(o.precision)}, {"backend", backend_name(o.backend)},
          {"device", device_name(o.backend)}, {"half_width", o.half_width}, {"amplitude", o.amplitude},
          {"t_end", o.t_end}, {"samples", o.samples}, {"tol", o.tol}, {"rows", rows}};
}
}  // namespace

int cmd_verify(const std::string& suite, const std::vector<std::string>& args) {
  if (suite != "curvature") throw InputError("unknown verification suite '" + suite + "': expected curvature");
  CLI::App app{"pdex verify curvature: EOC of the curvature flows against a manufactured solution (seed 003)"};
  std::vector<std::string> flows{"mean_curvature"}, precisions{"f64"};
  std::string boundary = "neumann", backend = "auto", json_file;
  std::vector<int> sizes;
  double t_end = 0, tol = 0;
  VerifyOptions base;
  app.add_option("--flows", flows, "mean_curvature,willmore")->delimiter(',');
  app.add_option("--boundary", boundary, "neumann | dirichlet")->check(CLI::IsMember({"neumann", "dirichlet"}));
  app.add_option("--backend", backend, "serial | openmp | cuda | auto");
  app.add_option("--precisions", precisions, "f32,f64")->delimiter(',');
  app.add_option("--sizes", sizes, "grid widths (default 16..512, to 1024 on CUDA; Willmore 16..64, to 256 on CUDA)")
      ->delimiter(',');
  app.add_option("--t-end", t_end, "end time (default 0.1 as the seed; Willmore 0.01)");
  app.add_option("--tol", tol, "Merson's epsilon (default 1e-8 in f64, 1e-6 in f32)");
  app.add_option("--samples", base.samples, "time levels of the space-time norms");
  app.add_option("--json", json_file, "write the results as JSON");
  if (const auto status = parse_suite_args(app, args)) return *status;
  base.backend = backend == "auto" ? best_backend() : parse_backend(backend);
  base.boundary = boundary == "neumann" ? BcKind::neumann : BcKind::dirichlet;
  const bool gpu = base.backend == Backend::cuda;
  nlohmann::json out = nlohmann::json::array();
  for (const auto& fn : flows) {
    if (fn != "mean_curvature" && fn != "willmore")
      throw InputError("--flows: unknown flow '" + fn + "': expected mean_curvature or willmore");
    for (const auto& pn : precisions) {
      VerifyOptions o = base;
      o.flow = fn == "willmore" ? Flow::willmore : Flow::mean_curvature;
      o.precision = parse_precision(pn);
      const bool w = o.flow == Flow::willmore;
      o.sizes = !sizes.empty() ? sizes
                : w            ? (gpu ? std::vector<int>{16, 32, 64, 128, 256} : std::vector<int>{16, 32, 64})
                               : (gpu ? std::vector<int>{16, 32, 64, 128, 256, 512, 1024}
                                      : std::vector<int>{16, 32, 64, 128, 256, 512});
      o.t_end = t_end > 0 ? t_end : w ? 0.01 : 0.1;
      o.tol = tol > 0 ? tol : o.precision == Precision::f32 ? 1e-6 : 1e-8;
      out.push_back(run_study(o));
    }
  }
  if (!json_file.empty()) {
    std::ofstream f(json_file);
    f << nlohmann::json{{"suite", "curvature"}, {"studies", out}}.dump(2) << "\n";
    if (!f) throw Error("cannot write " + json_file);
    std::printf("\nwritten %s\n", json_file.c_str());
  }
  return 0;
}

}  // namespace pdex
