// The host executors' text-model steppers: the stage compiled by the host's C++ compiler, else the
// interpreter (saying so once), the rows shared among the executor's threads.
#include <cstdio>
#include <string>
#include <type_traits>
#include <utility>

#include "pdex/core/parallel.hpp"
#include "pdex/models/equations/equations_stepper_impl.hpp"
#include "pdex/models/equations/host_kernel.hpp"
#include "pdex/models/equations/interpreter.hpp"

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

template <class T, class Exec>
TextStage<T> host_stage(const Exec& ex, const eq::Program& p) {
  std::string why;
  if (const auto k = eq::host_kernel(p, why)) {
    if (!k->cached) std::fprintf(stderr, "pdex: the text model was compiled in %.1f s; cached as %s\n", k->seconds, k->library.c_str());
    auto* fn = [&] {
      if constexpr (std::is_same_v<T, float>) return k->stage_f32;
      else return k->stage_f64;
    }();
    return [ex, fn](const eq::StageArgs<T>& a, bool reduce) {
      return on_rows(ex, a, reduce, [fn](const eq::StageArgs<T>& b, int j0, int j1) { return fn(&b, j0, j1); });
    };
  }
  static bool said = false;
  if (!std::exchange(said, true))
    std::fprintf(stderr, "pdex: note: the text model runs in the interpreter, several times slower than compiled: %s\n", why.c_str());
  const int n = int(p.equations.size());
  return [ex, n, run = eq::Interpreter<T>(p)](const eq::StageArgs<T>& a, bool reduce) {
    return on_rows(ex, a, reduce, [&](const eq::StageArgs<T>& b, int j0, int j1) {
      return eq::stage_rows<max_components>(b, j0, j1, run, n);
    });
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
