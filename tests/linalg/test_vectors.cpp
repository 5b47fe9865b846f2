// Stored vectors on every executor: reductions and element-wise operations equal a plain host loop
// (integer data: sums are exact), the zero padding of the last row never shows (n not a multiple of a
// row, all values negative so a stray zero would be the maximum), and host/device copies round-trip;
// the grid operator assembled into CSR and bands equals the matrix-free operator on every boundary kind.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "core/executor_types.hpp"
#include "linalg/matrix_problems.hpp"
#include "pdex/grid/field.hpp"
#include "pdex/grid/fill_ghosts.hpp"
#include "pdex/linalg/grid_assembly.hpp"
#include "pdex/linalg/vector_ops.hpp"

namespace pdex::test {
namespace {

template <class E>
class VectorTest : public ExecutorTest<E> {};
TYPED_TEST_SUITE(VectorTest, Executors, ExecutorNames);

std::vector<double> negative_integers(int n) {
  std::vector<double> v(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k) v[std::size_t(k)] = -1.0 - double((k * 37) % 101);
  return v;
}

TYPED_TEST(VectorTest, ReductionsEqualThePlainLoopAndIgnoreThePadding) {
  const auto ex = make_executor<TypeParam>();
  for (int n : {1, 7, 1024, 2500}) {
    const std::vector<double> h = negative_integers(n);
    const Vector<double> x = make_vector(h, TypeParam::space);
    EXPECT_EQ(sum(ex, x), std::accumulate(h.begin(), h.end(), 0.0)) << n;
    EXPECT_EQ(max_value(ex, x), *std::max_element(h.begin(), h.end())) << n;
    EXPECT_EQ(min_value(ex, x), *std::min_element(h.begin(), h.end())) << n;
    EXPECT_EQ(norm_inf(ex, x), -*std::min_element(h.begin(), h.end())) << n;
    EXPECT_EQ(dot(ex, x, x), std::inner_product(h.begin(), h.end(), h.begin(), 0.0)) << n;
  }
}

TYPED_TEST(VectorTest, ElementWiseOperationsAndCopies) {
  const auto ex = make_executor<TypeParam>();
  const int n = 3001;
  const std::vector<double> a = negative_integers(n), b = smooth_vector(n);
  Vector<double> x = make_vector(a, TypeParam::space), y = make_vector(b, TypeParam::space), z(n, TypeParam::space);
  axpy(ex, 2.0, x, y);  // y = 2 a + b
  scale(ex, 0.5, y);    // y = a + b / 2
  multiply(ex, x, y, z);
  divide(ex, z, x, z);  // back to y
  finish(ex);
  const std::vector<double> got = host_values(z);
  ASSERT_EQ(got.size(), std::size_t(n));
  for (int k = 0; k < n; ++k) EXPECT_NEAR(got[std::size_t(k)], a[std::size_t(k)] + 0.5 * b[std::size_t(k)], 1e-12);
  EXPECT_EQ(max_value(ex, z), *std::max_element(got.begin(), got.end())) << "divide kept the padding zero";
}

// A x by the matrix-free operator (ghosts filled with homogeneous conditions), as a row-major vector.
template <class Exec>
std::vector<double> matrix_free(const Exec& ex, const Helmholtz<double>& op, const Grid2& g, const FieldBoundary& bc,
                                const std::vector<double>& x) {
  Field<double> host(g, 1, 1, MemorySpace::host);
  host.set_interior(0, x);
  Field<double> f = to_space(host, Exec::space), out = f.like(Exec::space);
  fill_ghosts(ex, f, bc);
  FieldView<const double> v = f.cview();
  FieldView<double> o = out.view();
  for_each_cell(ex, v.interior(), [=] PDEX_HD(int i, int j) { o(0, i, j) = op.apply(v, i, j, 0); });
  return to_space(out, MemorySpace::host).interior(0);
}

TYPED_TEST(VectorTest, AssembledGridOperatorEqualsTheMatrixFreeOne) {
  const auto ex = make_executor<TypeParam>();
  const Grid2 g{13, 9, 0.5, 0.25};
  for (BcKind k : {BcKind::dirichlet, BcKind::neumann, BcKind::periodic}) {
    const FieldBoundary bc = FieldBoundary::all(k);
    const Field<double> layout(g, 1, 1, MemorySpace::host);
    const double beta = 0.7;
    const auto op = make_helmholtz<double>(g, layout.view().pitch, 1.3, &beta, 1, bc);
    const std::vector<double> x = smooth_vector(g.nx * g.ny);
    const std::vector<double> want = matrix_free(ex, op, g, bc, x);
    EXPECT_LT(max_difference(host_multiply(assemble_csr(op), x), want), 1e-11) << int(k);
    EXPECT_LT(max_difference(host_multiply(to_csr(assemble_banded(op)), x), want), 1e-11) << int(k);
  }
}

}  // namespace
}  // namespace pdex::test
