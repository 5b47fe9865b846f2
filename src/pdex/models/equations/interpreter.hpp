#pragma once
// Runs a Program over a row's cells a chunk at a time: node by node, each over the box of cells its
// parents read (a spatial operator reads its operand one cell further out), so that the choice of what a
// node does is made once a chunk rather than once a cell, and the loops over a chunk's cells vectorize.
// The reference every compiled form of a text model is tested against, and what runs where no compiler
// is found. Arithmetic is in T, and each cell's operations are the generated code's (functions.hpp, the
// grid layer's stencils), so the two agree to the bit.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "pdex/core/hash.hpp"
#include "pdex/models/equations/program.hpp"
#include "pdex/models/equations/text_cell.hpp"

namespace pdex::eq {

template <class T>
class Interpreter {
 public:
  static constexpr int chunk = 256;  // cells a node is evaluated over at a time: its dispatch paid once

  // seed: rand()'s and randn()'s (in the expressions of initial values and parameters).
  explicit Interpreter(const Program& p, uint64_t seed = 0) : p_(&p), seed_(seed) {
    std::vector<int> roots = p.equations;
    for (const ImplicitTerm& d : p.implicit)
      if (d.term >= 0) roots.push_back(d.term);
    stage_ = plan(roots);
  }

  // k[s][q] = species s's right-hand side at cell (i0 + q, j, kz), q < m <= chunk (stage_rows' chunks).
  template <int N>
  void operator()(const TextCell<T>& cell, int i0, int j, int kz, int m, T (&k)[N][chunk]) const {
    const T* boxes = evaluate(stage_, cell, i0, j, kz, m);
    for (std::size_t s = 0; s < p_->equations.size(); ++s) {
      const T* f = centre(stage_, boxes, p_->equations[s]);
      for (int q = 0; q < m; ++q) k[s][q] = f[q];
      // The generated host source subtracts without a branch: with theta = 0 that leaves k as it is (up
      // to the sign of a zero, and a NaN where the term is infinite), so the interpreter skips it.
      const ImplicitTerm& d = p_->implicit[s];
      if (d.term < 0 || cell.theta == T(0)) continue;
      const T* term = centre(stage_, boxes, d.term);
      for (int q = 0; q < m; ++q) k[s][q] -= cell.theta * (T(d.sign) * term[q]);
    }
  }

  // f[s] = the right-hand side of species s at cell (i, j, kz) alone.
  void operator()(const TextCell<T>& cell, int i, int j, int kz, T* f) const {
    T k[max_components][chunk];
    (*this)(cell, i, j, kz, 1, k);
    for (std::size_t s = 0; s < p_->equations.size(); ++s) f[s] = k[s][0];
  }

  // Node n at the cells (i0 + q, j, kz), q < m, into out.
  void node(const TextCell<T>& cell, int n, int i0, int j, int kz, int m, T* out) const {
    const Plan pl = plan({n});
    for (int q0 = 0; q0 < m; q0 += chunk) {
      const int mq = std::min(chunk, m - q0);
      const T* v = centre(pl, evaluate(pl, cell, i0 + q0, j, kz, mq), n);
      std::copy(v, v + mq, out + q0);
    }
  }
  T node(const TextCell<T>& cell, int n, int i, int j, int kz = 0) const {
    T v;
    node(cell, n, i, j, kz, 1, &v);
    return v;
  }

 private:
  // Which nodes a set of roots needs and over how many cells around the chunk (halo: -1 none), and
  // where each node's box lies in the scratch: planes -halo .. halo (3D grids; only plane 0 on 2D ones),
  // rows -halo .. halo, columns -halo .. chunk + halo.
  struct Plan {
    std::vector<int> halo;
    std::vector<std::size_t> at;
    std::size_t size = 0;
    bool volume = false;
    int planes(int k) const { return volume ? halo[std::size_t(k)] : 0; }  // the box's planes each side
    // Whether node x's box holds row dj of plane dk.
    bool covers(int x, int dj, int dk) const {
      if (x < 0) return false;
      const int h = halo[std::size_t(x)];
      return h >= std::abs(dj) && planes(x) >= std::abs(dk);
    }
  };

  static bool is_operator(Op op) {
    return op == Op::lap || op == Op::grad_x || op == Op::grad_y || op == Op::grad_z || op == Op::grad_xf ||
           op == Op::grad_xb || op == Op::grad_yf || op == Op::grad_yb || op == Op::grad_zf || op == Op::grad_zb ||
           op == Op::advect || op == Op::advect_z || op == Op::div_grad || op == Op::div_tensor || op == Op::div_tensor_z;
  }

  Plan plan(const std::vector<int>& roots) const {
    const std::vector<Node>& nodes = p_->nodes;
    Plan pl;
    pl.volume = p_->volume;
    pl.halo.assign(nodes.size(), -1);
    for (const int r : roots) pl.halo[std::size_t(r)] = std::max(pl.halo[std::size_t(r)], 0);
    auto need = [&](int a, int h) {
      if (a >= 0) pl.halo[std::size_t(a)] = std::max(pl.halo[std::size_t(a)], h);
    };
    // A node's operands come before it: from the last node down, each passes its box on to them.
    for (std::size_t k = nodes.size(); k-- > 0;) {
      const int h = pl.halo[k];
      if (h < 0) continue;
      const Node& n = nodes[k];
      if (n.op == Op::define) need(p_->defines[std::size_t(n.slot)], h);
      else if (n.op == Op::div_tensor || n.op == Op::div_tensor_z) {
        const Node& tensor = nodes[std::size_t(n.a)];
        for (const int e : {tensor.a, tensor.b, tensor.c, n.b}) need(e, h + 1);
      } else if (n.op == Op::advect || n.op == Op::advect_z) {
        need(n.a, h + 1), need(n.b, h), need(n.c, h);
      } else if (n.op != Op::tensor) {
        const int w = is_operator(n.op) ? h + 1 : h;
        need(n.a, w), need(n.b, w), need(n.c, w);
      }
    }
    pl.at.assign(nodes.size(), 0);
    for (std::size_t k = 0; k < nodes.size(); ++k)
      if (const int h = pl.halo[k]; h >= 0 && nodes[k].op != Op::tensor) {
        pl.at[k] = pl.size;
        pl.size += std::size_t(2 * pl.planes(int(k)) + 1) * std::size_t(2 * h + 1) * std::size_t(chunk + 2 * h);
      }
    return pl;
  }

  // Node k's values on row j + dj of plane kz + dk of its box, indexed by the column di from i0
  // (-halo .. m + halo).
  static T* row(const Plan& pl, T* boxes, int k, int dj, int dk = 0) {
    const int h = pl.halo[std::size_t(k)];
    const std::size_t line = std::size_t(dk + pl.planes(k)) * std::size_t(2 * h + 1) + std::size_t(dj + h);
    return boxes + pl.at[std::size_t(k)] + line * std::size_t(chunk + 2 * h) + std::size_t(h);
  }
  static const T* centre(const Plan& pl, const T* boxes, int k) { return row(pl, const_cast<T*>(boxes), k, 0); }

  // Every node of the plan over its box, in node order; the boxes (a scratch of this thread's).
  const T* evaluate(const Plan& pl, const TextCell<T>& cell, int i0, int j, int kz, int m) const {
    thread_local std::vector<T> scratch;
    if (scratch.size() < pl.size) scratch.resize(pl.size);
    for (std::size_t k = 0; k < p_->nodes.size(); ++k)
      if (pl.halo[k] >= 0 && p_->nodes[k].op != Op::tensor) evaluate(pl, scratch.data(), int(k), cell, i0, j, kz, m);
    return scratch.data();
  }

  // The values of `a` around column di of row dj of its box: a five-point star, a nine-point box.
  static Star<T> star(const T* const r[3], int di) { return {r[1][di], r[1][di - 1], r[1][di + 1], r[0][di], r[2][di]}; }
  static Box<T> box(const T* const r[3], int di) {
    return {r[1][di], r[1][di - 1], r[1][di + 1], r[0][di], r[2][di], r[0][di - 1], r[0][di + 1], r[2][di - 1], r[2][di + 1]};
  }
  // A 3D grid's seven points: the star in the plane (rows r) and the values below and above (planes z).
  static Star3<T> star3(const T* const r[3], const T* const z[2], int di) { return {star(r, di), z[0][di], z[1][di]}; }

  // Node k over its box: plane by plane, row by row.
  void evaluate(const Plan& pl, T* boxes, int k, const TextCell<T>& c, int i0, int j, int kz, int m) const {
    const int h = pl.halo[std::size_t(k)], hz = pl.planes(k);
    for (int dk = -hz; dk <= hz; ++dk)
      for (int dj = -h; dj <= h; ++dj) evaluate_row(pl, boxes, k, c, i0, j, kz, m, dj, dk);
  }

  void evaluate_row(const Plan& pl, T* boxes, int k, const TextCell<T>& c, int i0, int j, int kz, int m, int dj, int dk) const {
    const Node& n = p_->nodes[std::size_t(k)];
    const int h = pl.halo[std::size_t(k)], lo = -h, hi = m + h;
    {
      T* o = row(pl, boxes, k, dj, dk);
      // Operand x's rows dj - 1, dj, dj + 1 (those an operator reads; the middle one for the rest) of
      // plane dk + pk, and its row dj in the planes below and above (a 3D grid's operators).
      auto rows = [&](int x, const T* (&r)[3], int pk = 0) {
        for (int d = 0; d < 3; ++d) r[d] = pl.covers(x, dj + d - 1, dk + pk) ? row(pl, boxes, x, dj + d - 1, dk + pk) : nullptr;
      };
      auto planes = [&](int x, const T* (&r)[2]) {
        for (int d = 0; d < 2; ++d) r[d] = pl.covers(x, dj, dk + 2 * d - 1) ? row(pl, boxes, x, dj, dk + 2 * d - 1) : nullptr;
      };
      const T *a[3], *b[3], *cc[3], *az[2], *bz[2];
      rows(n.a, a), rows(n.b, b), rows(n.c, cc), planes(n.a, az), planes(n.b, bz);
      const int plane = kz + dk;
      auto each = [&](auto f) {
        for (int di = lo; di < hi; ++di) o[di] = f(di);
      };
      switch (n.op) {
        case Op::constant: each([&](int) { return T(n.value); }); break;
        case Op::species: { const T* u = &c.u(n.slot, i0, j + dj, plane); each([&](int di) { return u[di]; }); break; }
        case Op::param:
          if (is_constant_param(*p_, n.slot)) {
            each([&](int) { return c.consts.v[n.slot]; });
          } else {
            const T* u = &c.params(param_component(*p_, n.slot), i0, j + dj, plane);
            each([&](int di) { return u[di]; });
          }
          break;
        case Op::define: {
          const T* d = row(pl, boxes, p_->defines[std::size_t(n.slot)], dj, dk);
          each([&](int di) { return d[di]; });
          break;
        }
        case Op::x: each([&](int di) { return c.x(i0 + di); }); break;
        case Op::y: each([&](int) { return c.y(j + dj); }); break;
        case Op::z: each([&](int) { return c.z(plane); }); break;
        case Op::t: each([&](int) { return c.t; }); break;
        case Op::dx: each([&](int) { return c.dx; }); break;
        case Op::dy: each([&](int) { return c.dy; }); break;
        case Op::dz: each([&](int) { return c.dz; }); break;
        case Op::length_x: each([&](int) { return c.lx; }); break;
        case Op::length_y: each([&](int) { return c.ly; }); break;
        case Op::length_z: each([&](int) { return c.lz; }); break;
        case Op::negate: each([&](int di) { return -a[1][di]; }); break;
        case Op::add: each([&](int di) { return a[1][di] + b[1][di]; }); break;
        case Op::sub: each([&](int di) { return a[1][di] - b[1][di]; }); break;
        case Op::mul: each([&](int di) { return a[1][di] * b[1][di]; }); break;
        case Op::div: each([&](int di) { return a[1][di] / b[1][di]; }); break;
        case Op::pow: each([&](int di) { return func2(Fn::pow, a[1][di], b[1][di]); }); break;
        case Op::powi:  // the common exponents unrolled, as the generated code's power<n> (the same products)
          if (n.slot == 2) each([&](int di) { return power<2>(a[1][di]); });
          else if (n.slot == 3) each([&](int di) { return power<3>(a[1][di]); });
          else each([&](int di) { return power(a[1][di], n.slot); });
          break;
        case Op::less: each([&](int di) { return T(a[1][di] < b[1][di]); }); break;
        case Op::less_equal: each([&](int di) { return T(a[1][di] <= b[1][di]); }); break;
        case Op::greater: each([&](int di) { return T(a[1][di] > b[1][di]); }); break;
        case Op::greater_equal: each([&](int di) { return T(a[1][di] >= b[1][di]); }); break;
        case Op::equal: each([&](int di) { return T(a[1][di] == b[1][di]); }); break;
        case Op::not_equal: each([&](int di) { return T(a[1][di] != b[1][di]); }); break;
        case Op::choose: each([&](int di) { return a[1][di] != T(0) ? b[1][di] : cc[1][di]; }); break;
        case Op::func1: each([&](int di) { return func1(n.fn, a[1][di]); }); break;
        case Op::func2: each([&](int di) { return func2(n.fn, a[1][di], b[1][di]); }); break;
        case Op::lap:
          if (pl.volume) each([&](int di) { return lap(star(a, di), c.h) + lap_z(az[0][di], a[1][di], az[1][di], c.h); });
          else each([&](int di) { return lap(star(a, di), c.h); });
          break;
        case Op::grad_x: each([&](int di) { return (a[1][di + 1] - a[1][di - 1]) * c.h.ihdx; }); break;
        case Op::grad_y: each([&](int di) { return (a[2][di] - a[0][di]) * c.h.ihdy; }); break;
        case Op::grad_xf: each([&](int di) { return (a[1][di + 1] - a[1][di]) * c.h.idx; }); break;
        case Op::grad_xb: each([&](int di) { return (a[1][di] - a[1][di - 1]) * c.h.idx; }); break;
        case Op::grad_yf: each([&](int di) { return (a[2][di] - a[1][di]) * c.h.idy; }); break;
        case Op::grad_yb: each([&](int di) { return (a[1][di] - a[0][di]) * c.h.idy; }); break;
        case Op::grad_z: each([&](int di) { return (az[1][di] - az[0][di]) * c.h.ihdz; }); break;
        case Op::grad_zf: each([&](int di) { return (az[1][di] - a[1][di]) * c.h.idz; }); break;
        case Op::grad_zb: each([&](int di) { return (a[1][di] - az[0][di]) * c.h.idz; }); break;
        case Op::rand: case Op::randn: each([&](int di) { return T(draw(n, c.grid, i0 + di, j + dj, plane)); }); break;
        case Op::advect: each([&](int di) { return advect_upwind(star(a, di), b[1][di], cc[1][di], c.h); }); break;
        case Op::advect_z: each([&](int di) { return advect_upwind_z(az[0][di], a[1][di], az[1][di], b[1][di], c.h); }); break;
        case Op::div_grad:
          if (pl.volume)
            each([&](int di) {
              return div_grad(star(a, di), star(b, di), c.h) +
                     div_grad_z(az[0][di], a[1][di], az[1][di], bz[0][di], b[1][di], bz[1][di], c.h);
            });
          else each([&](int di) { return div_grad(star(a, di), star(b, di), c.h); });
          break;
        case Op::div_tensor: {
          const Node& t = p_->nodes[std::size_t(n.a)];
          const T *xx[3], *xy[3], *yy[3];
          rows(t.a, xx), rows(t.b, xy), rows(t.c, yy);
          each([&](int di) { return eq::div_tensor(star(xx, di), star(xy, di), star(yy, di), box(b, di), c.h); });
          break;
        }
        case Op::div_tensor_z: {
          const Node& t = p_->nodes[std::size_t(n.a)];
          const T *xz[3], *yz[3], *zz[3], *xzp[2], *yzp[2], *zzp[2], *below[3], *above[3];
          rows(t.a, xz), rows(t.b, yz), rows(t.c, zz), planes(t.a, xzp), planes(t.b, yzp), planes(t.c, zzp);
          rows(n.b, below, -1), rows(n.b, above, 1);
          each([&](int di) {
            return eq::div_tensor_z(star3(xz, xzp, di), star3(yz, yzp, di), star3(zz, zzp, di),
                                    Box3<T>{box(b, di), star(below, di), star(above, di)}, c.h);
          });
          break;
        }
        case Op::tensor: break;  // read by div_tensor and div_tensor_z only
      }
    }
  }

  // Cell (i, j, k)'s draw of call site n.slot: a function of the seed, the site and the cell alone, so
  // the same on every backend and in any order of the cells.
  double draw(const Node& n, const Grid2& g, int i, int j, int k) const {
    uint64_t state = seed_ * 0x9E3779B97F4A7C15ull ^ uint64_t(n.slot) << 48 ^ uint64_t(g.extents().index(i, j, k)) << 1;
    const double u1 = unit_draw(state);
    if (n.op == Op::rand) return u1;
    const double u2 = unit_draw(state);  // Box-Muller
    return std::sqrt(-2 * std::log1p(-u1)) * std::cos(6.283185307179586 * u2);
  }

  const Program* p_;
  uint64_t seed_;
  Plan stage_;
};

// Node `root` at every cell, row by row ([z][y][x]): the species u (ghosts filled) and the parameters
// read at time t (those that are numbers from `constants`), rand() and randn() drawn from `seed`.
template <class T>
std::vector<double> cells_of(const Program& p, int root, const FieldView<const T>& u, const FieldView<const T>& params,
                             const Grid2& g, double t = 0, uint64_t seed = 0, const Constants<T>& constants = {}) {
  StageArgs<T> a = reading(u, params, g, t);
  a.constants = constants;
  const TextCell<T> cell(a);
  const Interpreter<T> run(p, seed);
  std::vector<double> v(std::size_t(g.cells()));
  std::vector<T> row(std::size_t(g.nx));
  for (int k = 0; k < g.nz; ++k)
    for (int j = 0; j < g.ny; ++j) {
      run.node(cell, root, 0, j, k, g.nx, row.data());
      std::copy(row.begin(), row.end(), v.begin() + std::ptrdiff_t(g.extents().index(0, j, k)));
    }
  return v;
}

}  // namespace pdex::eq
