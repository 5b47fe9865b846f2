#include "pdex/models/curvature/curvature_verify.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "pdex/models/curvature/curvature_stepper.hpp"

namespace pdex {

CurvatureSpec verification_spec(const VerifyOptions& o, int n) {
  CurvatureSpec s;
  s.flow = o.flow;
  const double h = 2 * o.half_width / n;
  s.grid = Grid2{n, n, h, h, -o.half_width, -o.half_width};
  s.bc = FieldBoundary::all(o.boundary, 0.0);
  s.manufactured = true;
  s.amplitude = o.amplitude;
  s.scheme = "merson";
  s.tol = o.tol;
  s.dt = o.dt;
  return s;
}

namespace {
EocRow run_one(const VerifyOptions& o, int n) {
  auto stepper = make_curvature_stepper(verification_spec(o, n), o.backend, o.precision);
  const double theta = o.t_end / o.samples;
  EocRow row;
  row.n = n;
  double l2_squared = 0;
  for (int k = 1; k <= o.samples; ++k) {  // level 0 holds the exact projection: no error
    const auto t0 = std::chrono::steady_clock::now();
    stepper->advance_to(k * theta);
    row.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const ErrorSample e = stepper->error_vs_exact();
    row.l1 += theta * e.l1;
    l2_squared += theta * e.l2_squared;
    row.linf = std::max(row.linf, e.linf);
  }
  row.l2 = std::sqrt(l2_squared);
  row.steps = stepper->step_stats().accepted;
  row.rejected = stepper->step_stats().rejected;
  return row;
}

// eq. 34 for grids of widths n1 < n2 (h1 / h2 = n2 / n1).
double eoc(double e1, double e2, int n1, int n2) { return std::log(e1 / e2) / std::log(double(n2) / n1); }
}  // namespace

std::vector<EocRow> curvature_eoc(const VerifyOptions& o) {
  std::vector<EocRow> rows;
  for (int n : o.sizes) {
    EocRow r = run_one(o, n);
    if (!rows.empty()) {
      const EocRow& p = rows.back();
      r.eoc_l1 = eoc(p.l1, r.l1, p.n, n), r.eoc_l2 = eoc(p.l2, r.l2, p.n, n), r.eoc_linf = eoc(p.linf, r.linf, p.n, n);
    }
    rows.push_back(r);
  }
  return rows;
}

}  // namespace pdex
