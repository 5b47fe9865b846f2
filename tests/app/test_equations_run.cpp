// Text models through `pdex run`: a built-in model written as equations gives the built-in kernels'
// answer on every host backend and boundary kind, and bad text is refused before the run with the key.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <unistd.h>
#include <string>

#include "app_test_support.hpp"
#include "pdex/core/executor.hpp"
#include "pdex/core/format.hpp"
#include "pdex/io/npy.hpp"
#include "pdex/models/ard/ard_catalog.hpp"

namespace pdex::app_testing {
namespace {

// Gray-Scott's parameters, for the text models below.
#define GRAY_SCOTT_PARAMS "[model.params]\nDu = 0.2097\nDv = 0.105\nF = 0.0367\nk = 0.0649\n"
const char* gray_scott_text =
    "name = \"equations\"\nspecies = [\"u\", \"v\"]\n"
    "[model.equations]\nu = \"Du*lap(u) - u*v^2 + F*(1 - u)\"\nv = \"Dv*lap(v) + u*v^2 - (F + k)*v\"\n" GRAY_SCOTT_PARAMS;
const char* gray_scott_builtin = "name = \"gray_scott\"\nclamp = false\n";

std::string config(const std::string& model, const std::string& boundary, const std::string& backend,
                   const std::string& precision, int steps, const std::string& time = "") {
  return "[model]\n" + model +
         "[grid]\nnx = 24\nny = 20\nboundary = " + boundary + "\n" +
         (time.empty() ? "[time]\ndt = 1.0\nsteps = " + std::to_string(steps) + "\n" : time) +
         "[initial]\n"
         "u = { value = 1.0, noise = 0.01, seed = 1, shapes = [{ shape = \"square\", size = 8.0, value = 0.5 }] }\n"
         "v = { value = 0.0, noise = 0.01, seed = 2, shapes = [{ shape = \"square\", size = 8.0, value = 0.25 }] }\n"
         "[output]\nformats = [\"npy\"]\n"
         "[run]\nbackend = \"" + backend + "\"\nprecision = \"" + precision + "\"\nprogress = false\n";
}

// The compiled text models of this test process, in a cache of their own, removed at exit.
struct TestCache {
  fs::path dir = fs::temp_directory_path() / ("pdex-test-cache-" + std::to_string(::getpid()));
  ~TestCache() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};
std::string cache_prefix() {
  static const TestCache cache;
  return "PDEX_CACHE_DIR=" + cache.dir.string() + " ";
}

// The last output of `field` of a run of `text` (by simulated time: the step count is the scheme's).
std::vector<double> last_field(const std::string& text, const std::string& field) {
  ScratchDir dir;
  write_file_bytes(dir / "cfg.toml", text);
  const Outcome o = run_pdex({"run", dir.str("cfg.toml"), "--out", dir.str("out")}, cache_prefix());
  EXPECT_EQ(o.status, 0) << o.output;
  fs::path last;
  for (const auto& e : fs::directory_iterator(dir / "out"))
    if (e.path().filename().string().starts_with(field + "_") && e.path().extension() == ".npy" && e.path() > last) last = e.path();
  return last.empty() ? std::vector<double>{} : io::read_npy(last).data;
}

// The fields named, at step `steps`, from one run of `text`.
std::vector<std::vector<double>> final_fields(const std::string& text, const std::vector<std::string>& fields, int steps,
                                              const std::string& env = "") {
  ScratchDir dir;
  write_file_bytes(dir / "cfg.toml", text);
  const Outcome o = run_pdex({"run", dir.str("cfg.toml"), "--out", dir.str("out")}, cache_prefix() + env);
  EXPECT_EQ(o.status, 0) << o.output;
  std::vector<std::vector<double>> values;
  for (const std::string& field : fields) {
    char name[64];
    std::snprintf(name, sizeof name, "%s_%06d.npy", field.c_str(), steps);
    values.push_back(io::read_npy(dir / "out" / name).data);
  }
  return values;
}

std::vector<double> final_field(const std::string& text, const std::string& field, int steps, const std::string& env = "") {
  return final_fields(text, {field}, steps, env)[0];
}

double largest_difference(const std::vector<double>& a, const std::vector<double>& b) {
  EXPECT_EQ(a.size(), b.size());
  double d = 0;
  for (std::size_t k = 0; k < a.size() && k < b.size(); ++k) d = std::max(d, std::abs(a[k] - b[k]));
  return d;
}

TEST(EquationsRun, GrayScottAsTextIsTheBuiltInModelOnEveryHostBackendAndBoundary) {
  const int steps = 1000;
  const std::string dirichlet = "{ left = { kind = \"dirichlet\", u = 0.3, v = 0.1 }, right = \"neumann\", "
                                "bottom = { kind = \"dirichlet\", value = 0.2 }, top = \"neumann\" }";
  for (const std::string& boundary : {std::string("\"periodic\""), std::string("\"neumann\""), dirichlet})
    for (const std::string backend : {"serial", "openmp"}) {
      SCOPED_TRACE(boundary + " " + backend);
      const auto text = final_fields(config(gray_scott_text, boundary, backend, "f64", steps), {"u", "v"}, steps);
      const auto builtin = final_fields(config(gray_scott_builtin, boundary, backend, "f64", steps), {"u", "v"}, steps);
      for (std::size_t c = 0; c < text.size(); ++c) EXPECT_LT(largest_difference(text[c], builtin[c]), 1e-12) << "species " << c;
    }
}

// A catalogue model, built in or as its text preset, from its uniform state with noise.
std::string catalogue_config(const ReactionInfo& r, bool text, const std::string& boundary, const std::string& backend,
                             const std::string& precision, int steps) {
  std::string cfg = text ? cat({"[model]\nname = \"equations\"\npreset = \"", r.name, "\"\n"}) : cat({"[model]\nname = \"", r.name, "\"\n"});
  cfg += cat({"[grid]\nnx = 24\nny = 20\nboundary = ", boundary, "\n[time]\ndt = ", format_number(r.dt), "\nsteps = ",
              std::to_string(steps), "\n[initial]\n"});
  for (std::size_t k = 0; k < r.species.size(); ++k)
    cfg += cat({r.species[k], " = { value = ", format_number(r.initial[k]), ", noise = 0.01, seed = ", std::to_string(k + 1), " }\n"});
  return cfg + cat({"[output]\nformats = [\"npy\"]\n[run]\nbackend = \"", backend, "\"\nprecision = \"", precision, "\"\nprogress = false\n"});
}

// The largest difference between a catalogue model's text preset and its built-in kernels over every
// species, relative to the built-in field's largest value where that is above 1.
double preset_difference(const ReactionInfo& r, const std::string& boundary, const std::string& backend, const std::string& precision,
                         int steps, const std::string& builtin_backend = "") {
  const auto text = final_fields(catalogue_config(r, true, boundary, backend, precision, steps), r.species, steps);
  const auto builtin =
      final_fields(catalogue_config(r, false, boundary, builtin_backend.empty() ? backend : builtin_backend, precision, steps), r.species, steps);
  double d = 0;
  for (std::size_t c = 0; c < text.size(); ++c) {
    double size = 1;
    for (double x : builtin[c]) size = std::max(size, std::abs(x));
    d = std::max(d, largest_difference(text[c], builtin[c]) / size);
  }
  return d;
}

const std::string mixed_boundary = "{ left = { kind = \"dirichlet\", value = 0.2 }, right = \"neumann\", bottom = \"neumann\", "
                                   "top = { kind = \"dirichlet\", value = 0.1 } }";

TEST(EquationsRun, EveryCatalogueModelAsTextIsItsBuiltInKernelOnEveryHostBackendAndBoundary) {
  for (const ReactionInfo& r : ard_catalog())
    for (const std::string& boundary : {std::string("\"periodic\""), std::string("\"neumann\""), mixed_boundary})
      for (const std::string backend : {"serial", "openmp"}) {
        SCOPED_TRACE(r.name + " " + boundary + " " + backend);
        EXPECT_LT(preset_difference(r, boundary, backend, "f64", 1000), 1e-12);
      }
}

TEST(EquationsRun, InSinglePrecisionEveryCatalogueModelAsTextAgreesToRounding) {
  for (const ReactionInfo& r : ard_catalog()) {
    SCOPED_TRACE(r.name);
    EXPECT_LT(preset_difference(r, "\"periodic\"", "openmp", "f32", 200), 2e-5);
  }
}

TEST(EquationsRun, TensorDiffusionAsTextIsTheBuiltInAnisotropicKernel) {
  const ReactionInfo& gs = ard_reaction("gray_scott");
  auto with = [&](bool text) {
    std::string cfg = catalogue_config(gs, text, "\"periodic\"", "openmp", "f64", 40);
    const std::string model =
        text ? "[model.equations]\nu = \"div(tensor(Du*mxx, Du*mxy, Du*myy)*grad(u)) - u*v^2 + F*(1 - u)\"\n"
               "v = \"div(tensor(Dv*mxx, Dv*mxy, Dv*myy)*grad(v)) + u*v^2 - (F + k)*v\"\n"
               "[model.params]\nmxx = { value = 1.0, noise = 0.2, seed = 5 }\nmxy = 0.3\nmyy = 0.6\n"
             : "[model.diffusion]\nkind = \"tensor\"\nxx = { value = 1.0, noise = 0.2, seed = 5 }\nxy = 0.3\nyy = 0.6\n";
    cfg.replace(cfg.find("v = { value = 0"), 15, "v = { value = 0.25");
    return cfg.insert(cfg.find("[grid]"), model);
  };
  const auto text = final_field(with(true), "v", 40), builtin = final_field(with(false), "v", 40);
  EXPECT_LT(largest_difference(text, builtin), 1e-12);
  std::string isotropic = catalogue_config(gs, true, "\"periodic\"", "openmp", "f64", 40);
  isotropic.replace(isotropic.find("v = { value = 0"), 15, "v = { value = 0.25");
  EXPECT_GT(largest_difference(text, final_field(isotropic, "v", 40)), 1e-6) << "the tensor changed the run";
  expect_refused({{"[model]\nname = \"equations\"\nspecies = [\"u\"]\n[model.equations]\nu = \"tensor(1, 0, 1)\"\n"
                   "[grid]\nnx = 8\n[time]\ndt = 0.1\nsteps = 1\n",
                   {"model.equations.u", "stands only in a diffusion's flux"}}});
}

TEST(EquationsRun, APresetTakesOverridesAndPdexListShowsItsText) {
  const ReactionInfo& gs = ard_reaction("gray_scott");
  // v raised to 0.25 everywhere, where the kinetics are busy and F matters (until v decays).
  auto with = [&](bool text, const std::string& params) {
    std::string cfg = catalogue_config(gs, text, "\"periodic\"", "serial", "f64", 20);
    cfg.replace(cfg.find("v = { value = 0"), 15, "v = { value = 0.25");
    return cfg.insert(cfg.find("[grid]"), params);
  };
  const std::string override_f = "[model.params]\nF = 0.05\n";
  const auto text = final_field(with(true, override_f), "v", 20), builtin = final_field(with(false, override_f), "v", 20);
  EXPECT_LT(largest_difference(text, builtin), 1e-12);
  EXPECT_GT(largest_difference(text, final_field(with(true, ""), "v", 20)), 1e-3) << "the override changed the run";
  const Outcome list = run_pdex({"list"});
  EXPECT_TRUE(contains(list.output, "model.preset = \"gray_scott\": u_t = Du*lap(u) - u*v^2 + F*(1 - u)")) << list.output;
  expect_refused({{"[model]\nname = \"equations\"\npreset = \"grey_scott\"\n[grid]\nnx = 8\n[time]\ndt = 0.1\nsteps = 1\n",
                   {"model.preset", "unknown model 'grey_scott'", "gray_scott"}}});
}

const std::string theta_time = "[time]\nscheme = \"theta\"\ntheta = 0.5\ndt = 2.0\nsteps = 100\n[solver]\ntol = 1e-14\nmax_iter = 400\n";
const std::string rk4_time = "[time]\nscheme = \"rk4\"\ndt = 1.0\nt_end = 200.0\n";
const std::string merson_time = "[time]\nscheme = \"merson\"\ndt = 0.5\nt_end = 60.0\ntol = 1e-4\n";  // one first step for both

TEST(EquationsRun, EverySchemeOfTheTextIsTheBuiltInSchemesAnswer) {
  for (const std::string& time : {theta_time, rk4_time, merson_time})
    for (const std::string boundary : {"\"periodic\"", "\"neumann\""}) {
      SCOPED_TRACE(time + boundary);
      const auto text = last_field(config(gray_scott_text, boundary, "openmp", "f64", 0, time), "v");
      const auto builtin = last_field(config(gray_scott_builtin, boundary, "openmp", "f64", 0, time), "v");
      ASSERT_FALSE(text.empty());
      // Merson's step control passes the last bits of its error estimates (the two sum the terms in
      // different orders) on to its step sizes: the answers agree to the tolerance's leverage on them.
      EXPECT_LT(largest_difference(text, builtin), time == merson_time ? 1e-11 : 1e-12);
    }
}

TEST(EquationsRun, AManufacturedSolutionWithForcingConvergesAtSecondOrder) {
  // u = e^t sin x sin y solves u_t = lap(u) + 3 e^t sin x sin y on the periodic square of side 2 pi.
  auto error = [](int n) {
    const double h = 2 * M_PI / n;
    const std::string text = "[model]\nname = \"equations\"\nspecies = [\"u\"]\n[model.equations]\n"
                             "u = \"lap(u) + 3*exp(t)*sin(x)*sin(y)\"\n[grid]\nnx = " + std::to_string(n) + "\nny = " +
                             std::to_string(n) + "\ndx = " + std::to_string(h) + "\nboundary = \"periodic\"\n"
                             "[time]\nscheme = \"rk4\"\ndt = 0.002\nt_end = 0.2\n[initial]\nu = \"sin(x)*sin(y)\"\n"
                             "[output]\nformats = [\"npy\"]\n[run]\nprogress = false\nbackend = \"openmp\"\nprecision = \"f64\"\n";
    const std::vector<double> u = last_field(text, "u");
    double e = 0;
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        e = std::max(e, std::abs(u[std::size_t(j * n + i)] - std::exp(0.2) * std::sin((i + 0.5) * h) * std::sin((j + 0.5) * h)));
    return e;
  };
  EXPECT_NEAR(error(16) / error(32), 4.0, 0.25);
}

TEST(EquationsRun, TheStableStepIsEstimatedAndATooLargeStepWarned) {
  ScratchDir dir;
  write_file_bytes(dir / "cfg.toml", "[model]\nname = \"equations\"\nspecies = [\"u\"]\n[model.equations]\nu = \"D*lap(u) - u\"\n"
                                     "[model.params]\nD = 2.0\n[grid]\nnx = 8\n[time]\ndt = 0.2\nsteps = 1\n"
                                     "[initial]\nu = \"sin(x)\"\n[run]\nprogress = false\nbackend = \"serial\"\n");
  const Outcome o = run_pdex({"run", dir.str("cfg.toml"), "--out", dir.str("out")}, cache_prefix());
  EXPECT_EQ(o.status, 0) << o.output;
  EXPECT_TRUE(contains(o.output, "warning")) << o.output;
  EXPECT_TRUE(contains(o.output, "exceeds the largest stable forward-Euler step")) << o.output;
  // The checkerboard mode's eigenvalue -8 D - 1 for dx = 1, so dt <= 2 / 17.
  EXPECT_NEAR(read_json(dir / "out" / "summary.json")["stability"]["dt_max"].get<double>(), 2.0 / 17, 1e-7);
  // u_t = -u + 3 v, v_t = -3 u - v: eigenvalues -1 +- 3i, stable for |1 + dt lambda| <= 1, dt <= 2/10 (a
  // bound on |lambda| alone would allow 2/4, where forward Euler grows).
  write_file_bytes(dir / "osc.toml", "[model]\nname = \"equations\"\nspecies = [\"u\", \"v\"]\n"
                                     "[model.equations]\nu = \"-u + 3*v\"\nv = \"-3*u - v\"\n[grid]\nnx = 8\n[time]\ndt = 0.1\nsteps = 1\n"
                                     "[initial]\nu = 1.0\n[run]\nprogress = false\nbackend = \"serial\"\n");
  const Outcome osc = run_pdex({"run", dir.str("osc.toml"), "--out", dir.str("osc")}, cache_prefix());
  EXPECT_EQ(osc.status, 0) << osc.output;
  EXPECT_NEAR(read_json(dir / "osc" / "summary.json")["stability"]["dt_max"].get<double>(), 0.2, 1e-7);
}

TEST(EquationsRun, OnTheGpuTheTextIsTheBuiltInModelAndTheCpusAnswer) {
  if (!backend_available(Backend::cuda)) GTEST_SKIP() << "no CUDA device: " << backend_unavailable_reason(Backend::cuda);
  const int steps = 1000;
  for (const std::string boundary : {"\"periodic\"", "\"neumann\""}) {
    SCOPED_TRACE(boundary);
    const auto text = final_field(config(gray_scott_text, boundary, "cuda", "f64", steps), "v", steps);
    EXPECT_LT(largest_difference(text, final_field(config(gray_scott_builtin, boundary, "cuda", "f64", steps), "v", steps)), 1e-12);
    EXPECT_LT(largest_difference(text, final_field(config(gray_scott_text, boundary, "openmp", "f64", steps), "v", steps)), 1e-12);
  }
  const std::string clamped = std::string(gray_scott_text) + "[model.clamp]\nv = 0.0\n";
  EXPECT_LT(largest_difference(final_field(config(clamped, "\"periodic\"", "cuda", "f64", 300), "v", 300),
                               final_field(config(clamped, "\"periodic\"", "openmp", "f64", 300), "v", 300)),
            1e-12);
  for (const std::string& time : {theta_time, merson_time}) {
    SCOPED_TRACE(time);
    // Merson: the error estimates' last bits (their reduction sums in another order on the GPU) steer the steps.
    EXPECT_LT(largest_difference(last_field(config(gray_scott_text, "\"neumann\"", "cuda", "f64", 0, time), "v"),
                                 last_field(config(gray_scott_text, "\"neumann\"", "openmp", "f64", 0, time), "v")),
              time == merson_time ? 1e-11 : 1e-12);
  }
  for (const ReactionInfo& r : ard_catalog()) {  // every preset against its built-in CUDA kernels
    SCOPED_TRACE(r.name);
    EXPECT_LT(preset_difference(r, mixed_boundary, "cuda", "f64", 1000), 1e-12);
  }
  const auto single = final_field(config(gray_scott_text, "\"periodic\"", "cuda", "f32", 200), "v", 200);
  EXPECT_LT(largest_difference(single, final_field(config(gray_scott_builtin, "\"periodic\"", "cuda", "f32", 200), "v", 200)), 1e-5);
}

// Text models for the schedules of several steps a pass: a clamp, a parameter field, x, y and t, an
// advection, one species and two.
const std::string two_initial = "[initial]\nu = { value = 0.5, noise = 0.1, seed = 1 }\nv = { value = 0.25, noise = 0.1, seed = 2 }\n";
const std::vector<std::string> pass_models{
    std::string(gray_scott_text) + "[model.clamp]\nv = 0.0\n" + two_initial,
    "name = \"equations\"\nspecies = [\"u\", \"v\"]\n[model.equations]\n"
    "u = \"a*lap(u) - advect(u, 0.3, b) + div(b*grad(u)) + 0.1*sin(0.05*x*y + t)*u + grad_xf(v)\"\n"
    "v = \"0.2*lap(v) - 0.1*v\"\n[model.params]\na = \"0.5 + 0.2*sin(0.1*x)\"\nb = 0.2\n" + two_initial,
    "name = \"equations\"\nspecies = [\"u\"]\n[model.equations]\nu = \"0.5*lap(u) + u - u^3\"\n"
    "[initial]\nu = { value = 0.0, noise = 0.5, seed = 3 }\n"};
// Every side kind, and each axis periodic alone.
const std::vector<std::string> pass_boundaries{
    "\"periodic\"", "\"neumann\"",
    "{ left = { kind = \"robin\", a = 1.0, b = 2.0, value = 0.5 }, right = { kind = \"dirichlet\", value = 0.3 }, bottom = \"neumann\", "
    "top = { kind = \"dirichlet\", value = 0.1 } }",
    "{ left = \"periodic\", right = \"periodic\", bottom = { kind = \"dirichlet\", value = 0.2 }, top = \"neumann\" }",
    "{ left = \"neumann\", right = { kind = \"dirichlet\", value = 0.2 }, bottom = \"periodic\", top = \"periodic\" }"};

// The species after `steps` steps of `model` on nx x ny cells with run.steps_per_pass = k, checking that
// the run took several steps a pass (`schedule`, k > 1) or one.
std::array<std::vector<double>, 2> after_passes(const std::string& model, const std::string& boundary, const std::string& backend,
                                                const std::string& precision, int k, int nx, int ny, int steps, const std::string& schedule) {
  const std::string cfg = "[model]\n" + model + "[grid]\nnx = " + std::to_string(nx) + "\nny = " + std::to_string(ny) +
                          "\nboundary = " + boundary + "\n[time]\ndt = 0.2\nsteps = " + std::to_string(steps) +
                          "\n[output]\nformats = [\"npy\"]\nevery = 0\n[run]\nbackend = \"" + backend + "\"\nprogress = false\nprecision = \"" +
                          precision + "\"\nsteps_per_pass = " + std::to_string(k) + "\n";
  ScratchDir dir;
  write_file_bytes(dir / "cfg.toml", cfg);
  const Outcome o = run_pdex({"run", dir.str("cfg.toml"), "--out", dir.str("out")}, cache_prefix());
  EXPECT_EQ(o.status, 0) << o.output;
  const std::string name = read_json(dir / "out" / "summary.json")["schedule"]["name"];
  EXPECT_EQ(name.starts_with(schedule), k > 1) << name;
  char tail[32];
  std::snprintf(tail, sizeof tail, "_%06d.npy", steps);
  const fs::path v = dir / "out" / ("v" + std::string(tail));
  return {io::read_npy(dir / "out" / ("u" + std::string(tail))).data, fs::exists(v) ? io::read_npy(v).data : std::vector<double>{}};
}

// On the CPU a text model goes several steps a pass over cache-blocked rows (equations_plan.hpp), bit for
// bit its steps one at a time, for several counts, on a grid whose rows are no multiple of a chunk, for
// a step count that leaves steps after the last whole pass.
TEST(EquationsRun, OnTheCpuCacheBlockedRowsAreBitwiseOneStepAPass) {
  for (const std::string precision : {"f32", "f64"})
    for (const std::string& model : pass_models)
      for (const std::string& boundary : pass_boundaries)
        for (const int k : {2, 5}) {
          SCOPED_TRACE(precision + " k=" + std::to_string(k) + " " + boundary + "\n" + model);
          const std::string backend = k == 2 ? "openmp" : "serial";
          EXPECT_EQ(after_passes(model, boundary, backend, precision, k, 37, 71, 13, "cache-blocked rows"),
                    after_passes(model, boundary, backend, precision, 1, 37, 71, 13, "cache-blocked rows"));
        }
}

// On the GPU a text model whose operators read species (or numbers) goes several steps a pass by
// register streaming (equations_plan.hpp), bit for bit its steps one at a time, on a grid whose sizes are
// no multiple of a strip or a walk, for a step count that leaves steps after the last whole pass.
TEST(EquationsRun, OnTheGpuStreamingIsBitwiseOneStepAPass) {
  if (!backend_available(Backend::cuda)) GTEST_SKIP() << "no CUDA device: " << backend_unavailable_reason(Backend::cuda);
  for (const std::string precision : {"f32", "f64"})
    for (const std::string& model : pass_models)
      for (const std::string& boundary : pass_boundaries) {
        SCOPED_TRACE(precision + " " + boundary + "\n" + model);
        const int k = precision == "f32" ? 4 : 6;
        EXPECT_EQ(after_passes(model, boundary, "cuda", precision, k, 261, 75, 27, "register streaming"),
                  after_passes(model, boundary, "cuda", precision, 1, 261, 75, 27, "register streaming"));
      }
}

TEST(EquationsRun, OnTheGpuTensorsOneSidedDifferencesRobinSidesAndAlgebraicSpeciesGiveTheCpusAnswer) {
  if (!backend_available(Backend::cuda)) GTEST_SKIP() << "no CUDA device: " << backend_unavailable_reason(Backend::cuda);
  auto cfg = [](const std::string& backend) {
    return "[model]\nname = \"equations\"\nspecies = [\"u\"]\n[model.equations]\n"
           "u = \"div(tensor(1 + 0.5*x/L_x, 0.2, 0.7)*grad(u)) - 0.1*grad_xf(u) + 0.05*grad_yb(u*u)\"\n"
           "[model.algebraic]\nw = \"u^2 - lap(u)\"\n"
           "[grid]\nnx = 24\nny = 20\nboundary = { left = { kind = \"robin\", a = 1.0, b = 2.0, value = 0.5 }, right = \"neumann\", "
           "bottom = \"neumann\", top = { kind = \"dirichlet\", value = 0.2 } }\n[time]\ndt = 0.05\nsteps = 300\n"
           "[initial]\nu = \"exp(-((x - 12)^2 + (y - 10)^2)/10) + 0.01*rand()\"\n"
           "[output]\nformats = [\"npy\"]\n[run]\nprogress = false\nprecision = \"f64\"\nbackend = \"" + backend + "\"\n";
  };
  for (const std::string field : {"u", "w"}) {
    SCOPED_TRACE(field);
    EXPECT_LT(largest_difference(final_field(cfg("cuda"), field, 300), final_field(cfg("openmp"), field, 300)), 1e-12);
  }
}

TEST(EquationsRun, AClampKeepsASpeciesAtItsFloorAsTheBuiltInClampDoes) {
  // v starts as noise around 0: the first steps push it below 0, where both clamps act.
  const std::string text = std::string(gray_scott_text) + "[model.clamp]\nu = 0.0\nv = 0.0\n";
  const auto clamped = final_field(config(text, "\"periodic\"", "openmp", "f64", 300), "v", 300);
  const auto builtin = final_field(config("name = \"gray_scott\"\n", "\"periodic\"", "openmp", "f64", 300), "v", 300);
  EXPECT_LT(largest_difference(clamped, builtin), 1e-12);
  EXPECT_GE(*std::min_element(clamped.begin(), clamped.end()), 0.0);
  const auto free = final_field(config(gray_scott_text, "\"periodic\"", "openmp", "f64", 300), "v", 300);
  EXPECT_GT(largest_difference(clamped, free), 1e-4) << "the clamp acted in this run";
}

TEST(EquationsRun, InSinglePrecisionTheTwoAgreeToRounding) {
  const int steps = 200;
  const auto text = final_field(config(gray_scott_text, "\"periodic\"", "openmp", "f32", steps), "v", steps);
  const auto builtin = final_field(config(gray_scott_builtin, "\"periodic\"", "openmp", "f32", steps), "v", steps);
  EXPECT_LT(largest_difference(text, builtin), 1e-5);
}

TEST(EquationsRun, TheInterpreterGivesTheCompiledAnswerToTheBit) {
  const int steps = 300;
  const std::string cfg = config(gray_scott_text, "\"neumann\"", "openmp", "f64", steps);
  EXPECT_EQ(final_field(cfg, "v", steps, "PDEX_CXX=none "), final_field(cfg, "v", steps));
  ScratchDir dir;
  write_file_bytes(dir / "cfg.toml", cfg);
  const Outcome o = run_pdex({"run", dir.str("cfg.toml"), "--out", dir.str("out")}, "PDEX_CXX=none ");
  EXPECT_TRUE(contains(o.output, "runs in the interpreter")) << o.output;
}

TEST(EquationsRun, AnInitialValueMayBeAnExpressionOfThePosition) {
  ScratchDir dir;
  write_file_bytes(dir / "cfg.toml", "[model]\nname = \"equations\"\nspecies = [\"u\"]\n[model.equations]\nu = \"lap(u)\"\n"
                                     "[model.params]\nh = 0.5\n[grid]\nnx = 12\nny = 8\ndx = 0.25\nx0 = -1.0\n"
                                     "[time]\ndt = 0.01\nsteps = 0\n[initial]\nu = \"1 + h*exp(-(x^2 + (y - L_y/2)^2))\"\n"
                                     "[output]\nformats = [\"npy\"]\n[run]\nprogress = false\nbackend = \"serial\"\nprecision = \"f64\"\n");
  const Outcome o = run_pdex({"run", dir.str("cfg.toml"), "--out", dir.str("out")}, cache_prefix());
  ASSERT_EQ(o.status, 0) << o.output;
  const std::vector<double> u = io::read_npy(dir / "out" / "u_000000.npy").data;
  ASSERT_EQ(u.size(), 96u);
  for (int j = 0; j < 8; ++j)
    for (int i = 0; i < 12; ++i) {
      const double x = -1.0 + (i + 0.5) * 0.25, y = (j + 0.5) * 0.25;
      EXPECT_NEAR(u[std::size_t(j * 12 + i)], 1 + 0.5 * std::exp(-(x * x + (y - 1.0) * (y - 1.0))), 1e-15) << i << ", " << j;
    }
}

// One step of u_t = <equation> from u = 0 with dt = 1 on a 16 x 12 grid of spacing 0.25: the equation's
// value at every cell, with `extra` (parameters, ...) added to the model.
std::vector<double> one_step(const std::string& equation, const std::string& extra, const std::string& boundary = "\"neumann\"") {
  return final_field("[model]\nname = \"equations\"\nspecies = [\"u\"]\n[model.equations]\nu = \"" + equation + "\"\n" + extra +
                         "[grid]\nnx = 16\nny = 12\ndx = 0.25\nboundary = " + boundary + "\n[time]\ndt = 1.0\nsteps = 1\n"
                         "[output]\nformats = [\"npy\"]\n[run]\nprogress = false\nbackend = \"serial\"\nprecision = \"f64\"\n",
                     "u", 1);
}

TEST(EquationsRun, AParameterMayBeAnExpressionOfThePosition) {
  const auto u = one_step("F", "[model.params]\nF = \"0.02 + 0.04*x/L_x + y\"\n");
  ASSERT_EQ(u.size(), 192u);
  for (int j = 0; j < 12; ++j)
    for (int i = 0; i < 16; ++i) EXPECT_NEAR(u[std::size_t(j * 16 + i)], 0.02 + 0.04 * (i + 0.5) / 16 + (j + 0.5) * 0.25, 1e-15);
}

TEST(EquationsRun, OneSidedDerivativesAreTheForwardAndBackwardDifferences) {
  // q = x^2 + 3 y^2: forward in x (q(x + dx) - q(x))/dx = 2x + dx, backward 2x - dx, and in y 6y +- 3 dy.
  const std::string q = "[model.params]\nq = \"x^2 + 3*y^2\"\n";
  const double h = 0.25;
  const std::vector<std::pair<std::string, std::function<double(double, double)>>> cases{
      {"grad_xf(q)", [&](double x, double) { return 2 * x + h; }},
      {"grad_xb(q)", [&](double x, double) { return 2 * x - h; }},
      {"grad_yf(q)", [&](double, double y) { return 6 * y + 3 * h; }},
      {"grad_yb(q)", [&](double, double y) { return 6 * y - 3 * h; }},
      {"lap(lap(q))", [&](double, double) { return 0.0; }}};
  for (const auto& [e, exact] : cases) {
    SCOPED_TRACE(e);
    const auto u = one_step(e, q);
    ASSERT_EQ(u.size(), 192u);
    for (int j = 2; j < 10; ++j)  // away from the mirrored ghosts
      for (int i = 2; i < 14; ++i) EXPECT_NEAR(u[std::size_t(j * 16 + i)], exact((i + 0.5) * h, (j + 0.5) * h), 1e-11);
  }
}

// Mean and standard deviation.
std::pair<double, double> moments(const std::vector<double>& v) {
  double m = 0, s = 0;
  for (double x : v) m += x;
  m /= double(v.size());
  for (double x : v) s += (x - m) * (x - m);
  return {m, std::sqrt(s / double(v.size()))};
}

TEST(EquationsRun, RandAndRandnDrawSeededReproducibleNoise) {
  auto initial = [](const std::string& u, const std::string& v) {
    return "[model]\nname = \"equations\"\nspecies = [\"u\", \"v\"]\n[model.equations]\nu = \"0\"\nv = \"0\"\n"
           "[grid]\nnx = 64\nny = 64\n[time]\ndt = 1.0\nsteps = 0\n[initial]\nu = " + u + "\nv = " + v + "\n"
           "[output]\nformats = [\"npy\"]\n[run]\nprogress = false\nbackend = \"serial\"\nprecision = \"f64\"\n";
  };
  const std::string cfg = initial("\"0.5 + 0.1*randn()\"", "\"rand()\"");
  const auto fields = final_fields(cfg, {"u", "v"}, 0);
  const std::vector<double>& u = fields[0];
  const std::vector<double>& v = fields[1];
  const auto [um, us] = moments(u);
  const auto [vm, vs] = moments(v);
  EXPECT_NEAR(um, 0.5, 0.01);   // 4096 draws: the mean's standard error is 0.0016
  EXPECT_NEAR(us, 0.1, 0.005);
  EXPECT_NEAR(vm, 0.5, 0.02);   // uniform: mean 1/2, standard deviation 1/sqrt(12)
  EXPECT_NEAR(vs, 1 / std::sqrt(12.0), 0.01);
  EXPECT_GE(*std::min_element(v.begin(), v.end()), 0.0);
  EXPECT_LT(*std::max_element(v.begin(), v.end()), 1.0);
  double cov = 0;  // the two keys draw independently
  for (std::size_t k = 0; k < u.size(); ++k) cov += (u[k] - um) * (v[k] - vm);
  EXPECT_LT(std::abs(cov / double(u.size()) / (us * vs)), 0.1);
  EXPECT_EQ(final_field(cfg, "u", 0), u) << "the same configuration draws the same noise";
  const std::string seeded = initial("{ expression = \"0.5 + 0.1*randn()\", seed = 5 }", "\"rand()\"");
  EXPECT_GT(largest_difference(final_field(seeded, "u", 0), u), 0.01) << "another seed, other noise";
  expect_refused({{"[model]\nname = \"equations\"\nspecies = [\"u\"]\n[model.equations]\nu = \"rand() - u\"\n"
                   "[grid]\nnx = 8\n[time]\ndt = 0.1\nsteps = 1\n",
                   {"model.equations.u", "rand() draws noise for initial values and parameters only", "^"}}});
}

TEST(EquationsRun, AnAlgebraicSpeciesIsComputedFromTheOthersAndWritten) {
  // Cahn-Hilliard, u_t = lap(mu) with mu = u^3 - u - g lap(u): u's mean is conserved, and the mu written
  // is the expression of the u written beside it.
  const int steps = 400;
  const std::string cfg =
      "[model]\nname = \"equations\"\nspecies = [\"u\"]\n[model.equations]\nu = \"lap(mu)\"\n"
      "[model.algebraic]\nmu = \"u^3 - u - g*lap(u)\"\n[model.params]\ng = 1.0\n"
      "[grid]\nnx = 32\nny = 24\nboundary = \"periodic\"\n[time]\ndt = 0.002\nsteps = " + std::to_string(steps) + "\n"
      "[initial]\nu = \"0.1 + 0.2*randn()\"\n[output]\nformats = [\"npy\"]\n[run]\nprogress = false\nbackend = \"openmp\"\nprecision = \"f64\"\n";
  const auto u0 = final_field(cfg, "u", 0), u = final_field(cfg, "u", steps), mu = final_field(cfg, "mu", steps);
  ASSERT_EQ(mu.size(), u.size());
  EXPECT_NEAR(moments(u).first, moments(u0).first, 1e-13);
  EXPECT_LT(moments(u).second, moments(u0).second) << "the noise coarsens";
  auto at = [&](int i, int j) { return u[std::size_t(((j + 24) % 24) * 32 + (i + 32) % 32)]; };
  for (int j = 0; j < 24; ++j)
    for (int i = 0; i < 32; ++i) {
      const double c = at(i, j), lap = at(i + 1, j) + at(i - 1, j) + at(i, j + 1) + at(i, j - 1) - 4 * c;
      EXPECT_NEAR(mu[std::size_t(j * 32 + i)], c * c * c - c - lap, 1e-12);
    }
}

TEST(EquationsRun, RobinSidesHoldTheirConditionAtTheSteadyState) {
  // u_t = lap(u) on [0, 1] with u - 0.5 du/dn = 1 on the left and 2u + du/dn = 3 on the right (n outward)
  // settles to u = 1.125 + 0.25 x, which the cell-centred ghosts reproduce exactly.
  const std::string cfg =
      "[model]\nname = \"equations\"\nspecies = [\"u\"]\n[model.equations]\nu = \"lap(u)\"\n"
      "[grid]\nnx = 16\nny = 4\ndx = 0.0625\nboundary = { left = { kind = \"robin\", a = 1.0, b = 0.5, value = 1.0 }, "
      "right = { kind = \"robin\", a = 2.0, b = 1.0, value = 3.0 }, bottom = \"neumann\", top = \"neumann\" }\n"
      "[time]\ndt = 0.0005\nsteps = 40000\n[output]\nformats = [\"npy\"]\n[run]\nprogress = false\nbackend = \"openmp\"\nprecision = \"f64\"\n";
  const auto u = final_field(cfg, "u", 40000);
  ASSERT_EQ(u.size(), 64u);
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < 16; ++i) EXPECT_NEAR(u[std::size_t(j * 16 + i)], 1.125 + 0.25 * (i + 0.5) * 0.0625, 1e-10) << i;
  const std::string robin = "boundary = { left = { kind = \"robin\", a = 1.0, b = 1.0, value = 0.0 }, right = \"neumann\", "
                            "bottom = \"neumann\", top = \"neumann\" }\n";
  expect_refused({
      {"[model]\nname = \"heat\"\n[grid]\nnx = 8\n" + robin + "[time]\ndt = 0.1\nsteps = 1\n", {"grid.boundary.left", "Robin sides are taken by text models"}},
      {"[model]\nname = \"equations\"\nspecies = [\"u\"]\n[model.equations]\nu = \"lap(u)\"\n[grid]\nnx = 8\n"
       "boundary = { left = { kind = \"robin\", a = -1.0, b = 1.0 }, right = \"neumann\", bottom = \"neumann\", top = \"neumann\" }\n"
       "[time]\ndt = 0.1\nsteps = 1\n", {"grid.boundary.left", "a >= 0 and b >= 0"}},
  });
}

// u_t = lap(u) on [0, 1] x [0, 1] (64^2 cells: multigrid has levels) with the Robin sides of the test
// above, by the theta scheme and `solver`.
std::string robin_theta(const std::string& solver, const std::string& backend = "openmp") {
  return "[model]\nname = \"equations\"\nspecies = [\"u\"]\n[model.equations]\nu = \"lap(u)\"\n"
         "[grid]\nnx = 64\nny = 64\ndx = 0.015625\nboundary = { left = { kind = \"robin\", a = 1.0, b = 0.5, value = 1.0 }, "
         "right = { kind = \"robin\", a = 2.0, b = 1.0, value = 3.0 }, bottom = \"neumann\", top = \"neumann\" }\n"
         "[time]\nscheme = \"theta\"\ntheta = 1.0\ndt = 0.05\nsteps = 200\n[solver]\nmethod = \"" + solver + "\"\ntol = 1e-10\n"
         "[output]\nformats = [\"npy\"]\n[run]\nprogress = false\nbackend = \"" + backend + "\"\nprecision = \"f64\"\n";
}

TEST(EquationsRun, TheThetaSchemeTakesRobinSidesWithEverySolver) {
  for (const std::string solver : {"cg", "bicgstab", "sor", "multigrid"}) {
    SCOPED_TRACE(solver);
    const auto u = final_field(robin_theta(solver), "u", 200);
    ASSERT_EQ(u.size(), 64u * 64u);
    double e = 0;
    for (int j = 0; j < 64; ++j)
      for (int i = 0; i < 64; ++i) e = std::max(e, std::abs(u[std::size_t(j * 64 + i)] - (1.125 + 0.25 * (i + 0.5) / 64)));
    EXPECT_LT(e, 1e-8);
  }
  // On the way there, Crank-Nicolson converges at second order in time to the explicit scheme's answer.
  auto transient = [](const std::string& time) {
    return last_field("[model]\nname = \"equations\"\nspecies = [\"u\"]\n[model.equations]\nu = \"0.1*lap(u)\"\n"
                       "[grid]\nnx = 16\nny = 8\ndx = 0.0625\nboundary = { left = { kind = \"robin\", a = 1.0, b = 0.5, value = 1.0 }, "
                       "right = \"neumann\", bottom = \"neumann\", top = { kind = \"robin\", a = 0.5, b = 1.0, value = 0.2 } }\n" +
                           time + "[initial]\nu = \"sin(3*x)\"\n[output]\nformats = [\"npy\"]\n[run]\nprogress = false\n"
                                  "backend = \"openmp\"\nprecision = \"f64\"\n",
                      "u");
  };
  auto cn = [](const std::string& dt) {
    return "[time]\nscheme = \"theta\"\ntheta = 0.5\ndt = " + dt + "\nt_end = 0.1\n[solver]\nmethod = \"cg\"\ntol = 1e-13\n";
  };
  const auto reference = transient("[time]\nscheme = \"rk4\"\ndt = 0.0005\nt_end = 0.1\n");
  const double coarse = largest_difference(transient(cn("0.002")), reference), fine = largest_difference(transient(cn("0.001")), reference);
  EXPECT_NEAR(coarse / fine, 4.0, 0.5) << coarse << " " << fine;  // second order in time
}

// u_t = lap(u) with every side Dirichlet, its value `value`, on [0.3, 1.3] x [-0.2, 0.8] (n^2 cells) to
// t = 0.05 by `time`'s scheme: the last state.
std::vector<double> dirichlet_run(int n, const std::string& value, const std::string& time, const std::string& backend) {
  const std::string side = "{ kind = \"dirichlet\", value = \"" + value + "\" }";
  return last_field("[model]\nname = \"equations\"\nspecies = [\"u\"]\n[model.equations]\nu = \"lap(u)\"\n"
                    "[grid]\nnx = " + std::to_string(n) + "\nny = " + std::to_string(n) + "\ndx = " + std::to_string(1.0 / n) +
                        "\nx0 = 0.3\ny0 = -0.2\nboundary = { left = " + side + ", right = " + side + ", bottom = " + side +
                        ", top = " + side + " }\n" + time + "[initial]\nu = \"" + value + "\"\n"
                        "[output]\nformats = [\"npy\"]\n[run]\nprogress = false\nbackend = \"" + backend + "\"\nprecision = \"f64\"\n",
                    "u");
}

// The largest difference of that state from `exact` (of x, y, t).
double dirichlet_error(int n, const std::string& value, const std::string& time, const std::function<double(double, double, double)>& exact) {
  const std::vector<double> u = dirichlet_run(n, value, time, "openmp");
  const double h = 1.0 / n;
  double e = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) e = std::max(e, std::abs(u[std::size_t(j * n + i)] - exact(0.3 + (i + 0.5) * h, -0.2 + (j + 0.5) * h, 0.05)));
  return e;
}

const char* rk4_to_005 = "[time]\nscheme = \"rk4\"\ndt = 0.00005\nt_end = 0.05\n";
const char* cn_to_005 = "[time]\nscheme = \"theta\"\ntheta = 0.5\ndt = 0.0005\nt_end = 0.05\n[solver]\nmethod = \"multigrid\"\ntol = 1e-12\n";

TEST(EquationsRun, DirichletValuesMayBeExpressionsOfPositionAndTime) {
  // x + 2 y is harmonic and the cell-centred ghosts carry a linear function exactly: it stays as it is.
  const auto linear = [](double x, double y, double) { return x + 2 * y; };
  for (const std::string time : {rk4_to_005, cn_to_005, "[time]\ndt = 0.00005\nt_end = 0.05\n"}) {
    SCOPED_TRACE(time);
    EXPECT_LT(dirichlet_error(16, "x + 2*y", time, linear), 1e-10);
  }
  // u = e^(-2t) sin(2x + 1) cos(y) ... decays as e^(-5t): sides that change with time, second order in space.
  const auto mode = [](double x, double y, double t) { return std::exp(-5 * t) * std::sin(2 * x + 1) * std::cos(y); };
  const std::string value = "exp(-5*t)*sin(2*x + 1)*cos(y)";
  for (const std::string time : {rk4_to_005, cn_to_005}) {
    SCOPED_TRACE(time);
    const double coarse = dirichlet_error(16, value, time, mode), fine = dirichlet_error(32, value, time, mode);
    EXPECT_NEAR(coarse / fine, 4.0, 0.4) << coarse << " " << fine;
  }
}

TEST(EquationsRun, ABoundaryValuesExpressionIsCheckedAndReportedAsWritten) {
  const std::string model = "[model]\nname = \"equations\"\nspecies = [\"u\"]\n[model.equations]\nu = \"D*lap(u)\"\n";
  auto sides = [](const std::string& left) {
    return "[grid]\nnx = 8\nboundary = { left = { kind = \"dirichlet\", value = \"" + left +
           "\" }, right = { kind = \"robin\", a = 1.0, b = 1.0, value = \"sin(t)\" }, bottom = \"neumann\", top = \"neumann\" }\n"
           "[time]\ndt = 0.1\nsteps = 1\n[run]\nprogress = false\nbackend = \"serial\"\n";
  };
  expect_refused({
      {model + "[model.params]\nD = 1.0\n" + sides("u + 1"), {"grid.boundary.left.value", "cannot use a species"}},
      {model + "[model.params]\nD = \"1 + x\"\n" + sides("D*y"), {"grid.boundary.left.value", "parameter 'D' varies from cell to cell"}},
      {model + "[model.params]\nD = 1.0\n" + sides("z"), {"grid.boundary.left.value", "'z' is a 3D grid's"}},
      {"[model]\nname = \"heat\"\n" + sides("y"), {"grid.boundary.left.value", "taken by text models"}},
      {model + "[model.params]\nD = 1.0\n" + sides("1/(y - 0.5)"), {"grid.boundary.left.value", "gives an infinity", "cell y=0"}},
      {model + "[model.params]\nD = 1.0\n" + sides("0") + "[initial]\nu = \"sqrt(x - 2)\"\n", {"initial.u", "gives nan at x=0, y=0"}},
  });
  ScratchDir dir;
  write_file_bytes(dir / "cfg.toml", model + "[model.params]\nD = 2.0\nu0 = 3.0\n" + sides("u0*y/L_y"));
  const Outcome o = run_pdex({"run", dir.str("cfg.toml"), "--out", dir.str("out")}, cache_prefix());
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_FALSE(contains(o.output, "never used")) << "u0 is used by a side:\n" << o.output;
  const auto bc = read_json(dir / "out" / "summary.json")["config"]["grid"]["boundary"];
  EXPECT_EQ(bc["left"]["u"]["value"], "u0*y/L_y");
  EXPECT_EQ(bc["right"]["u"]["value"], "sin(t)");
  EXPECT_EQ(bc["right"]["u"]["kind"], "robin");
}

TEST(EquationsRun, OnTheGpuRobinSidesInTheThetaSchemeAndSidesThatChangeWithTimeGiveTheCpusAnswer) {
  if (!backend_available(Backend::cuda)) GTEST_SKIP() << "no CUDA device: " << backend_unavailable_reason(Backend::cuda);
  for (const std::string solver : {"cg", "sor", "multigrid"}) {
    SCOPED_TRACE(solver);
    EXPECT_LT(largest_difference(final_field(robin_theta(solver, "cuda"), "u", 200), final_field(robin_theta(solver, "openmp"), "u", 200)), 1e-9);
  }
  const std::string value = "exp(-5*t)*sin(2*x + 1)*cos(y)";
  for (const std::string time : {rk4_to_005, cn_to_005}) {
    SCOPED_TRACE(time);
    EXPECT_LT(largest_difference(dirichlet_run(32, value, time, "cuda"), dirichlet_run(32, value, time, "openmp")), 1e-11);
  }
}

TEST(EquationsRun, BadTextIsRefusedWithTheKeyBeforeTheRun) {
  const std::string tail = "[grid]\nnx = 8\n[time]\ndt = 0.1\nsteps = 1\n[run]\nprogress = false\nbackend = \"serial\"\n";
  expect_refused({
      {"[model]\nname = \"equations\"\nspecies = [\"u\"]\n[model.equations]\nu = \"lap(w)\"\n" + tail,
       {"model.equations.u", "unknown name 'w'", "^"}},
      {"[model]\nname = \"equations\"\nspecies = [\"u\", \"v\"]\n[model.equations]\nu = \"lap(u)\"\n" + tail,
       {"model.equations", "species 'v' has no equation"}},
      {"[model]\nname = \"equations\"\nspecies = [\"u\"]\n[model.equations]\nu = \"u\"\nw = \"u\"\n" + tail,
       {"model.equations.w", "not one of model.species"}},
      {"[model]\nname = \"equations\"\n[model.equations]\nu = \"u\"\n" + tail, {"model.species"}},
      {"[model]\nname = \"equations\"\nspecies = [\"u\"]\n[model.equations]\nu = \"u/0\"\n" + tail, {"division by zero"}},
      {"[model]\nname = \"equations\"\nspecies = [\"u\"]\n[model.equations]\nu = \"u\"\n[initial]\nu = \"lap(x)\"\n" + tail,
       {"initial.u", "cannot use a species or an operator"}},
      {"[model]\nname = \"equations\"\nspecies = [\"u\"]\n[model.equations]\nu = \"u\"\n[initial]\nu = \"exp(-r)\"\n" + tail,
       {"initial.u", "unknown name 'r'"}},
  });
}

TEST(EquationsRun, EmitSourcePrintsTheGeneratedCodeAndRunsNothing) {
  ScratchDir dir;
  write_file_bytes(dir / "cfg.toml", config(gray_scott_text, "\"periodic\"", "serial", "f64", 10));
  const Outcome o = run_pdex({"run", dir.str("cfg.toml"), "--out", dir.str("out"), "--emit-source"}, cache_prefix());
  EXPECT_EQ(o.status, 0) << o.output;
  EXPECT_TRUE(contains(o.output, "struct Rhs")) << o.output;
  EXPECT_TRUE(contains(o.output, "pdex::lap(")) << o.output;
  EXPECT_TRUE(contains(o.output, "pdex_stage_f64(")) << o.output;
  EXPECT_FALSE(contains(o.output, "pdex_stage_f32(")) << "the run's precision alone\n" << o.output;
  EXPECT_FALSE(fs::exists(dir / "out")) << "nothing ran";
  write_file_bytes(dir / "builtin.toml", config(gray_scott_builtin, "\"periodic\"", "serial", "f64", 10));
  const Outcome b = run_pdex({"run", dir.str("builtin.toml"), "--emit-source"});
  EXPECT_NE(b.status, 0);
  EXPECT_TRUE(contains(b.output, "built-in kernels")) << b.output;
}

TEST(EquationsRun, AnUnusedParameterIsAWarning) {
  ScratchDir dir;
  write_file_bytes(dir / "cfg.toml", "[model]\nname = \"equations\"\nspecies = [\"u\"]\n[model.equations]\nu = \"-u\"\n"
                                     "[model.params]\nrate = 2.0\n[grid]\nnx = 8\n[time]\ndt = 0.1\nsteps = 1\n"
                                     "[run]\nprogress = false\nbackend = \"serial\"\n");
  const Outcome o = run_pdex({"run", dir.str("cfg.toml"), "--out", dir.str("out")}, cache_prefix());
  EXPECT_EQ(o.status, 0) << o.output;
  EXPECT_TRUE(contains(o.output, "warning")) << o.output;
  EXPECT_TRUE(contains(o.output, "model.params.rate is never used")) << o.output;
}

// ---- Text models on 3D grids ----

// A run of `model` on a 12 x 10 x 8 grid (cells of size 1), `time` its [time] table.
std::string config_3d(const std::string& model, const std::string& boundary, const std::string& backend, const std::string& time,
                      const std::string& initial = "u = { value = 1.0, noise = 0.05, seed = 1 }\n"
                                                   "v = { value = 0.25, noise = 0.1, seed = 2 }\n") {
  return "[model]\n" + model + "[grid]\nnx = 12\nny = 10\nnz = 8\nboundary = " + boundary + "\n" + time + "[initial]\n" + initial +
         "[output]\nformats = [\"npy\"]\n[run]\nbackend = \"" + backend + "\"\nprecision = \"f64\"\nprogress = false\n";
}

const std::string euler_time_3d = "[time]\ndt = 0.5\nsteps = 200\n";
const std::string mixed_boundary_3d = "{ left = { kind = \"dirichlet\", value = 0.2 }, right = \"neumann\", bottom = \"periodic\", "
                                      "top = \"periodic\", front = \"neumann\", back = { kind = \"dirichlet\", u = 0.9, v = 0.1 } }";

TEST(EquationsRun, OnA3dGridTheTextIsTheBuiltInModelByEveryScheme) {
  const std::string theta = "[time]\nscheme = \"theta\"\ntheta = 0.5\ndt = 2.0\nsteps = 50\n[solver]\nmethod = \"multigrid\"\ntol = 1e-13\n";
  const std::string rk4 = "[time]\nscheme = \"rk4\"\ndt = 1.0\nt_end = 60.0\n";
  for (const std::string& time : {euler_time_3d, theta, rk4})
    for (const std::string& boundary : {std::string("\"periodic\""), mixed_boundary_3d})
      for (const std::string backend : {"serial", "openmp"}) {
        SCOPED_TRACE(time + boundary + " " + backend);
        const auto text = last_field(config_3d(gray_scott_text, boundary, backend, time), "v");
        const auto builtin = last_field(config_3d(gray_scott_builtin, boundary, backend, time), "v");
        ASSERT_EQ(text.size(), 12u * 10 * 8);
        EXPECT_LT(largest_difference(text, builtin), 1e-12);
      }
}

// Gray-Scott with a full 3D diffusion tensor (every entry not 0, xx varying per cell), and with an upwind
// velocity whose x and z components vary per cell, built in and as text.
const std::string tensor_3d_builtin = std::string(gray_scott_builtin) +
                                      "[model.diffusion]\nkind = \"tensor\"\nxx = { value = 1.0, noise = 0.2, seed = 5 }\nxy = 0.3\n"
                                      "yy = 0.8\nxz = -0.2\nyz = 0.25\nzz = 0.6\n";
const std::string tensor_3d_text =
    "name = \"equations\"\nspecies = [\"u\", \"v\"]\n[model.equations]\n"
    "u = \"div(tensor(Du*mxx, Du*mxy, Du*myy, Du*mxz, Du*myz, Du*mzz)*grad(u)) - u*v^2 + F*(1 - u)\"\n"
    "v = \"div(tensor(Dv*mxx, Dv*mxy, Dv*myy, Dv*mxz, Dv*myz, Dv*mzz)*grad(v)) + u*v^2 - (F + k)*v\"\n"
    GRAY_SCOTT_PARAMS
    "mxx = { value = 1.0, noise = 0.2, seed = 5 }\nmxy = 0.3\nmyy = 0.8\nmxz = -0.2\nmyz = 0.25\nmzz = 0.6\n";
const std::string advection_3d_builtin = std::string(gray_scott_builtin) +
                                         "[model.advection]\nscheme = \"upwind\"\nx = { value = 0.3, noise = 0.3, seed = 7 }\n"
                                         "y = -0.2\nz = { value = 0.1, noise = 0.4, seed = 8 }\n";
const std::string advection_3d_text =
    "name = \"equations\"\nspecies = [\"u\", \"v\"]\n[model.equations]\n"
    "u = \"Du*lap(u) - advect(u, ax, ay, az) - u*v^2 + F*(1 - u)\"\nv = \"Dv*lap(v) - advect(v, ax, ay, az) + u*v^2 - (F + k)*v\"\n"
    GRAY_SCOTT_PARAMS
    "ax = { value = 0.3, noise = 0.3, seed = 7 }\nay = -0.2\naz = { value = 0.1, noise = 0.4, seed = 8 }\n";
const std::string small_step_3d = "[time]\ndt = 0.25\nsteps = 100\n";

// The terms are added in another order than the built-in kernels add them: agreement to rounding. A
// tensor's off-diagonal entries are mirrored evenly at a side that is not periodic (the built-in's oddly),
// so the tensor runs on a periodic grid.
TEST(EquationsRun, OnA3dGridTensorDiffusionAndUpwindAdvectionAsTextAreTheBuiltInModel) {
  const std::vector<std::array<std::string, 3>> cases{{tensor_3d_text, tensor_3d_builtin, "\"periodic\""},
                                                      {advection_3d_text, advection_3d_builtin, "\"periodic\""},
                                                      {advection_3d_text, advection_3d_builtin, mixed_boundary_3d}};
  for (const auto& [text, builtin, boundary] : cases)
    for (const std::string backend : {"serial", "openmp"}) {
      SCOPED_TRACE(text + boundary + " " + backend);
      const auto t = last_field(config_3d(text, boundary, backend, small_step_3d), "v");
      ASSERT_EQ(t.size(), 12u * 10 * 8);
      EXPECT_LT(largest_difference(t, last_field(config_3d(builtin, boundary, backend, small_step_3d), "v")), 1e-12);
      EXPECT_GT(largest_difference(t, last_field(config_3d(gray_scott_text, boundary, backend, small_step_3d), "v")), 1e-4)
          << "the tensor or the velocity changed the run";
    }
}

// Every 3D name and operator of the language, a parameter and an initial value of z, reach 2 (nested
// operators): the compiled code and the interpreter agree to the bit.
const char* z_model =
    "name = \"equations\"\nspecies = [\"u\", \"v\"]\n"
    "[model.equations]\nu = \"D*lap(u) + 0.1*grad_z(v) - 0.05*grad_zf(u*u) + 0.02*grad_zb(v) + 0.01*sin(z)*L_z*dz - 0.2*u*v\"\n"
    "v = \"div(K*grad(v)) - 0.001*lap(lap(v)) + 0.05*grad_x(u) - 0.03*grad_y(u) + 0.1*u - 0.1*v + "
    "div(tensor(K, 0.02*u, K*v, -0.01*z/L_z, 0.03, 0.5*K)*grad(v + 0.1*u)) - advect(v, 0.2*u, -0.1, 0.3*sin(x) - 0.1)\"\n"
    "[model.params]\nD = 0.3\nK = \"0.2 + 0.1*z/L_z + 0.05*x/L_x\"\n";

TEST(EquationsRun, OnA3dGridTheInterpreterGivesTheCompiledAnswerToTheBit) {
  const std::string initial = "u = \"exp(-((x - 6)^2 + (y - 5)^2 + (z - 4)^2)/8) + 0.01*rand()\"\nv = \"0.5 + 0.1*sin(z)*cos(x)\"\n";
  for (const std::string boundary : {"\"periodic\"", "\"neumann\""}) {
    SCOPED_TRACE(boundary);
    const std::string cfg = config_3d(z_model, boundary, "openmp", "[time]\ndt = 0.05\nsteps = 100\n", initial);
    const auto compiled = final_fields(cfg, {"u", "v"}, 100);
    EXPECT_EQ(final_fields(cfg, {"u", "v"}, 100, "PDEX_CXX=none "), compiled);
    EXPECT_EQ(final_field(config_3d(z_model, boundary, "serial", "[time]\ndt = 0.05\nsteps = 100\n", initial), "u", 100), compiled[0]);
  }
}

// u = e^t sin x sin y sin z solves u_t = lap(u) + 4 e^t sin x sin y sin z on the periodic cube of side
// 2 pi; rk4 at a step small enough that the space error leads.
TEST(EquationsRun, OnA3dGridAManufacturedSolutionConvergesAtSecondOrder) {
  auto error = [](int n) {
    const double h = 2 * M_PI / n;
    const std::string text = "[model]\nname = \"equations\"\nspecies = [\"u\"]\n[model.equations]\n"
                             "u = \"lap(u) + 4*exp(t)*sin(x)*sin(y)*sin(z)\"\n[grid]\nnx = " + std::to_string(n) + "\nny = " +
                             std::to_string(n) + "\nnz = " + std::to_string(n) + "\ndx = " + format_number(h) +
                             "\nboundary = \"periodic\"\n[time]\nscheme = \"rk4\"\ndt = 0.005\nt_end = 0.2\n"
                             "[initial]\nu = \"sin(x)*sin(y)*sin(z)\"\n"
                             "[output]\nformats = [\"npy\"]\n[run]\nprogress = false\nbackend = \"openmp\"\nprecision = \"f64\"\n";
    const std::vector<double> u = last_field(text, "u");
    double e = 0;
    for (int k = 0; k < n; ++k)
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i)
          e = std::max(e, std::abs(u[std::size_t((k * n + j) * n + i)] -
                                   std::exp(0.2) * std::sin((i + 0.5) * h) * std::sin((j + 0.5) * h) * std::sin((k + 0.5) * h)));
    return e;
  };
  EXPECT_NEAR(error(16) / error(32), 4.0, 0.25);
}

// A model and a start that do not depend on z, between zero-flux z faces: every plane is the 2D run
// (forward Euler bitwise: the z parts of lap, of div, of a tensor without xz and yz, and of advect with
// a_z = 0 are exactly 0; theta to the solver's tolerance).
TEST(EquationsRun, OnA3dGridAModelUniformInZIsThe2dRunInEveryPlane) {
  const auto model = [](const std::string& tensor, const std::string& advect) {
    return "name = \"equations\"\nspecies = [\"u\"]\n[model.equations]\nu = \"0.4*lap(u) + div(K*grad(u)) + u*(1 - u) + div(" + tensor +
           "*grad(u)) - " + advect + "\"\n[model.params]\nK = \"0.1 + 0.05*x/L_x\"\n";
  };
  const std::string deep = model("tensor(K, 0.05, K, 0, 0, K)", "advect(u, 0.1, -0.05, 0)");
  const std::string initial = "u = \"exp(-((x - 6)^2 + (y - 5)^2)/6)\"\n";
  const std::string theta = "[time]\nscheme = \"theta\"\ntheta = 0.5\ndt = 0.5\nsteps = 20\n[solver]\nmethod = \"multigrid\"\ntol = 1e-13\n";
  for (const std::string& time : {std::string("[time]\ndt = 0.2\nsteps = 40\n"), theta}) {
    SCOPED_TRACE(time);
    std::string flat = config_3d(model("tensor(K, 0.05, K)", "advect(u, 0.1, -0.05)"), "\"neumann\"", "openmp", time, initial);
    flat.replace(flat.find("nz = 8\n"), 7, "");
    const auto u2 = last_field(flat, "u"), u3 = last_field(config_3d(deep, "\"neumann\"", "openmp", time, initial), "u");
    ASSERT_EQ(u3.size(), 8 * u2.size());
    for (std::size_t k = 0; k < 8; ++k) {
      const std::vector<double> plane(u3.begin() + std::ptrdiff_t(k * u2.size()), u3.begin() + std::ptrdiff_t((k + 1) * u2.size()));
      if (time == theta) EXPECT_LT(largest_difference(plane, u2), 1e-10) << "plane " << k;
      else EXPECT_EQ(plane, u2) << "plane " << k;
    }
  }
}

TEST(EquationsRun, ThreeDNamesNeedA3dGridAndAdvectAndTensorTakeTheGridsArguments) {
  const std::string flat = "[grid]\nnx = 8\n[time]\ndt = 0.1\nsteps = 1\n[run]\nprogress = false\nbackend = \"serial\"\n";
  const std::string deep = "[grid]\nnx = 8\nnz = 4\n[time]\ndt = 0.1\nsteps = 1\n[run]\nprogress = false\nbackend = \"serial\"\n";
  const std::string one = "[model]\nname = \"equations\"\nspecies = [\"u\"]\n[model.equations]\n";
  expect_refused({
      {one + "u = \"grad_z(u)\"\n" + flat, {"model.equations.u", "grad_z is a 3D grid's derivative", "grid.nz > 1"}},
      {one + "u = \"z*u\"\n" + flat, {"model.equations.u", "'z' is a 3D grid's"}},
      {one + "u = \"u\"\n[initial]\nu = \"sin(z)\"\n" + flat, {"initial.u", "'z' is a 3D grid's"}},
      {one + "u = \"advect(u, 1, 0)\"\n" + deep,
       {"model.equations.u", "advect takes 4 arguments on a 3D grid, given 3", "advect(u, ax, ay, az)"}},
      {one + "u = \"advect(u, 1, 0, 0)\"\n" + flat,
       {"model.equations.u", "advect takes 3 arguments on a 2D grid, given 4", "grid.nz > 1"}},
      {one + "u = \"div(tensor(1, 0, 1)*grad(u))\"\n" + deep,
       {"model.equations.u", "tensor takes 6 entries on a 3D grid, given 3", "tensor(kxx, kxy, kyy, kxz, kyz, kzz)"}},
      {one + "u = \"div(tensor(1, 0, 1, 0, 0, 1)*grad(u))\"\n" + flat,
       {"model.equations.u", "tensor takes 3 entries on a 2D grid, given 6", "tensor(kxx, kxy, kyy)"}},
      {one + "u = \"lap(u)\"\n[grid]\nnx = 8\nnz = 4\nboundary = { left = { kind = \"dirichlet\", value = \"sin(y)\" }, right = \"neumann\", "
             "bottom = \"neumann\", top = \"neumann\", front = \"neumann\", back = \"neumann\" }\n"
             "[time]\ndt = 0.1\nsteps = 1\n",
       {"grid.boundary", "2D only for now"}},
  });
  // A 2D model may still name a species z.
  ScratchDir dir;
  write_file_bytes(dir / "cfg.toml", "[model]\nname = \"equations\"\nspecies = [\"z\"]\n[model.equations]\nz = \"lap(z) - z\"\n" + flat);
  const Outcome o = run_pdex({"run", dir.str("cfg.toml"), "--out", dir.str("out")}, cache_prefix());
  EXPECT_EQ(o.status, 0) << o.output;
}

TEST(EquationsRun, OnTheGpuA3dTextModelGivesTheCpusAnswer) {
  if (!backend_available(Backend::cuda)) GTEST_SKIP() << "no CUDA device: " << backend_unavailable_reason(Backend::cuda);
  const std::string initial = "u = \"exp(-((x - 6)^2 + (y - 5)^2 + (z - 4)^2)/8) + 0.01*rand()\"\nv = \"0.5 + 0.1*sin(z)*cos(x)\"\n";
  for (const std::string& boundary : {std::string("\"periodic\""), mixed_boundary_3d}) {
    SCOPED_TRACE(boundary);
    const std::string time = "[time]\ndt = 0.05\nsteps = 100\n";
    for (const std::string field : {"u", "v"})
      EXPECT_LT(largest_difference(final_field(config_3d(z_model, boundary, "cuda", time, initial), field, 100),
                                   final_field(config_3d(z_model, boundary, "openmp", time, initial), field, 100)),
                1e-12)
          << field;
    EXPECT_LT(largest_difference(last_field(config_3d(gray_scott_text, boundary, "cuda", euler_time_3d), "v"),
                                 last_field(config_3d(gray_scott_builtin, boundary, "cuda", euler_time_3d), "v")),
              1e-12);
  }
  for (const auto& [text, builtin] : {std::pair(tensor_3d_text, tensor_3d_builtin), std::pair(advection_3d_text, advection_3d_builtin)})
    EXPECT_LT(largest_difference(last_field(config_3d(text, "\"periodic\"", "cuda", small_step_3d), "v"),
                                 last_field(config_3d(builtin, "\"periodic\"", "cuda", small_step_3d), "v")),
              1e-12)
        << text;
}

}  // namespace
}  // namespace pdex::app_testing
