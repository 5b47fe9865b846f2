// The host executors' text-model steppers: the stage compiled by the host's C++ compiler, else the
// interpreter (saying so once), the rows shared among the executor's threads.
#include <algorithm>
#include <cstdio>
#include <string>
#include <type_traits>
#include <utility>

#include "pdex/core/parallel.hpp"
#include "pdex/models/equations/equations_stepper_impl.hpp"
#include "pdex/models/equations/host_kernel.hpp"
#include "pdex/models/equations/interpreter.hpp"
#include "pdex/time/euler_blocked.hpp"

namespace pdex {

namespace {

// The stage on the executor's threads, row by row of a's box (its planes one after another); the largest
// error estimate over the rows.
template <class T, class Exec, class Rows>
double on_rows(const Exec& ex, const eq::StageArgs<T>& a, bool reduce, const Rows& rows) {
  const CellBox box{{a.lo[0], a.lo[1], a.lo[2]}, {a.hi[0], a.hi[1], a.hi[2]}};
  const BoxRows numbering = box_rows(box);
  const int count = int(box_range(box).height());
  const auto row = [&](int q) {  // the box's q-th row as a row of the whole grid (stage_rows' numbering)
    const int r = numbering.flat(q, a.grid.ny);
    return rows(a, r, r + 1);
  };
  if (count <= 0) return 0.0;
  if (!reduce) {
    for_each_row(ex, 0, count, [&](int q) { row(q); });
    return 0.0;
  }
  return double(max_of_cells<T>(ex, Range2{0, 1, 0, count}, [&](int, int q) { return row(q); }));
}

// The stage on rows: compiled by the host's C++ compiler, else the interpreter (saying so once).
template <class T>
TextRows<T> row_stage(const eq::Program& p) {
  std::string why;
  if (const auto k = eq::host_kernel<T>(p, why)) {
    if (!k->cached) std::fprintf(stderr, "pdex: the text model was compiled in %.1f s; cached as %s\n", k->seconds, k->library.c_str());
    return [fn = k->stage](const eq::StageArgs<T>& a, int r0, int r1) { return double(fn(&a, r0, r1)); };
  }
  static bool said = false;
  if (!std::exchange(said, true))
    std::fprintf(stderr, "pdex: note: the text model runs in the interpreter, several times slower than compiled: %s\n", why.c_str());
  const int n = int(p.equations.size());
  return [n, run = eq::Interpreter<T>(p)](const eq::StageArgs<T>& a, int r0, int r1) {
    return double(eq::stage_rows<max_components>(a, r0, r1, run, n));
  };
}

template <class T, class Exec>
TextStage<T> host_stage(const Exec& ex, const eq::Program& p) {
  return [ex, rows = row_stage<T>(p)](const eq::StageArgs<T>& a, bool reduce) { return on_rows(ex, a, reduce, rows); };
}

// A text model's rows for blocked_rows (time/euler_blocked.hpp): the stage on one row, at level l's time,
// into a window without images or, at the last level, into the run's out with them.
template <class T>
struct StageRows {
  const TextRows<T>& stage;
  const eq::StageArgs<T>& base;
  const double* t;
  int steps;

  void level(FieldView<const T> in, FieldView<T> out, int j, int l) const { row(in, out, j, t[l - 1]); }
  // The last level's row j and the ghost images of its cells beside a side, as the one-pass stage pushes
  // them (the stores' own pushes would index the run's out by the window's component stride).
  void last(FieldView<const T> in, int j) const {
    const FieldView<T> out = base.st.out;
    const int g = out.ghost, nx = out.nx;
    row(in, out, j, t[steps - 1]);
    const auto push = [&](int i0, int i1) {
      for (int i = i0; i < i1; ++i)
        for (int c = 0; c < out.ncomp; ++c) push_ghosts(out, base.st.bc, c, i, j, out(c, i, j));
    };
    if (j < g || j >= out.ny - g) return push(0, nx);
    push(0, std::min(g, nx));
    push(std::max(g, nx - g), nx);
  }
  // Row j from the level below `in` into `out` (a window, or the run's out), without images.
  void row(FieldView<const T> in, FieldView<T> out, int j, double tl) const {
    eq::StageArgs<T> a = base;
    a.arg = in, a.st.u = in, a.st.out = out, a.t = tl, a.images = false;
    a.lo[1] = j, a.hi[1] = j + 1;
    stage(a, j, j + 1);
  }
};

template <class T, class Exec>
TextBlocked<T> host_blocked(const Exec& ex, const eq::Program& p) {
  return [ex, rows = row_stage<T>(p)](const eq::StageArgs<T>& base, FieldView<const T> in, const double* t, int steps) {
    blocked_rows(ex, StageRows<T>{rows, base, t, steps}, in, base.st.bc, steps);
  };
}

}  // namespace

template <class T>
TextStage<T> text_stage(const Serial& ex, const eq::Program& p) {
  return host_stage<T>(ex, p);
}
template <class T>
TextStage<T> text_stage(const OpenMP& ex, const eq::Program& p) {
  return host_stage<T>(ex, p);
}
template <class T>
TextBlocked<T> text_blocked(const Serial& ex, const eq::Program& p) {
  return host_blocked<T>(ex, p);
}
template <class T>
TextBlocked<T> text_blocked(const OpenMP& ex, const eq::Program& p) {
  return host_blocked<T>(ex, p);
}

std::vector<double> algebraic_values(const EquationsSpec& spec, int a, const std::vector<std::vector<double>>& species, double t) {
  const Field<double> u = equations_detail::species_field<double>(spec, {species.begin(), species.end()}, MemorySpace::host, t);
  const Field<double> params = equations_detail::parameter_field<double>(spec, MemorySpace::host);
  const int root = spec.program.defines[std::size_t(spec.program.algebraic[std::size_t(a)])];
  return eq::cells_of<double>(spec.program, root, u.cview(), params.cview(), spec.grid, t, 0, equations_detail::constants_of<double>(spec));
}

std::vector<std::string> output_fields(const eq::TextModel& text) {
  std::vector<std::string> f = text.species;
  for (const auto& [name, expression] : text.algebraic) f.push_back(name);
  return f;
}

template std::unique_ptr<Stepper> make_equations_stepper_on<Serial>(const Serial&, const EquationsSpec&, Precision);
template std::unique_ptr<Stepper> make_equations_stepper_on<OpenMP>(const OpenMP&, const EquationsSpec&, Precision);

}  // namespace pdex
