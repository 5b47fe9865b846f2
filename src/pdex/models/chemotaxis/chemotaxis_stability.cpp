#include "pdex/models/chemotaxis/chemotaxis_stability.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pdex {

namespace {

// A row of I + h_t G: |1 - h_t d| + h_t o, d the (negated) diagonal of G, o its off-diagonal sum.
double row_norm(double dt, double d, double o) { return std::abs(1 - dt * d) + dt * o; }

// The Laplacian's row at a cell on a side of kind `k` along one axis: (diagonal, off-diagonal) / h^2.
// The ghost of a Dirichlet side is 2 b - v, of a Neumann side v: they fold into the diagonal.
void axis_row(BcKind k, bool at_side, double& d, double& o) {
  if (!at_side || k == BcKind::periodic) {
    d = 2, o = 2;
    return;
  }
  d = k == BcKind::dirichlet ? 3 : 1;
  o = 1;
}

struct Rows {
  const ChemotaxisSpec& s;
  std::vector<double> n, c, u1, u2, phi;  // with a ghost ring
  Extents2 ringed;  // the grid's extents with the ghost ring
  double n_max;

  double at(const std::vector<double>& v, int i, int j) const {
    return v.empty() ? 0.0 : v[std::size_t(ringed.index(i + 1, j + 1))];
  }
  double dx(const std::vector<double>& v, int i, int j) const {
    return (at(v, i + 1, j) - at(v, i - 1, j)) / (2 * s.grid.dx);
  }
  double dy(const std::vector<double>& v, int i, int j) const {
    return (at(v, i, j + 1) - at(v, i, j - 1)) / (2 * s.grid.dy);
  }
  double tensor(int k, int i, int j) const {
    if (s.kind != ChemotaxisKind::stokes) return k == 0 || k == 3 ? s.chi : 0.0;
    return s.s[k].varies() ? s.s[k].cells[std::size_t(s.grid.extents().index(i, j))] : s.s[k].value;
  }

  // Row sums of |dF/dW| for the n and c equations at cell (i, j) (the u equations' F is 0).
  double f_row(int i, int j) const {
    const double hx = s.grid.dx, hy = s.grid.dy, nv = std::abs(at(n, i, j));
    const double sxx = tensor(0, i, j), sxy = tensor(1, i, j), syx = tensor(2, i, j), syy = tensor(3, i, j);
    const double cx = dx(c, i, j), cy = dy(c, i, j), a = std::abs(at(u1, i, j)), b = std::abs(at(u2, i, j));
    double gx = sxx * cx + sxy * cy, gy = syx * cx + syy * cy;  // S grad c
    // The elliptic variant's c = (I - lap)^-1 n is not the configured c0: its gradient is bounded by
    // max n (the gradient of the kernel of I - lap in the plane has integral 1).
    if (s.kind == ChemotaxisKind::keller_segel_elliptic) gx = gy = s.chi * n_max;
    // n row: div(n S grad c) through n (a drift S grad c) and, for the chemotaxis-Stokes system, through
    // c (a cross-diffusion n S lap c); u . grad n through n and u. Keller-Segel is not the seed's system:
    // its bound keeps the Laplacian and the drift (docs/seeds.md).
    const double cross = 2 * nv * ((2 * std::abs(sxx) / hx + std::abs(sxy) / hy) / hx + (2 * std::abs(syy) / hy + std::abs(syx) / hx) / hy);
    const double n_row = std::abs(gx) / hx + std::abs(gy) / hy + (s.kind == ChemotaxisKind::stokes ? cross : 0.0) +
                         a / hx + b / hy + std::abs(dx(n, i, j)) + std::abs(dy(n, i, j));
    // Keller-Segel's c row: n - c; the u rows: n grad phi (the pressure gradient, a dense map of n through
    // the Poisson solve, is left out).
    if (s.kind != ChemotaxisKind::stokes) return std::max(n_row, 2.0);
    const double u_row = std::max(std::abs(dx(phi, i, j)), std::abs(dy(phi, i, j)));
    // c row: n c through n and c, u . grad c through c and u.
    const double c_row = nv + std::abs(at(c, i, j)) + a / hx + b / hy + std::abs(cx) + std::abs(cy);
    return std::max({n_row, c_row, u_row});
  }

};

// Keller-Segel's F rows on a 3D grid at cell (i, j, k): the drift |chi dc/dx_a| / h_a and |dn/dx_a| along
// each axis, the ghosts the cells' mirror images (zero flux); as f_row, at least 2 (the c row).
double keller_segel_row_3d(const ChemotaxisSpec& s, double n_max, int i, int j, int k) {
  const Grid2& g = s.grid;
  const Extents2 e = g.extents();
  auto at = [&](const std::vector<double>& v, int a, int b, int c) {
    return v[std::size_t(e.index(std::clamp(a, 0, e.nx - 1), std::clamp(b, 0, e.ny - 1), std::clamp(c, 0, e.nz - 1)))];
  };
  const double h[3] = {g.dx, g.dy, g.dz};
  const int step[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  double row = 0;
  for (int a = 0; a < 3; ++a) {
    const int di = step[a][0], dj = step[a][1], dk = step[a][2];
    const double dc = (at(s.c0, i + di, j + dj, k + dk) - at(s.c0, i - di, j - dj, k - dk)) / (2 * h[a]);
    const double dn = (at(s.n0, i + di, j + dj, k + dk) - at(s.n0, i - di, j - dj, k - dk)) / (2 * h[a]);
    const double drift = s.kind == ChemotaxisKind::keller_segel_elliptic ? s.chi * n_max : s.chi * std::abs(dc);
    row += drift / h[a] + std::abs(dn);
  }
  return std::max(row, 2.0);
}

std::vector<double> ring(const std::vector<double>& v, const Grid2& g) {
  if (v.empty() || int64_t(v.size()) == g.extents().grown(1).cells()) return v;
  return with_ghost_ring(v, g.extents());
}

}  // namespace

Theorem2Bound chemotaxis_theorem2(const ChemotaxisSpec& s) {
  const Grid2& g = s.grid;
  const double n_max = *std::max_element(s.n0.begin(), s.n0.end());
  Theorem2Bound t;
  if (g.is_3d()) {
    for_each_cell(g.extents(), [&](int i, int j, int k) { t.f_max = std::max(t.f_max, keller_segel_row_3d(s, n_max, i, j, k)); });
  } else {
    const Rows r{s, ring(s.n0, g), ring(s.c0, g), ring(s.u10, g), ring(s.u20, g), s.phi, g.extents().grown(1), n_max};
    for_each_cell(g.extents(), [&](int i, int j) { t.f_max = std::max(t.f_max, r.f_row(i, j)); });
  }
  // The Laplacian rows of every cell type (interior, sides, edges, corners) of every field. A row is at
  // most 1 up to h_t = 1/d when o = d, up to 2/(d + o) when o < d.
  t.dt_linear = std::numeric_limits<double>::infinity();
  const double h2x = g.dx * g.dx, h2y = g.dy * g.dy, h2z = g.dz * g.dz;
  for (int ax : {0, 1, 2})
    for (int ay : {0, 1, 2})
      for (int az = 0; az < (g.is_3d() ? 3 : 1); ++az)
        for (int comp = 0; comp < (s.kind == ChemotaxisKind::stokes ? 4 : 2); ++comp) {
          double dxr, oxr, dyr, oyr, dzr = 0, ozr = 0;
          axis_row(s.bc.side[ax == 2 ? right : left][comp].kind, ax != 0, dxr, oxr);
          axis_row(s.bc.side[ay == 2 ? top : bottom][comp].kind, ay != 0, dyr, oyr);
          if (g.is_3d()) axis_row(s.bc.side[az == 2 ? back : front][comp].kind, az != 0, dzr, ozr);
          double d = dxr / h2x + dyr / h2y, o = oxr / h2x + oyr / h2y;
          if (g.is_3d()) d += dzr / h2z, o += ozr / h2z;
          t.norm_linear = std::max(t.norm_linear, row_norm(s.dt, d, o));
          t.dt_linear = std::min(t.dt_linear, o < d ? 2 / (d + o) : 1 / d);
        }
  t.rho = t.norm_linear + s.dt * t.f_max;
  t.dt_nonlinear = t.f_max > 0 ? 1 / t.f_max : std::numeric_limits<double>::infinity();
  t.dt_max = std::min(t.dt_linear, t.dt_nonlinear);
  t.limit = t.dt_linear <= t.dt_nonlinear ? "||I + h_t G||_inf <= 1, G the Laplacians"
                                          : "h_t F_max <= 1, F_max = ||grad F||_inf at the initial state";
  return t;
}

}  // namespace pdex
