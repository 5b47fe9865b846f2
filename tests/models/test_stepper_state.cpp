// Stepper::save() and restore(), which the run driver uses to replay a chunk that blew up: they must
// capture and reinstate exactly the state of their moment, whatever the steps around them do. On CUDA
// the grid is large (4096^2, f64) so that a copy that is not ordered with the step kernels (copies on
// the legacy default stream, kernels on the context's non-blocking stream) would overlap them.
#include <gtest/gtest.h>

#include <cstring>

#include "models/ard_test_support.hpp"
#include "pdex/models/ard/ard_stability.hpp"

namespace pdex::test {
namespace {

class StepperStateTest : public ArdBackendTest {
 protected:
  ArdSpec spec() const {
    const int n = GetParam().backend == Backend::cuda ? 4096 : 64;
    const Grid2 g{n, n};
    ArdSpec s = catalog_spec("gray_scott", g);
    s.initial[0] = uniform_noise(std::size_t(g.cells()), 0.6, 0.2, 71);
    s.initial[1] = uniform_noise(std::size_t(g.cells()), 0.25, 0.1, 72);
    return s;
  }
};

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

TEST_P(StepperStateTest, RestoreAfterStepsReturnsExactlyTheSavedState) {
  const ArdSpec s = spec();
  auto st = make(s);
  st->advance(10);
  const auto u = st->values(0), v = st->values(1);
  st->save();
  st->advance(64);  // one CUDA graph chunk
  ASSERT_FALSE(same_bits(st->values(0), u)) << "the steps changed nothing";
  st->restore();
  EXPECT_TRUE(same_bits(st->values(0), u));
  EXPECT_TRUE(same_bits(st->values(1), v));
}

// Replaying from a restore gives the run that never left: save, 64 steps, restore, 64 steps equals 64
// steps of a fresh run (both bit for bit on one backend).
TEST_P(StepperStateTest, StepsAfterRestoreReplayTheOriginalRunBitForBit) {
  const ArdSpec s = spec();
  auto replayed = make(s), straight = make(s);
  replayed->save();
  replayed->advance(64);
  replayed->restore();
  replayed->advance(65);
  straight->advance(65);
  EXPECT_TRUE(same_bits(replayed->values(0), straight->values(0)));
  EXPECT_TRUE(same_bits(replayed->values(1), straight->values(1)));
}

INSTANTIATE_TEST_SUITE_P(Backends, StepperStateTest, ::testing::ValuesIn(backend_cases()), backend_case_name);

}  // namespace
}  // namespace pdex::test
