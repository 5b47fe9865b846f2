#pragma once
// The templated engine behind make_ard_stepper_on(); included once per executor translation unit.
#include <limits>
#include <memory>
#include <type_traits>
#include <string>
#include <utility>
#include <vector>

#include "pdex/core/error.hpp"
#include "pdex/grid/field.hpp"
#include "pdex/grid/field_reductions.hpp"
#include "pdex/grid/fill_ghosts.hpp"
#include "pdex/models/ard/ard_base.hpp"
#include "pdex/models/ard/ard_mol.hpp"
#include "pdex/models/ard/ard_rhs.hpp"
#include "pdex/models/ard/ard_theta.hpp"
#include "pdex/models/ard/ard_spec.hpp"
#include "pdex/models/ard/ard_stepper.hpp"
#include "pdex/models/ard/reactions.hpp"
#include "pdex/time/euler_tiles_shape.hpp"
#include "pdex/time/forward_euler.hpp"
#include "pdex/time/step_loop.hpp"
#include "pdex/time/stepper.hpp"

namespace pdex::ard_detail {

// Forward Euler, seed 000 eqs. (9)-(10).
template <class Exec, class T, class Rhs>
class ArdEuler final : public ArdBase<Exec, T, Rhs> {
  using Base = ArdBase<Exec, T, Rhs>;
  using Base::bc_, Base::cur_, Base::dt_, Base::ex_, Base::rhs_, Base::state_;

 public:
  ArdEuler(const Exec& ex, const ArdSpec& spec)
      : Base(ex, spec),
        tiled_(spec.temporal_blocking && all_periodic(spec.bc, Rhs::ncomp) && spec.grid.cells() <= temporal_blocking_max_cells),
        strips_(spec.grid.cells() >= strips_min_cells) {}

  void advance(int64_t steps) override {
    loop_.run(ex_, steps, cur_, [this](int64_t n) {
      int64_t k = 0;
      if constexpr (Exec::backend == Backend::cuda && !Rhs::tensor && Rhs::ncomp == 2) {
        for (constexpr int block = EulerTiles<T>::steps; tiled_ && k + block <= n; k += block) {
          euler_tiles(ex_, rhs_, state_[cur_].cview(), state_[1 - cur_].view(), bc_, dt_);
          cur_ = 1 - cur_;
        }
      }
      for (; k < n; ++k) {
        step(state_[cur_].cview(), state_[1 - cur_].view());
        cur_ = 1 - cur_;
      }
    });
  }

 private:
  void step(FieldView<const T> in, FieldView<T> out) {
    if constexpr (Exec::backend == Backend::cuda && !Rhs::tensor && Rhs::ncomp == 2)
      if (strips_) return euler_strips(ex_, rhs_, in, out, bc_, dt_);
    euler_step(ex_, rhs_, in, out, bc_, dt_);
  }

  bool tiled_ = false;   // temporally blocked CUDA schedule (time/cuda/euler_tiles.cuh)
  bool strips_ = false;  // one-pass CUDA step by strips (time/cuda/euler_strips.cuh)
  StepLoop<Exec> loop_;
};

// The advection scheme and the tensor are compile-time choices, so that each kernel carries only the
// work it needs and host loops stay branch-free.
template <class Exec, class T, class P, class Reaction>
std::unique_ptr<Stepper> make_with(const Exec& ex, const ArdSpec& spec) {
  auto make = [&]<Advection A, bool Tensor>() -> std::unique_ptr<Stepper> {
    using Rhs = ArdRhs<T, Reaction, A, Tensor, P>;
    if (!spec.mol_scheme.empty()) return std::make_unique<ArdMol<Exec, T, Rhs>>(ex, spec);
    if (spec.theta > 0) {
      if constexpr (Rhs::ncomp <= max_solver_components) return std::make_unique<ArdTheta<Exec, T, Rhs>>(ex, spec);
      throw InputError("model '" + spec.reaction + "': the theta scheme solves at most " +
                       std::to_string(max_solver_components) + " species; use time.scheme \"euler\", \"rk4\" or \"merson\"");
    }
    return std::make_unique<ArdEuler<Exec, T, Rhs>>(ex, spec);
  };
  auto with_tensor = [&]<Advection A>() {
    return spec.anisotropic ? make.template operator()<A, true>() : make.template operator()<A, false>();
  };
  switch (spec.advection) {
    case Advection::none: return with_tensor.template operator()<Advection::none>();
    case Advection::centered: return with_tensor.template operator()<Advection::centered>();
    case Advection::upwind: return with_tensor.template operator()<Advection::upwind>();
  }
  throw Error("internal: unknown advection scheme");
}

inline bool all_constant(const ArdSpec& spec) {
  for (const auto& [name, p] : spec.params)
    if (p.varies()) return false;
  return !spec.ax.varies() && !spec.ay.varies();
}

// On the host, runs whose parameters are all constant get ConstParam kernels (constants in registers);
// the GPU always uses Param, whose warp-uniform branch costs nothing there.
template <class Exec, class T, template <class, class> class R>
std::unique_ptr<Stepper> make_for(const Exec& ex, const ArdSpec& spec) {
  if constexpr (Exec::space == MemorySpace::host)
    if (all_constant(spec)) return make_with<Exec, T, ConstParam<T>, R<T, ConstParam<T>>>(ex, spec);
  return make_with<Exec, T, Param<T>, R<T, Param<T>>>(ex, spec);
}

template <class Exec, class T>
std::unique_ptr<Stepper> make_typed(const Exec& ex, const ArdSpec& spec) {
  const std::string& r = spec.reaction;
  if (r == "turing") return make_for<Exec, T, Turing>(ex, spec);
  if (r == "gray_scott") return make_for<Exec, T, GrayScott>(ex, spec);
  if (r == "fitzhugh_nagumo") return make_for<Exec, T, FitzHughNagumo>(ex, spec);
  if (r == "brusselator") return make_for<Exec, T, Brusselator>(ex, spec);
  if (r == "schnakenberg") return make_for<Exec, T, Schnakenberg>(ex, spec);
  if (r == "fisher_kpp") return make_for<Exec, T, FisherKpp>(ex, spec);
  if (r == "may_leonard") return make_for<Exec, T, MayLeonard>(ex, spec);
  if (r == "cyclic_competition_4") return make_for<Exec, T, CyclicCompetition4>(ex, spec);
  throw InputError("unknown reaction '" + r + "'");
}

}  // namespace pdex::ard_detail

namespace pdex {

template <class Exec>
std::unique_ptr<Stepper> make_ard_stepper_on(const Exec& ex, const ArdSpec& spec, Precision precision) {
  if (precision == Precision::f32) return ard_detail::make_typed<Exec, float>(ex, spec);
  return ard_detail::make_typed<Exec, double>(ex, spec);
}

}  // namespace pdex
