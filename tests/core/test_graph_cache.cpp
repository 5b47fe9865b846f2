// GraphCache (core/graph_cache.hpp) on every executor: what it replays acts on the buffers of its keys,
// whatever order the keys come in. On CUDA, where it replays captured graphs, two pairs of keys used in
// turn (a time stepper's two state buffers) are captured once each, and a pair that had to make room is
// captured again.
#include <gtest/gtest.h>

#include <type_traits>
#include <vector>

#include "core/executor_types.hpp"
#include "pdex/core/buffer.hpp"
#include "pdex/core/graph_cache.hpp"

namespace pdex::test {
namespace {

constexpr int cells = 1000;

// Adds `by` to every value of x.
template <class Exec>
void add(const Exec& ex, double* x, double by) {
  for_each_cell(ex, Range2{0, cells, 0, 1}, [=] PDEX_HD(int i, int) { x[i] += by; });
}

std::vector<double> on_host(const Buffer<double>& b) {
  std::vector<double> v(b.size());
  detail::copy_bytes(v.data(), MemorySpace::host, b.data(), b.space(), b.bytes());
  return v;
}

template <class E>
class GraphCacheTest : public ExecutorTest<E> {};
TYPED_TEST_SUITE(GraphCacheTest, Executors, ExecutorNames);

TYPED_TEST(GraphCacheTest, ReplaysActOnTheirKeysBuffersInAnyOrder) {
  using Exec = TypeParam;
  const Exec ex = make_executor<Exec>();
  constexpr int nbuf = 6;  // more than a CUDA cache keeps
  std::vector<Buffer<double>> x;
  for (int k = 0; k < nbuf; ++k) x.emplace_back(cells, Exec::space);
  finish(ex);  // the zero fills, on another stream
  GraphCache<Exec> cache;
  // Pairs 0 and 1 in turn, then every buffer once (room made), then 0 and 1 again; each replay adds
  // 1 + its buffer's index, so a replay that acted on another buffer shows.
  const int order[] = {0, 1, 0, 1, 0, 1, 2, 3, 4, 5, 0, 1};
  std::vector<double> expected(nbuf, 0.0);
  for (int k : order) {
    double* xk = x[k].data();
    cache.run(ex, xk, nullptr, [&] { add(ex, xk, 1.0 + k); });
    expected[k] += 1.0 + k;
  }
  finish(ex);
  for (int k = 0; k < nbuf; ++k)
    for (double v : on_host(x[k])) ASSERT_EQ(v, expected[k]) << "buffer " << k;
  if constexpr (Exec::backend == Backend::cuda) {
    // 0 and 1 once in the first six replays, 2 to 5 once each; 0 and 1 again after four others.
    static_assert(GraphCache<Exec>::capacity == 4);
    EXPECT_EQ(cache.captures(), 2 + 4 + 2);
  }
}

}  // namespace
}  // namespace pdex::test
