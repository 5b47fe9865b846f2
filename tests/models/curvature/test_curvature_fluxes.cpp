// The complementary finite volume right-hand sides are conservative: phi_t / Q_ij is a sum of face
// fluxes (eqs. 17 and 21), so over a domain whose sides are all Neumann (eqs. 19-20, 24-25: no flux
// through them) sum_ij k_ij / Q_ij vanishes to rounding. With a Dirichlet side it does not, which shows
// the check can fail. Kernels called directly on every executor (Cuda compiled by nvcc, skipped without
// a device).
#include <gtest/gtest.h>

#include <cmath>

#include "core/executor_types.hpp"
#include "pdex/grid/fill_ghosts.hpp"
#include "pdex/models/curvature/curvature_rhs.hpp"
#include "pdex/time/rk/runge_kutta.hpp"

namespace pdex::test {
namespace {

template <class E>
class CurvatureFluxes : public ExecutorTest<E> {};
TYPED_TEST_SUITE(CurvatureFluxes, Executors, ExecutorNames);

struct FluxSum {
  double sum, scale;  // sum k / Q h^2, and sum |k| / Q h^2 to judge it against
};

template <class E>
FluxSum flux_sum(Flow flow, const FieldBoundary& bc) {
  const E ex = make_executor<E>();
  const Grid2 g{24, 20, 0.1, 0.1, -1.2, -1.0};
  Field<double> host(g, 1, 1, MemorySpace::host);
  for (int j = 0; j < g.ny; ++j)
    for (int i = 0; i < g.nx; ++i)
      host.view()(0, i, j) = std::sin(2 * g.x(i) + 0.3) * std::cos(1.5 * g.y(j)) + 0.2 * g.x(i) * g.x(i);
  fill_ghosts(Serial{}, host, bc);
  Field<double> phi = to_space(host, E::space), k = phi.like(E::space), w = phi.like(E::space);
  const CellFaces<double> faces = CellFaces<double>::make(Spacing<double>::make(g.dx, g.dy, host.view().pitch));
  if (flow == Flow::mean_curvature) {
    evaluate_rhs(ex, MeanCurvatureSystem<double, NoForcing<double>>{faces, {}}, 0.0, phi.cview(), k.view());
  } else {
    FieldBoundary w_bc = bc;
    for (auto& side : w_bc.side) side[0].value = 0.0;
    evaluate_rhs(ex, WillmoreSystem<double, NoForcing<double>>{faces, {}, w.view(), w_bc}, 0.0, phi.cview(), k.view());
  }
  finish(ex);
  const Field<double> kh = to_space(k, MemorySpace::host);
  FluxSum s{0, 0};
  for (int j = 0; j < g.ny; ++j)
    for (int i = 0; i < g.nx; ++i) {
      const int64_t o = host.view().offset(i, j);
      const double q = cell_q(faces.patch(host.view().data, o), faces);
      s.sum += kh.view()(0, i, j) / q * g.dx * g.dy;
      s.scale += std::abs(kh.view()(0, i, j)) / q * g.dx * g.dy;
    }
  return s;
}

TYPED_TEST(CurvatureFluxes, NeumannSidesPassNoFlux) {
  for (Flow flow : {Flow::mean_curvature, Flow::willmore}) {
    const FluxSum s = flux_sum<TypeParam>(flow, FieldBoundary::all(BcKind::neumann));
    EXPECT_GT(s.scale, 0.1);
    EXPECT_LT(std::abs(s.sum), 1e-12 * s.scale) << (flow == Flow::willmore ? "willmore" : "mean curvature");
  }
}

TYPED_TEST(CurvatureFluxes, DirichletSideLetsFluxThrough) {
  FieldBoundary bc = FieldBoundary::all(BcKind::neumann);
  bc.side[left][0] = SideBc{BcKind::dirichlet, 2.0};
  for (Flow flow : {Flow::mean_curvature, Flow::willmore}) {
    const FluxSum s = flux_sum<TypeParam>(flow, bc);
    EXPECT_GT(std::abs(s.sum), 1e-6 * s.scale);  // six orders above the Neumann bound
  }
}

}  // namespace
}  // namespace pdex::test
