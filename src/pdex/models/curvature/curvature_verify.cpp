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

EocRow curvature_errors(const VerifyOptions& o, int n) {
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

void set_eoc(const EocRow& c, EocRow& f) {
  const double log_h = std::log(double(f.n) / c.n);  // h_coarse / h_fine
  f.eoc_l1 = std::log(c.l1 / f.l1) / log_h;
  f.eoc_l2 = std::log(c.l2 / f.l2) / log_h;
  f.eoc_linf = std::log(c.linf / f.linf) / log_h;
}

std::vector<EocRow> curvature_eoc(const VerifyOptions& o) {
  std::vector<EocRow> rows;
  for (int n : o.sizes) {
    EocRow r = curvature_errors(o, n);
    if (!rows.empty()) set_eoc(rows.back(), r);
    rows.push_back(r);
  }
  return rows;
}

}  // namespace pdex
