// Stored matrices: the product agrees across formats, backends and precisions with a plain host loop;
// CG, PCG and BiCGStab solve SPD and non-symmetric systems written to and read from Matrix Market files
// (the same Krylov code as the grid solvers); CGLS solves least-squares problems.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <utility>
#include <tuple>

#include "linalg/matrix_problems.hpp"
#include "pdex/grid/field.hpp"
#include "pdex/linalg/elliptic.hpp"
#include "pdex/linalg/grid_assembly.hpp"
#include "pdex/linalg/matrix_market.hpp"
#include "pdex/linalg/matrix_solve.hpp"
#include "support/scratch_dir.hpp"

namespace pdex::test {
namespace {

using Param = std::tuple<Backend, Precision>;

class StoredMatrixTest : public ::testing::TestWithParam<Param> {
 protected:
  void SetUp() override {
    if (!backend_available(backend())) GTEST_SKIP() << "no CUDA device: " << backend_unavailable_reason(backend());
  }
  Backend backend() const { return std::get<0>(GetParam()); }
  Precision precision() const { return std::get<1>(GetParam()); }
  double eps() const { return precision() == Precision::f64 ? 1e-12 : 1e-5; }

  // Writes A and b as a user would have, reads them back, solves.
  MatrixSolution solve_through_files(const CsrMatrix<double>& a, const std::vector<double>& b, MatrixSolve s) {
    pdex::testing::ScratchDir dir;
    write_matrix_market((dir.path() / "A.mtx").string(), a);
    write_matrix_market_vector((dir.path() / "b.mtx").string(), b);
    const auto a2 = read_matrix_market((dir.path() / "A.mtx").string());
    const auto b2 = read_matrix_market_vector((dir.path() / "b.mtx").string());
    EXPECT_EQ(a2.nnz(), a.nnz());
    s.tol = precision() == Precision::f64 ? 1e-10 : 1e-5;
    return solve_matrix(a2, b2, s, backend(), precision());
  }
};

TEST_P(StoredMatrixTest, ProductAgreesWithHostLoopInEveryFormat) {
  for (const auto& a : {random_sparse(1500, 1500, 4, 1), convection_diffusion(2100)}) {
    const std::vector<double> x = smooth_vector(a.cols), want = host_multiply(a, x);
    for (MatrixFormat f : {MatrixFormat::csr, MatrixFormat::banded, MatrixFormat::dense}) {
      const auto y = multiply_matrix(a, x, f, backend(), precision());
      ASSERT_EQ(y.size(), want.size());
      EXPECT_LT(max_difference(y, want), 20 * eps()) << "format " << int(f) << ", n " << a.rows;
    }
  }
}

TEST_P(StoredMatrixTest, RectangularProduct) {
  const auto a = random_sparse(300, 70, 5, 2);
  const std::vector<double> x = smooth_vector(70);
  for (MatrixFormat f : {MatrixFormat::csr, MatrixFormat::dense})
    EXPECT_LT(max_difference(multiply_matrix(a, x, f, backend(), precision()), host_multiply(a, x)), 20 * eps());
}

TEST_P(StoredMatrixTest, CgAndPcgSolveAnSpdSystem) {
  const int n = 400;
  const auto a = random_spd(n, 3);
  const std::vector<double> x0 = smooth_vector(n), b = host_multiply(a, x0);
  for (MatrixMethod m : {MatrixMethod::cg, MatrixMethod::pcg}) {
    const MatrixSolution sol = solve_through_files(a, b, MatrixSolve{m});
    EXPECT_TRUE(sol.stats.converged) << matrix_method_name(m) << ": " << sol.stats.iterations << " iterations";
    EXPECT_LT(sol.true_residual, precision() == Precision::f64 ? 1e-9 : 1e-4);
    EXPECT_LT(max_difference(sol.x, x0), precision() == Precision::f64 ? 1e-7 : 1e-2);
    EXPECT_LT(sol.stats.iterations, n) << "CG in exact arithmetic needs at most n iterations";
  }
}

TEST_P(StoredMatrixTest, BicgstabSolvesANonSymmetricSystem) {
  const int n = 3000;
  const auto a = convection_diffusion(n);
  const std::vector<double> x0 = smooth_vector(n), b = host_multiply(a, x0);
  for (bool jacobi : {false, true}) {
    MatrixSolve s{MatrixMethod::bicgstab};
    s.jacobi = jacobi;
    for (MatrixFormat f : {MatrixFormat::csr, MatrixFormat::banded}) {
      s.format = f;
      const MatrixSolution sol = solve_through_files(a, b, s);
      EXPECT_TRUE(sol.stats.converged) << sol.stats.iterations << " iterations, jacobi " << jacobi;
      EXPECT_LT(max_difference(sol.x, x0), precision() == Precision::f64 ? 1e-7 : 1e-3);
    }
  }
}

TEST_P(StoredMatrixTest, CgDoesNotConvergeOnANonSymmetricSystemWhereBicgstabDoes) {
  // The property that makes BiCGStab necessary: 2 I plus a large skew-symmetric part (eigenvalues
  // 2 +- 3i cos(k pi / (n + 1))) defeats CG's short recurrences, which assume A = A^T.
  std::vector<Triplet<double>> t;
  const int n = 200;
  for (int i = 0; i < n; ++i) {
    t.push_back({i, i, 2.0});
    if (i + 1 < n) t.push_back({i, i + 1, 1.5});
    if (i > 0) t.push_back({i, i - 1, -1.5});
  }
  const auto a = csr_from_triplets(n, n, t);
  const std::vector<double> b = host_multiply(a, smooth_vector(n));
  MatrixSolve s{MatrixMethod::cg};
  s.max_iter = 2 * n;
  const MatrixSolution sol = solve_through_files(a, b, s);
  EXPECT_FALSE(sol.stats.converged && sol.true_residual < 1e-6);
  s.method = MatrixMethod::bicgstab;
  const MatrixSolution good = solve_through_files(a, b, s);
  EXPECT_TRUE(good.stats.converged) << good.stats.iterations << " iterations";
}

TEST_P(StoredMatrixTest, CglsSolvesLeastSquares) {
  const int rows = 240, cols = 40;
  const auto a = random_sparse(rows, cols, 6, 4);
  std::vector<double> b = host_multiply(a, smooth_vector(cols));
  for (std::size_t k = 0; k < b.size(); k += 3) b[k] += 0.1;  // not in A's range: a true least-squares problem
  MatrixSolve s{MatrixMethod::cgls};
  const MatrixSolution sol = solve_through_files(a, b, s);
  EXPECT_TRUE(sol.stats.converged) << sol.stats.iterations;
  // The normal equations hold: A^T (b - A x) = 0.
  const std::vector<double> ax = host_multiply(a, sol.x);
  std::vector<double> atr(std::size_t(cols), 0.0), atb(std::size_t(cols), 0.0);
  for (const auto& e : triplets(a)) {
    atr[std::size_t(e.col)] += e.value * (b[std::size_t(e.row)] - ax[std::size_t(e.row)]);
    atb[std::size_t(e.col)] += e.value * b[std::size_t(e.row)];
  }
  double nr = 0, nb = 0;
  for (int k = 0; k < cols; ++k) nr += atr[std::size_t(k)] * atr[std::size_t(k)], nb += atb[std::size_t(k)] * atb[std::size_t(k)];
  EXPECT_LT(std::sqrt(nr / nb), precision() == Precision::f64 ? 1e-8 : 1e-3);
  EXPECT_GT(sol.true_residual, 1e-3) << "b was outside A's range: the residual cannot vanish";
}

TEST_P(StoredMatrixTest, RefusesNonSquareAndMismatchedSystems) {
  const auto rect = random_sparse(30, 20, 3, 5);
  EXPECT_THROW(solve_matrix(rect, std::vector<double>(30, 1.0), MatrixSolve{MatrixMethod::cg}, backend(), precision()),
               InputError);
  const auto sq = convection_diffusion(30);
  EXPECT_THROW(solve_matrix(sq, std::vector<double>(29, 1.0), MatrixSolve{MatrixMethod::bicgstab}, backend(), precision()),
               InputError);
}

TEST_P(StoredMatrixTest, GridAndStoredOperatorsTakeTheSameKrylovPath) {
  // One CG and one BiCGStab serve both: on the Poisson operator, matrix-free on the grid and assembled
  // into CSR, they take the same iterations (to rounding) to the same answer.
  const Grid2 g{40, 30, 1.0 / 40, 1.0 / 30};
  EllipticSpec spec;
  spec.grid = g;
  spec.solver.tol = precision() == Precision::f64 ? 1e-10 : 1e-5;
  const std::vector<double> f = smooth_vector(g.nx * g.ny);
  const Field<double> layout(g, 1, 1, MemorySpace::host);
  const auto op = make_helmholtz<double>(g, layout.view().pitch, 0.0, &spec.beta, 1, spec.bc);
  const CsrMatrix<double> a = assemble_csr(op);
  for (auto [grid_method, stored_method] : {std::pair{SolverMethod::cg, MatrixMethod::cg},
                                            std::pair{SolverMethod::bicgstab, MatrixMethod::bicgstab}}) {
    spec.solver.method = grid_method;
    spec.solver.preconditioner = Preconditioner::none;
    auto grid = make_elliptic_solver(spec, backend(), precision());
    grid->set(std::vector<double>(f.size(), 0.0), f);
    const SolveStats gs = grid->solve();
    MatrixSolve ms{stored_method};
    ms.tol = spec.solver.tol;
    const MatrixSolution stored = solve_matrix(a, f, ms, backend(), precision());
    EXPECT_TRUE(gs.converged && stored.stats.converged);
    // The stencil and the CSR row sum in different orders; BiCGStab amplifies that rounding a little.
    EXPECT_NEAR(gs.iterations, stored.stats.iterations, std::max(2.0, 0.1 * gs.iterations))
        << matrix_method_name(stored_method);
    const double scale = *std::max_element(stored.x.begin(), stored.x.end());
    EXPECT_LT(max_difference(grid->solution(), stored.x), (precision() == Precision::f64 ? 1e-8 : 1e-3) * scale);
  }
}

// Whether a shared library whose file name starts with `prefix` is mapped into this process.
bool mapped(const std::string& prefix) {
  std::ifstream maps("/proc/self/maps");
  for (std::string line; std::getline(maps, line);)
    if (line.find("/" + prefix) != std::string::npos) return true;
  return false;
}

// Read before main(), after the libraries the program links are loaded.
const bool cublas_at_start = mapped("libcublas"), cusparse_at_start = mapped("libcusparse");

// cuBLAS and cuSPARSE are opened when a product first needs them (vendor_blas.cu): linked, they cost
// every program about half a second at start, runs that never call them included.
TEST(VendorLibraries, AreLoadedWhenAStoredProductFirstNeedsThem) {
  EXPECT_FALSE(cublas_at_start);
  EXPECT_FALSE(cusparse_at_start);
  if (!backend_available(Backend::cuda)) GTEST_SKIP() << "no CUDA device: " << backend_unavailable_reason(Backend::cuda);
  const auto a = random_sparse(40, 30, 4, 3);
  const std::vector<double> x = smooth_vector(30), want = host_multiply(a, x);
  for (MatrixFormat f : {MatrixFormat::csr, MatrixFormat::dense})
    EXPECT_LT(max_difference(multiply_matrix(a, x, f, Backend::cuda, Precision::f64), want), 2e-11);
  EXPECT_TRUE(mapped("libcublas.so"));
  EXPECT_TRUE(mapped("libcusparse.so"));
}

std::string name(const ::testing::TestParamInfo<Param>& info) {
  return std::string(backend_name(std::get<0>(info.param))) + "_" + std::string(precision_name(std::get<1>(info.param)));
}

INSTANTIATE_TEST_SUITE_P(All, StoredMatrixTest,
                         ::testing::Combine(::testing::Values(Backend::serial, Backend::openmp, Backend::cuda),
                                            ::testing::Values(Precision::f64, Precision::f32)),
                         name);

}  // namespace
}  // namespace pdex::test
