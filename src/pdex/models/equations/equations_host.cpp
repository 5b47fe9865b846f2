// The host executors' text-model steppers: the step compiled by the host's C++ compiler, else the
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

template <class T, class Exec>
TextStep<T> host_step(const Exec& ex, const eq::Program& p) {
  std::string why;
  if (const auto k = eq::host_kernel(p, why)) {
    if (!k->cached) std::fprintf(stderr, "pdex: the text model was compiled in %.1f s; cached as %s\n", k->seconds, k->library.c_str());
    auto* fn = [&] {
      if constexpr (std::is_same_v<T, float>) return k->euler_f32;
      else return k->euler_f64;
    }();
    return [ex, fn](const eq::EulerArgs<T>& a) { for_each_row(ex, 0, a.grid.ny, [&](int j) { fn(&a, j, j + 1); }); };
  }
  static bool said = false;
  if (!std::exchange(said, true))
    std::fprintf(stderr, "pdex: note: the text model runs in the interpreter, several times slower than compiled: %s\n", why.c_str());
  return [ex, run = eq::Interpreter<T>(p)](const eq::EulerArgs<T>& a) {
    for_each_row(ex, 0, a.grid.ny, [&](int j) { eq::euler_rows(a, j, j + 1, run); });
  };
}

}  // namespace

template <class T>
TextStep<T> text_step(const Serial& ex, const eq::Program& p) {
  return host_step<T>(ex, p);
}
template <class T>
TextStep<T> text_step(const OpenMP& ex, const eq::Program& p) {
  return host_step<T>(ex, p);
}

template std::unique_ptr<Stepper> make_equations_stepper_on<Serial>(const Serial&, const EquationsSpec&, Precision);
template std::unique_ptr<Stepper> make_equations_stepper_on<OpenMP>(const OpenMP&, const EquationsSpec&, Precision);

}  // namespace pdex
