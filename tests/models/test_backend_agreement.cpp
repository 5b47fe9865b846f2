// The same run on different backends. Serial and OpenMP execute the same instructions per cell (the
// OpenMP executor only splits rows among threads), so they must agree bit for bit. CUDA differs by
// rounding (nvcc contracts a * b + c into fused multiply-adds; the host compiler, in ISO C++ mode, does
// not), so CPU and GPU are compared with a tolerance.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <array>
#include <memory>
#include <cstring>

#include "models/ard_test_support.hpp"
#include "pdex/models/ard/ard_euler_plan.hpp"
#include "pdex/models/ard/ard_stability.hpp"
#include "pdex/models/ard/theta_tiles_shape.hpp"
#include "pdex/time/euler_tiles_shape.hpp"

namespace pdex::test {
namespace {

// Turing from noise around the homogeneous steady state u = v = 4, with alpha varying per cell.
ArdSpec turing_from_noise(const Grid2& g) {
  ArdSpec s = catalog_spec("turing", g);
  s.params["alpha"].cells = uniform_noise(std::size_t(g.cells()), s.params["alpha"].value, 0.1, 41);
  s.initial[0] = uniform_noise(std::size_t(g.cells()), 4.0, 0.01, 42);
  s.initial[1] = uniform_noise(std::size_t(g.cells()), 4.0, 0.01, 43);
  s.dt = std::min(s.dt, 0.8 * ard_stable_step(s).dt_max);  // see test_turing_patterns.cpp
  return s;
}

// Gray-Scott as Pearson starts it: u = 1, v = 0, a central square at (1/2, 1/4), plus noise. (From
// noise alone it decays to the trivial state u = 1, v = 0, which compares nothing.)
ArdSpec gray_scott_from_noise(const Grid2& g) {
  ArdSpec s = catalog_spec("gray_scott", g);
  const auto eta = uniform_noise(std::size_t(g.cells()), 0.0, 0.01, 44);
  std::vector<double> u(std::size_t(g.cells())), v(u.size());
  for (int j = 0; j < g.ny; ++j)
    for (int i = 0; i < g.nx; ++i) {
      const std::size_t k = std::size_t(j) * g.nx + i;
      const bool centre = std::abs(i - g.nx / 2) < g.nx / 6 && std::abs(j - g.ny / 2) < g.ny / 6;
      u[k] = (centre ? 0.5 : 1.0) + eta[k];
      v[k] = (centre ? 0.25 : 0.0) + std::abs(eta[k]);
    }
  s.initial = {u, v};
  return s;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

// Neumann sides left and right, Dirichlet below and above (u = 1, v = 0, Gray-Scott's trivial state).
ArdSpec with_mixed_sides(ArdSpec s) {
  for (int c = 0; c < 2; ++c) {
    s.bc.side[left][c] = s.bc.side[right][c] = SideBc{BcKind::neumann, 0.0};
    s.bc.side[bottom][c] = s.bc.side[top][c] = SideBc{BcKind::dirichlet, c == 0 ? 1.0 : 0.0};
  }
  return s;
}

class SerialOpenMPTest : public ::testing::TestWithParam<Precision> {};

TEST_P(SerialOpenMPTest, TuringFromNoiseIsBitIdenticalAfter200Steps) {
  const ArdSpec s = turing_from_noise(Grid2{96, 80});
  auto serial = make_ard_stepper(s, Backend::serial, GetParam());
  serial->advance(200);
  for (int threads : {2, 3}) {
    const int saved = omp_get_max_threads();
    omp_set_num_threads(threads);
    auto openmp = make_ard_stepper(s, Backend::openmp, GetParam());
    openmp->advance(200);
    omp_set_num_threads(saved);
    for (int f = 0; f < 2; ++f) {
      EXPECT_TRUE(same_bits(serial->values(f), openmp->values(f))) << "field " << f << ", " << threads << " threads";
      EXPECT_GT(max_abs_diff(serial->values(f), f == 0 ? initial_of(s, 0) : initial_of(s, 1)), 1e-4) << "the run changed nothing";
    }
  }
}

TEST_P(SerialOpenMPTest, GrayScottIsBitIdenticalAfter200Steps) {
  const ArdSpec s = gray_scott_from_noise(Grid2{64, 64});
  auto serial = make_ard_stepper(s, Backend::serial, GetParam());
  auto openmp = make_ard_stepper(s, Backend::openmp, GetParam());
  serial->advance(200);
  openmp->advance(200);
  for (int f = 0; f < 2; ++f) EXPECT_TRUE(same_bits(serial->values(f), openmp->values(f))) << "field " << f;
}

// A run the host blocks in rows (euler_plan: 1024^2 cells and up) is the same run one pass a step, bit
// for bit: periodic and mixed sides, a parameter per cell (Turing), a grid no multiple of a chunk, and 13
// steps (passes of blocked_steps and steps left over), on Serial and OpenMP, in f64 (f32 below, with
// run.steps_per_pass; time/test_euler_blocked.cpp checks the schedule itself in both precisions).
TEST_P(SerialOpenMPTest, RowBlockingIsBitwiseOneStepAPass) {
  if (GetParam() == Precision::f32) GTEST_SKIP() << "f32 runs take one pass a step (EulerPlanTest)";
  const Grid2 g{1031, 1019};
  const ArdSpec runs[] = {gray_scott_from_noise(g), with_mixed_sides(gray_scott_from_noise(g)), turing_from_noise(g)};
  for (const ArdSpec& s : runs) {
    ASSERT_EQ(euler_plan<double>(s, EulerSchedules::host).kind, EulerPlan::rows);
    ArdSpec per_step = s;
    per_step.temporal_blocking = false;
    for (Backend b : {Backend::serial, Backend::openmp}) {
      auto blocked = make_ard_stepper(s, b, GetParam()), plain = make_ard_stepper(per_step, b, GetParam());
      blocked->advance(13);
      plain->advance(13);
      for (int f = 0; f < 2; ++f) {
        EXPECT_TRUE(same_bits(blocked->values(f), plain->values(f))) << "field " << f << " on " << backend_name(b);
        EXPECT_GT(max_abs_diff(blocked->values(f), initial_of(s, std::size_t(f))), 1e-6) << "the run changed nothing";
      }
    }
  }
}

// run.steps_per_pass = k puts any grid the host's rows take on k steps a pass, bit for bit the run one
// pass a step (steps_per_pass = 1): a small grid, periodic and mixed sides, counts that leave steps over.
TEST_P(SerialOpenMPTest, StepsPerPassTakesAnyCountBitwise) {
  const Grid2 g{203, 157};
  for (const ArdSpec& s : {gray_scott_from_noise(g), with_mixed_sides(gray_scott_from_noise(g))}) {
    ArdSpec once = s;
    once.steps_per_pass = 1;
    for (int k : {2, 3, 5}) {
      ArdSpec blocked = s;
      blocked.steps_per_pass = k;
      ASSERT_EQ(euler_plan<double>(blocked, EulerSchedules::host).name(), "cache-blocked rows, " + std::to_string(k) + " steps a pass");
      for (Backend b : {Backend::serial, Backend::openmp}) {
        auto a = make_ard_stepper(blocked, b, GetParam()), c = make_ard_stepper(once, b, GetParam());
        a->advance(11);
        c->advance(11);
        for (int f = 0; f < 2; ++f) EXPECT_TRUE(same_bits(a->values(f), c->values(f))) << k << " steps, field " << f << ", " << backend_name(b);
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Precisions, SerialOpenMPTest, ::testing::Values(Precision::f64, Precision::f32),
                         [](const auto& p) { return std::string(precision_name(p.param)); });

// Tolerances on ||cuda - serial||_2 / ||serial||_2 after 1,000 steps: f64 1e-10, f32 1e-4. Each step
// differs by about one ulp per cell (fused multiply-adds); these runs do not amplify perturbations
// (measured on the CPU: a 1e-13 relative perturbation of u0 ends below 1e-13 after 1,000 steps of
// either run), so the differences accumulate at most linearly: 1000 ulp is 2e-13 in f64 and 6e-5 in
// f32, the f32 bound being the worst case and the typical random-walk sum about 2e-6.
class CpuCudaTest : public ::testing::TestWithParam<Precision> {
 protected:
  void SetUp() override {
    if (!backend_available(Backend::cuda))
      GTEST_SKIP() << "no CUDA device: " << backend_unavailable_reason(Backend::cuda);
  }
  void expect_agreement(const ArdSpec& s, int64_t steps = 1000) {
    auto cpu = make_ard_stepper(s, Backend::serial, GetParam());
    auto gpu = make_ard_stepper(s, Backend::cuda, GetParam());
    cpu->advance(steps);
    gpu->advance(steps);
    const double tol = GetParam() == Precision::f64 ? 1e-10 : 1e-4;
    for (int f = 0; f < 2; ++f) {
      EXPECT_LT(rel_l2_diff(gpu->values(f), cpu->values(f)), tol) << "field " << f;
      EXPECT_EQ(gpu->first_nonfinite(f), -1);
    }
  }
};

TEST_P(CpuCudaTest, TuringFromNoiseAgreesAfter1000Steps) { expect_agreement(turing_from_noise(Grid2{64, 64})); }

TEST_P(CpuCudaTest, GrayScottAgreesAfter1000Steps) { expect_agreement(gray_scott_from_noise(Grid2{64, 64})); }

// Sides of every kind: cells next to a side write their ghost images as they are computed. Same
// tolerance as above.
TEST_P(CpuCudaTest, MixedSidesAgreeAfter1000Steps) {
  expect_agreement(with_mixed_sides(gray_scott_from_noise(Grid2{150, 70})));
}

// The same on a grid where the CUDA step walks strips of cells per thread (from strips_min_cells on,
// euler_tiles_shape.hpp; the grids above take a thread per cell), not a multiple of a strip block's
// 128 columns: threads whose cells touch a side take them one by one. 200 steps, same tolerances.
TEST_P(CpuCudaTest, MixedSidesAgreeOnAStripsSizedGrid) {
  const ArdSpec s = with_mixed_sides(gray_scott_from_noise(Grid2{1030, 1020}));
  ASSERT_GE(s.grid.cells(), strips_min_cells);
  expect_agreement(s, 200);
}

// From 2048^2 cells on, each thread of the strips step takes two rows, and a block four rows of threads
// (euler_strips.cuh): a height that is not a multiple of the block's eight rows leaves its last block
// part empty. 100 steps, same tolerances.
TEST_P(CpuCudaTest, MixedSidesAgreeOnATwoRowStripsGrid) {
  const ArdSpec s = with_mixed_sides(gray_scott_from_noise(Grid2{2054, 2046}));
  ASSERT_GE(s.grid.cells(), 2048LL * 2048);
  expect_agreement(s, 100);
}

// The run `s` on CUDA as it is (several steps a pass where its plan says so) and with one launch a
// step, each advanced `steps` steps.
std::array<std::unique_ptr<Stepper>, 2> blocked_and_per_step(const ArdSpec& s, Precision p, int64_t steps) {
  ArdSpec per_step = s;
  per_step.temporal_blocking = false;
  std::array<std::unique_ptr<Stepper>, 2> runs{make_ard_stepper(s, Backend::cuda, p), make_ard_stepper(per_step, Backend::cuda, p)};
  for (auto& r : runs) r->advance(steps);
  return runs;
}

// The temporally blocked CUDA schedule (several steps per launch in shared memory) computes the same
// run as one launch per step: same right-hand side, only the order of work differs. Grid sizes that are
// not multiples of the tile, a step count that leaves a remainder, and advection (whose parameters are
// read at wrapped global offsets from the tile) are the cases where a tiling error would show.
// Tolerance: the two schedules may contract FMAs differently, so agreement is to rounding (1e-12 f64,
// 1e-5 f32 relative L2 after 1,003 steps; these runs do not amplify perturbations).
TEST_P(CpuCudaTest, TemporalBlockingAgreesWithOneLaunchPerStep) {
  for (bool advect : {false, true}) {
    ArdSpec s = turing_from_noise(Grid2{100, 70});
    if (advect) {
      s.advection = Advection::upwind;
      s.ax = ScalarSpec{0.05, {}};
      s.ay = ScalarSpec{0.0, std::vector<double>(std::size_t(s.grid.cells()), -0.03)};
    }
    const auto [tiled, plain] = blocked_and_per_step(s, GetParam(), 1003);
    const double tol = GetParam() == Precision::f64 ? 1e-12 : 1e-5;
    for (int f = 0; f < 2; ++f) {
      EXPECT_LT(rel_l2_diff(tiled->values(f), plain->values(f)), tol) << "field " << f << ", advection " << advect;
      EXPECT_GT(rel_l2_diff(tiled->values(f), f == 0 ? initial_of(s, 0) : initial_of(s, 1)), 1e-6) << "the run changed nothing";
    }
  }
}

// The streaming CUDA schedule (EulerStream<T>::steps steps a pass in registers, euler_stream.cuh)
// computes bit for bit what one launch a step computes: the same right-hand side, the same operations
// in the same order. It is taken by runs whose parameters are one number each (euler_plan); a grid
// that is no multiple of a strip or a segment, periodic and mixed sides (their images at every step of
// a pass), and 13 steps: passes of 4 (f32) or 6 (f64) steps and one step left over.
TEST_P(CpuCudaTest, StreamingIsBitwiseOneLaunchPerStep) {
  const Grid2 g{2049, 2051};
  for (bool mixed : {false, true}) {
    const ArdSpec s = mixed ? with_mixed_sides(gray_scott_from_noise(g)) : gray_scott_from_noise(g);
    SCOPED_TRACE(mixed ? "mixed sides" : "periodic");
    ASSERT_EQ(GetParam() == Precision::f64 ? euler_plan<double>(s, EulerSchedules::device).kind : euler_plan<float>(s, EulerSchedules::device).kind,
              EulerPlan::stream);
    const auto [streamed, plain] = blocked_and_per_step(s, GetParam(), 13);
    for (int f = 0; f < 2; ++f) {
      EXPECT_TRUE(same_bits(streamed->values(f), plain->values(f))) << "field " << f;
      EXPECT_GT(rel_l2_diff(streamed->values(f), initial_of(s, std::size_t(f))), 1e-9) << "the run changed nothing";
    }
  }
}

// run.steps_per_pass = k takes the device's streaming at any grid size (a 515 x 517 grid, below the size
// it is chosen from), bit for bit one launch a step, with mixed sides.
TEST_P(CpuCudaTest, StepsPerPassStreamsSmallGridsBitwise) {
  ArdSpec s = with_mixed_sides(gray_scott_from_noise(Grid2{515, 517}));
  s.steps_per_pass = GetParam() == Precision::f64 ? EulerStream<double>::steps : EulerStream<float>::steps;
  ASSERT_EQ(GetParam() == Precision::f64 ? euler_plan<double>(s, EulerSchedules::device).kind : euler_plan<float>(s, EulerSchedules::device).kind,
            EulerPlan::stream);
  ArdSpec once = s;
  once.steps_per_pass = 1;
  auto streamed = make_ard_stepper(s, Backend::cuda, GetParam()), plain = make_ard_stepper(once, Backend::cuda, GetParam());
  streamed->advance(13);
  plain->advance(13);
  for (int f = 0; f < 2; ++f) EXPECT_TRUE(same_bits(streamed->values(f), plain->values(f))) << "field " << f;
}

// run.steps_per_pass: a count the run's schedules take, at any grid size; 1 is one pass a step; another
// count is refused, naming the counts the run can take.
TEST(EulerPlanTest, StepsPerPassChoosesTheCountOrIsRefused) {
  ArdSpec host = catalog_spec("gray_scott", Grid2{256, 256});
  host.steps_per_pass = 3;
  EXPECT_EQ(euler_plan<float>(host, EulerSchedules::host).name(), "cache-blocked rows, 3 steps a pass");
  ArdSpec big = catalog_spec("gray_scott", Grid2{1024, 1024});
  big.steps_per_pass = 1;
  EXPECT_EQ(euler_plan<double>(big, EulerSchedules::host).kind, EulerPlan::cells);
  ArdSpec one_sided = host;
  one_sided.bc.side[top][1] = SideBc{BcKind::neumann, 0.0};
  const auto refused = [](auto plan, const std::vector<std::string>& parts) {
    try {
      plan();
      ADD_FAILURE() << "not refused";
    } catch (const InputError& e) {
      for (const std::string& p : parts) EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << e.what();
    }
  };
  refused([&] { euler_plan<double>(one_sided, EulerSchedules::host); }, {"run.steps_per_pass = 3", "on the CPU in f64, can go 1 step a pass"});
  ArdSpec dev = catalog_spec("gray_scott", Grid2{512, 512});
  for (int k : {EulerStream<float>::steps, EulerTiles<float>::steps}) {
    dev.steps_per_pass = k;
    EXPECT_EQ(euler_plan<float>(dev, EulerSchedules::device).steps_per_pass, k);
  }
  EXPECT_EQ(euler_plan<float>(dev, EulerSchedules::device).kind, EulerPlan::tiles);
  dev.steps_per_pass = 1;
  EXPECT_EQ(euler_plan<float>(dev, EulerSchedules::device).kind, EulerPlan::cells);
  dev.steps_per_pass = 3;
  refused([&] { euler_plan<float>(dev, EulerSchedules::device); },
          {"4 (register streaming, 4 steps a pass), 8 (temporally blocked tiles, 8 steps a pass), 1 step a pass", "f32"});
  refused([&] { euler_plan<double>(dev, EulerSchedules::device); }, {"can go 6 (register streaming, 6 steps a pass), 1 step"});
  Grid2 g3{32, 32, 1.0, 1.0};
  g3.nz = 32, g3.dz = 1.0;
  ArdSpec volume = catalog_spec("gray_scott", g3);
  volume.steps_per_pass = 2;
  refused([&] { euler_plan<float>(volume, EulerSchedules::device); }, {"can go 1 step a pass"});
}

// Which schedule forward Euler takes (the summary reports it): several steps a pass where a device has
// the schedules, the run suits them and they were measured faster, else one pass a step.
TEST(EulerPlanTest, StreamsWherePaysTilesSmallPeriodicGridsAndOtherwiseStepsOnce) {
  const ArdSpec s = catalog_spec("gray_scott", Grid2{2048, 2048});
  EXPECT_EQ(euler_plan<double>(s, EulerSchedules::device).kind, EulerPlan::stream);
  EXPECT_EQ(euler_plan<double>(s, EulerSchedules::device).steps_per_pass, EulerStream<double>::steps);
  EXPECT_EQ(euler_plan<double>(s, EulerSchedules::device).name(), "register streaming, " + std::to_string(EulerStream<double>::steps) + " steps a pass");
  EXPECT_EQ(euler_plan<float>(s, EulerSchedules::device).kind, EulerPlan::stream);
  EXPECT_EQ(euler_plan<float>(s, EulerSchedules::device).steps_per_pass, EulerStream<float>::steps);
  EXPECT_EQ(euler_plan<double>(s, EulerSchedules::host).kind, EulerPlan::rows) << "a CPU backend";
  ArdSpec off = s;
  off.temporal_blocking = false;
  EXPECT_EQ(euler_plan<double>(off, EulerSchedules::device).kind, EulerPlan::strips);
  ArdSpec advected = s;
  advected.advection = Advection::upwind;
  EXPECT_EQ(euler_plan<double>(advected, EulerSchedules::device).kind, EulerPlan::strips);
  EXPECT_EQ(euler_plan<double>(turing_from_noise(Grid2{2048, 2048}), EulerSchedules::device).kind, EulerPlan::strips) << "a parameter per cell";
  ArdSpec one_sided = s;
  one_sided.bc.side[left][0] = SideBc{BcKind::neumann, 0.0};
  EXPECT_EQ(euler_plan<double>(one_sided, EulerSchedules::device).kind, EulerPlan::strips) << "an axis periodic on one side only";
  const ArdSpec small = catalog_spec("gray_scott", Grid2{512, 512});
  EXPECT_EQ(euler_plan<float>(small, EulerSchedules::device).kind, EulerPlan::tiles);
  EXPECT_EQ(euler_plan<float>(small, EulerSchedules::device).steps_per_pass, EulerTiles<float>::steps);
  ArdSpec theta = s;
  theta.theta = 0.5;
  EXPECT_EQ(euler_plan<double>(theta, EulerSchedules::device).kind, EulerPlan::cells) << "not forward Euler";
  EXPECT_EQ(euler_plan<double>(s, EulerSchedules::none).kind, EulerPlan::cells) << "no schedules";
}

// A 3D grid steps one pass a step: on the device by columns walked up through the planes (also for a block
// of a grid split among ranks), on the host cell by cell.
TEST(EulerPlanTest, ThreeDimensionalGridsWalkColumnsOnTheDevice) {
  Grid2 g{64, 64, 1.0, 1.0};
  g.nz = 64, g.dz = 1.0;
  ArdSpec s = catalog_spec("gray_scott", g);
  EXPECT_EQ(euler_plan<float>(s, EulerSchedules::device).kind, EulerPlan::columns);
  EXPECT_EQ(euler_plan<double>(s, EulerSchedules::device).name(), "one pass a step, by columns");
  EXPECT_EQ(euler_plan<double>(s, EulerSchedules::host).kind, EulerPlan::cells);
  s.mol_scheme = "rk4";
  EXPECT_EQ(euler_plan<double>(s, EulerSchedules::device).kind, EulerPlan::cells) << "not forward Euler";
}

// On the host, grids beyond the caches go several steps a pass (time/euler_blocked.hpp) where the y axis
// is periodic on both sides or neither; the rest, and small grids, one pass a step.
TEST(EulerPlanTest, TheHostBlocksLargeGridsInRows) {
  const ArdSpec s = catalog_spec("gray_scott", Grid2{1024, 1024});
  EXPECT_EQ(euler_plan<double>(s, EulerSchedules::host).kind, EulerPlan::rows);
  EXPECT_EQ(euler_plan<double>(s, EulerSchedules::host).steps_per_pass, blocked_steps);
  EXPECT_EQ(euler_plan<double>(s, EulerSchedules::host).name(), "cache-blocked rows, " + std::to_string(blocked_steps) + " steps a pass");
  EXPECT_EQ(euler_plan<float>(s, EulerSchedules::host).kind, EulerPlan::rows);
  EXPECT_EQ(euler_plan<double>(with_mixed_sides(s), EulerSchedules::host).kind, EulerPlan::rows);
  EXPECT_EQ(euler_plan<double>(turing_from_noise(Grid2{1024, 1024}), EulerSchedules::host).kind, EulerPlan::rows);
  EXPECT_EQ(euler_plan<double>(catalog_spec("gray_scott", Grid2{512, 512}), EulerSchedules::host).kind, EulerPlan::cells);
  ArdSpec off = s;
  off.temporal_blocking = false;
  EXPECT_EQ(euler_plan<double>(off, EulerSchedules::host).kind, EulerPlan::cells);
  ArdSpec one_sided = s;
  one_sided.bc.side[top][1] = SideBc{BcKind::neumann, 0.0};
  EXPECT_EQ(euler_plan<double>(one_sided, EulerSchedules::host).kind, EulerPlan::cells) << "y periodic on one side";
}

// The one-launch CUDA theta step (theta_tiles.cuh: right-hand side, extrapolated guess and the first
// check_every red-black SOR sweeps in shared memory, with the residual test) makes the same solves as
// the plain path: the same tests pass after the same sweeps, and the states agree to rounding after 60
// Crank-Nicolson steps of seed 000's Turing run at dt 12.5 (tolerances as above; the solves' residual
// sums differ in order only). Grids: not a multiple of a tile, and smaller than one (the region wraps
// around the grid several times); upwind advection with a varying velocity (explicit, read at wrapped
// offsets). In f64 a tolerance of 1e-9, which six sweeps cannot reach, makes every step go on in more
// launches, each from the last one's result; in f32, 1e-5 makes some steps do so.
TEST_P(CpuCudaTest, OneLaunchThetaStepAgreesWithThePlainSolver) {
  struct Case {
    Grid2 grid;
    bool advect;
    double tol;
  };
  const bool f64 = GetParam() == Precision::f64;
  for (const Case& k : {Case{Grid2{100, 70}, false, 1e-4}, Case{Grid2{24, 16}, true, 1e-4},
                        Case{Grid2{100, 70}, true, f64 ? 1e-9 : 1e-5}}) {
    ArdSpec s = turing_from_noise(k.grid);
    s.theta = 0.5;
    s.dt = 12.5;
    s.solver.method = SolverMethod::sor;
    s.solver.tol = k.tol;
    if (k.advect) {
      s.advection = Advection::upwind;
      s.ax = ScalarSpec{0.05, {}};
      s.ay = ScalarSpec{0.0, std::vector<double>(std::size_t(s.grid.cells()), -0.03)};
    }
    ArdSpec per_kernel = s;
    per_kernel.temporal_blocking = false;
    auto tiled = make_ard_stepper(s, Backend::cuda, GetParam());
    auto plain = make_ard_stepper(per_kernel, Backend::cuda, GetParam());
    tiled->advance(60);
    plain->advance(60);
    const SolverTotals &a = *tiled->solver_totals(), &b = *plain->solver_totals();
    const std::string label = std::to_string(k.grid.nx) + "x" + std::to_string(k.grid.ny) + ", tol " +
                              std::to_string(k.tol) + ", advection " + std::to_string(k.advect);
    EXPECT_EQ(a.one_launch, 60) << label;
    EXPECT_EQ(b.one_launch, 0) << label;
    EXPECT_EQ(a.unconverged + b.unconverged, 0) << label;
    EXPECT_NEAR(double(a.iterations), double(b.iterations), 0.02 * double(b.iterations)) << label;
    if (k.tol < 1e-6) {
      EXPECT_GT(a.iterations, 60 * 6) << "every step went on after the launch, " << label;
    }
    const double tol = f64 ? 1e-10 : 1e-4;
    for (int f = 0; f < 2; ++f) {
      EXPECT_LT(rel_l2_diff(tiled->values(f), plain->values(f)), tol) << "field " << f << ", " << label;
      EXPECT_GT(rel_l2_diff(tiled->values(f), f == 0 ? initial_of(s, 0) : initial_of(s, 1)), 1e-6) << "the run changed nothing, " << label;
    }
  }
}

// The one-launch steps are queued on the device (ThetaQueue): a call advancing 300 steps queues them
// 16, 32, then 64 at a time, each with as many launches as the last queue's steps took, and a step
// that runs out of them goes on from the host. Advanced one step a call instead, the run must be the same bit for bit:
// the same launches run, whatever was queued around them. In f32 a tolerance of 1e-5 makes some steps
// take more launches than others; in f64, 1e-9 tested after every sweep makes steps take 8 to 18
// launches, more than a step may queue.
TEST_P(CpuCudaTest, QueuedThetaStepsMatchStepsAdvancedOneACall) {
  const bool f64 = GetParam() == Precision::f64;
  ArdSpec s = turing_from_noise(Grid2{100, 70});
  s.theta = 0.5;
  s.dt = 12.5;
  s.solver.method = SolverMethod::sor;
  s.solver.tol = f64 ? 1e-9 : 1e-5;
  s.solver.check_every = f64 ? 1 : 6;
  auto queued = make_ard_stepper(s, Backend::cuda, GetParam());
  auto single = make_ard_stepper(s, Backend::cuda, GetParam());
  constexpr int steps = 300;
  queued->advance(steps);
  for (int k = 0; k < steps; ++k) single->advance(1);
  const SolverTotals &a = *queued->solver_totals(), &b = *single->solver_totals();
  EXPECT_EQ(a.one_launch, steps);
  EXPECT_EQ(a.iterations_per_solve, b.iterations_per_solve);
  EXPECT_EQ(a.residual_per_solve, b.residual_per_solve);
  const auto& it = a.iterations_per_solve;
  const int every = s.solver.check_every;
  const int fewest = *std::min_element(it.begin(), it.end()), most = *std::max_element(it.begin(), it.end());
  if (f64) {
    EXPECT_GT(most, ThetaQueue::max_launches) << "no step ran out of queued launches";
  } else {
    EXPECT_EQ(fewest, every) << "every step went on";
    EXPECT_GT(most, every) << "no step went on";
  }
  for (int f = 0; f < 2; ++f) EXPECT_EQ(queued->values(f), single->values(f)) << "field " << f;
}

INSTANTIATE_TEST_SUITE_P(Precisions, CpuCudaTest, ::testing::Values(Precision::f64, Precision::f32),
                         [](const auto& p) { return std::string(precision_name(p.param)); });

}  // namespace
}  // namespace pdex::test
