// Stepper::set_values and set_time, which the explorer's brush and rebuilds stand on: what is set reads
// back exactly, and a stepper rebuilt from another's state and time goes on exactly as the other does
// (the same operations on the same numbers), on every family and every backend present.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "app_test_support.hpp"
#include "pdex/app/field_copy.hpp"
#include "pdex/app/run_config.hpp"
#include "pdex/io/field_files.hpp"

namespace pdex::app_testing {
namespace {

struct Case {
  std::string example;
  std::vector<std::string> sets;
  double tol = 0;  // a rebuilt stepper's linear solves start from another guess: equal to this, relative
};

// Small grids; each family and scheme once; the ramped Gray-Scott reads t, the heated plate's sides change with it.
const std::vector<Case> cases = {
    {"gray_scott_spots", {"grid.nx=40", "grid.ny=32"}},
    {"turing_spots_cn", {"grid.nx=32", "grid.ny=32", "solver.tol=1e-10"}, 1e-8},
    {"heat_disc", {"grid.nx=32", "grid.ny=32"}},
    {"keller_segel_aggregation", {"grid.nx=32", "grid.ny=32", "solver.tol=1e-10"}, 1e-8},
    {"chemotaxis_seed002_fig1_32", {"solver.tol=1e-10"}, 1e-8},
    {"curvature_mcf_figure1", {"grid.nx=32", "grid.ny=32", "time.scheme=\"rk4\"", "time.dt=1e-6"}},
    {"equations_gray_scott_ramp", {"grid.nx=40", "grid.ny=16"}},
    {"equations_keller_segel", {"grid.nx=32", "grid.ny=32", "time.scheme=\"theta\""}},
    {"equations_heated_plate", {"grid.nx=32", "grid.ny=32", "grid.dx=0.03125", "solver.tol=1e-10"}, 1e-8},
};

RunConfig load(const Case& c, Backend b) {
  CliOverrides cli;
  cli.sets = c.sets;
  cli.backend = std::string(backend_name(b));
  cli.precision = "f64";
  return load_run_config((fs::path(PDEX_SOURCE_DIR) / "examples" / (c.example + ".toml")).string(), cli);
}

double now(Stepper& s, const RunConfig& rc, int64_t steps) {
  if (auto* mol = dynamic_cast<MolStepper*>(&s)) return mol->time();
  return double(steps) * rc.clock().dt;
}

std::vector<Backend> backends() {
  std::vector<Backend> out{Backend::serial, Backend::openmp};
  if (backend_available(Backend::cuda)) out.push_back(Backend::cuda);
  return out;
}

TEST(SetValues, WhatIsSetReadsBackExactly) {
  for (const Case& c : cases)
    for (Backend b : backends()) {
      SCOPED_TRACE(c.example + " on " + std::string(backend_name(b)));
      const RunConfig rc = load(c, b);
      auto s = rc.setup->make_stepper(b, Precision::f64);
      const int64_t cells = rc.grid().cells();
      for (int f = 0; f < int(s->field_names().size()); ++f) {
        if (!s->settable(f)) continue;
        std::vector<double> v(std::size_t(cells), 0.0);
        for (int64_t k = 0; k < cells; ++k) v[std::size_t(k)] = 0.25 + 1e-3 * double(k % 97);
        s->set_values(f, v);
        EXPECT_EQ(s->values(f), v) << s->field_names()[f];
      }
      EXPECT_THROW(s->set_values(0, std::vector<double>(3, 0.0)), InputError) << "a wrong size is refused";
    }
}

TEST(SetValues, ARebuiltStepperGoesOnAsTheOriginalDoes) {
  for (const Case& c : cases)
    for (Backend b : backends()) {
      SCOPED_TRACE(c.example + " on " + std::string(backend_name(b)));
      const RunConfig rc = load(c, b);
      auto a = rc.setup->make_stepper(b, Precision::f64);
      a->advance(7);
      auto rebuilt = rc.setup->make_stepper(b, Precision::f64);
      int settable = 0;
      for (int f = 0; f < int(a->field_names().size()); ++f)
        if (a->settable(f)) rebuilt->set_values(f, a->values(f)), ++settable;
      rebuilt->set_time(now(*a, rc, 7));
      EXPECT_GE(settable, 1);
      a->advance(5);
      rebuilt->advance(5);
      for (int f = 0; f < int(a->field_names().size()); ++f) {
        const std::vector<double> va = a->values(f), vr = rebuilt->values(f);
        if (c.tol == 0) {
          EXPECT_EQ(vr, va) << a->field_names()[f];
          continue;
        }
        double diff = 0, scale = 0;
        for (std::size_t k = 0; k < va.size(); ++k) diff = std::max(diff, std::abs(vr[k] - va[k])), scale = std::max(scale, std::abs(va[k]));
        EXPECT_LE(diff, c.tol * scale) << a->field_names()[f];
      }
    }
}

// Outputs and checkpoints read a field from the rows where the stepper keeps it (Stepper::rows), in the
// run's precision, with no copy in doubles: every field of every family here, stepped or computed, and
// its rows hold the values the stepper gives, bit for bit, in f32 and f64.
TEST(FieldRows, EveryFamilysFieldsAreReadFromTheirRows) {
  std::vector<Case> all = cases;
  all.push_back({"wave_drops", {"grid.nx=32", "grid.ny=24"}});
  for (const Case& given : all)
    for (Backend b : backends())
      for (Precision p : {Precision::f32, Precision::f64}) {
        SCOPED_TRACE(given.example + " on " + std::string(backend_name(b)) + (p == Precision::f32 ? " f32" : " f64"));
        Case c = given;
        for (std::string& s : c.sets)  // f32 solves stop at their rounding floor, far above 1e-10
          if (p == Precision::f32 && s.starts_with("solver.tol=")) s = "solver.tol=1e-5";
        const RunConfig rc = load(c, b);
        auto s = rc.setup->make_stepper(b, p);
        s->advance(3);
        const Grid2& g = rc.grid();
        const io::ImageGrid grid{g.nx, g.ny, g.x0, g.y0, g.dx, g.dy, g.nz, g.z0, g.dz};
        CopyBuffers buffers;
        for (int f = 0; f < int(s->field_names().size()); ++f) {
          const FieldCopy copy = copy_field(*s, f, buffers);
          if (!s->rows(f).data) {
            EXPECT_NE(c.example.find("equations_"), std::string::npos) << s->field_names()[f] << ": only text models' derived fields have no rows";
            continue;
          }
          EXPECT_TRUE(copy.values.empty()) << s->field_names()[f];
          EXPECT_EQ(s->rows(f).value_bytes, p == Precision::f32 ? 4 : 8);
          EXPECT_EQ(io::row_major(copy.view(), grid), s->values(f)) << s->field_names()[f];
        }
      }
}

// The wave's state is two time levels: a field set moves both, so the velocity is kept.
TEST(SetValues, TheWaveKeepsItsVelocity) {
  const Case c{"wave_drops", {"grid.nx=32", "grid.ny=32", "model.drops.every=0"}};
  const RunConfig rc = load(c, Backend::serial);
  auto a = rc.setup->make_stepper(Backend::serial, Precision::f64);
  auto twin = rc.setup->make_stepper(Backend::serial, Precision::f64);
  a->advance(3), twin->advance(3);
  std::vector<double> lifted = a->values(0);
  for (double& x : lifted) x += 0.5;
  a->set_values(0, lifted);
  a->advance(4), twin->advance(4);
  const std::vector<double> va = a->values(0), vt = twin->values(0);
  for (std::size_t k = 0; k < va.size(); ++k) ASSERT_NEAR(va[k], vt[k] + 0.5, 1e-12) << "cell " << k;
}

}  // namespace
}  // namespace pdex::app_testing
