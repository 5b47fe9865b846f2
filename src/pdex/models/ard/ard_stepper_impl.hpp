#pragma once
// The templated engine behind make_ard_stepper_on(); included once per executor translation unit.
#include <limits>
#include <memory>
#include <type_traits>
#include <string>
#include <utility>
#include <vector>

#include "pdex/core/error.hpp"
#include "pdex/grid/block_step.hpp"
#include "pdex/grid/field.hpp"
#include "pdex/grid/field_reductions.hpp"
#include "pdex/grid/fill_ghosts.hpp"
#include "pdex/models/ard/ard_base.hpp"
#include "pdex/models/ard/ard_euler_plan.hpp"
#include "pdex/models/ard/ard_mol.hpp"
#include "pdex/models/ard/ard_rhs.hpp"
#include "pdex/models/ard/ard_schedules.hpp"
#include "pdex/models/ard/ard_theta.hpp"
#include "pdex/models/ard/ard_spec.hpp"
#include "pdex/models/ard/ard_stepper.hpp"
#include "pdex/models/ard/reactions.hpp"
#include "pdex/time/euler_blocked.hpp"
#include "pdex/time/euler_tiles_shape.hpp"
#include "pdex/time/forward_euler.hpp"
#include "pdex/time/schedules.hpp"
#include "pdex/time/step_loop.hpp"
#include "pdex/time/stepper.hpp"

namespace pdex::ard_detail {

// The runs that may stream (euler_plan's streams_pay): no advection, isotropic diffusion; the
// others never instantiate the streaming kernel.
template <class Rhs>
struct Unadvected : std::false_type {};
template <class T, class R, class P>
struct Unadvected<ArdRhs<T, R, Advection::none, false, P>> : std::true_type {};

// Forward Euler, seed 000 eqs. (9)-(10).
template <class Exec, class T, class Rhs>
class ArdEuler final : public ArdBase<Exec, T, Rhs> {
  using Base = ArdBase<Exec, T, Rhs>;
  using Base::bc_, Base::cur_, Base::dt_, Base::ex_, Base::members_, Base::rhs_, Base::state_;
  static constexpr bool streams =
      ArdSchedules<Exec>::euler_stream && schedules_take<Rhs> && Unadvected<Rhs>::value;

 public:
  ArdEuler(const Exec& ex, const ArdSpec& spec)
      : Base(ex, spec, ard_state_ghost(spec, Exec::space)), ensemble_(spec.members.count > 1),
        uniform_(spec.uniform_members), plan_(euler_plan<T>(spec, schedules())),
        deep_(Exec::space == MemorySpace::host ? deep_block_sides(spec) : 0u), planes_(spec.grid.is_3d()),
        strips_(!ensemble_ && !planes_ && spec.grid.cells() >= strips_min_cells) {}

  void advance(int64_t steps) override {
    if (this->halo_) return advance_block(steps);
    loop_.run(ex_, steps, cur_, [this](int64_t n) {
      int64_t k = 0;
      if constexpr (streams) {
        for (constexpr int block = EulerStream<T>::steps; plan_.kind == EulerPlan::stream && k + block <= n; k += block) {
          euler_stream(ex_, rhs_, state_[cur_].cview(), state_[1 - cur_].view(), bc_, dt_);
          cur_ = 1 - cur_;
        }
      }
      k = blocked_passes(k, n);
      if constexpr (TimeSchedules<Exec>::euler_tiles && schedules_take<Rhs>) {
        for (constexpr int block = EulerTiles<T>::steps; plan_.kind == EulerPlan::tiles && k + block <= n; k += block) {
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
  // A block of a grid split among ranks: several steps a pass where its ghost rows are that deep (one
  // exchange a pass); else a step at a time, its cells beside the shared sides first, then the halo
  // exchange, with the step's interior computed while the slabs travel (no step loop captured on the
  // device).
  void advance_block(int64_t steps) {
    int64_t k = blocked_passes(0, steps);
    const BorderSplit parts = block_parts(this->halo_, state_[0].grid().extents(), state_[0].view().ghost);
    for (; k < steps; ++k) {
      const FieldView<const T> in = state_[cur_].cview();
      const FieldView<T> out = state_[1 - cur_].view();
      step_and_exchange(this->halo_, parts, out, bc_, Exec::space, [&](const CellBox& b) { step_box(in, out, b); });
      cur_ = 1 - cur_;
    }
  }
  // Host: from step k of n, passes of several steps over cache-blocked rows while whole passes fit; a
  // block's deep ghost rows are exchanged after each. Returns the step reached.
  int64_t blocked_passes(int64_t k, int64_t n) {
    if constexpr (Exec::space == MemorySpace::host)
      for (const int block = plan_.steps_per_pass; plan_.kind == EulerPlan::rows && k + block <= n; k += block) {
        euler_blocked(ex_, rhs_, state_[cur_].cview(), state_[1 - cur_].view(), bc_, dt_, block, deep_);
        exchange_halo(this->halo_, state_[1 - cur_].view(), bc_, Exec::space);
        cur_ = 1 - cur_;
      }
    return k;
  }
  void step_box(FieldView<const T> in, FieldView<T> out, const CellBox& b) {
    if (planes_) return step_3d(in, out, b.lo, b.hi);
    euler_step_cells(ex_, rhs_, in, out, bc_, dt_, Range2{b.lo[0], b.hi[0], b.lo[1], b.hi[1]});
  }
  void step_3d(FieldView<const T> in, FieldView<T> out, const int (&lo)[3], const int (&hi)[3]) {
    const ArdRhs3D<Rhs> rhs{rhs_};
    if constexpr (TimeSchedules<Exec>::euler_strips && schedules_take<Rhs>)
      if (plan_.kind == EulerPlan::columns) return euler_columns(ex_, rhs, in, out, bc_, dt_, lo, hi);
    euler_step_3d_cells(ex_, rhs, in, out, bc_, dt_, lo, hi);
  }
  static constexpr EulerSchedules schedules() {
    if (Exec::space == MemorySpace::host) return EulerSchedules::host;
    return TimeSchedules<Exec>::euler_tiles && schedules_take<Rhs> ? EulerSchedules::device : EulerSchedules::none;
  }
  void step(FieldView<const T> in, FieldView<T> out) {
    if (ensemble_) return ensemble_step(in, out);
    if (planes_) return step_3d(in, out, {0, 0, 0}, {in.nx, in.ny, in.nz});
    if constexpr (TimeSchedules<Exec>::euler_strips && schedules_take<Rhs>)
      if (strips_) return euler_strips(ex_, rhs_, in, out, bc_, dt_);
    euler_step(ex_, rhs_, in, out, bc_, dt_);
  }
  void ensemble_step(FieldView<const T> in, FieldView<T> out) {
    if constexpr (TimeSchedules<Exec>::euler_strips && schedules_take<Rhs>) {
      return with_member_rhs(rhs_, in, members_, uniform_, [&](auto member_rhs) {
        euler_strips(ex_, rhs_, in, out, bc_, dt_, members_, member_rhs);
      });
    }
    euler_step(ex_, rhs_, in, out, bc_, dt_, members_, uniform_);
  }

  bool ensemble_ = false;  // members stacked in one field (grid/members.hpp)
  bool uniform_ = false;   // the members' parameters each one number (ArdSpec::uniform_members)
  EulerPlan plan_;       // several steps a pass where it pays (time/euler_blocked.hpp, cuda/euler_stream.cuh, euler_tiles.cuh)
  unsigned deep_ = 0;    // a block's y sides whose ghost rows hold a pass's reach (deep_block_sides)
  bool planes_ = false;  // a 3D grid: one pass a step over its planes (euler_step_3d_cells, cuda/euler_columns.cuh)
  bool strips_ = false;  // one-pass device step by strips (time/cuda/euler_strips.cuh)
  StepLoop<Exec> loop_;
};

template <class Exec, class T, class Rhs>
std::unique_ptr<Stepper> make_scheme(const Exec& ex, const ArdSpec& spec) {
  if (spec.members.count > 1 && (!spec.mol_scheme.empty() || spec.theta > 0))
    throw InputError("stacked members step by time.scheme = \"euler\"; theta, rk4 and merson members run one after another (pdex sweep)");
  if (spec.grid.is_3d() && !ard_takes_3d(spec)) throw InputError(ard_3d_limits);
  if (spec.halo && !ard_takes_blocks(spec)) throw InputError(ard_block_limits);
  if (!spec.mol_scheme.empty()) return std::make_unique<ArdMol<Exec, T, Rhs>>(ex, spec);
  if (spec.theta > 0) return std::make_unique<ArdTheta<Exec, T, Rhs>>(ex, spec);
  return std::make_unique<ArdEuler<Exec, T, Rhs>>(ex, spec);
}

inline bool all_constant(const ArdSpec& spec) {
  for (const auto& [name, p] : spec.params)
    if (p.varies()) return false;
  return !spec.ax.varies() && !spec.ay.varies();
}

// The kernels a run gets. The plain model (no advection, isotropic diffusion) has its own, each carrying
// only the terms it evaluates, and on the host, where all parameters are constant, ConstParam ones
// (constants in registers; the GPU's Param branch is warp-uniform and costs nothing there). Runs with
// advection or a tensor share kernels that read the advection scheme at run time: a third of the
// instantiations, for a branch uniform across the grid.
template <class Exec, class T, template <class, class> class R>
std::unique_ptr<Stepper> make_for(const Exec& ex, const ArdSpec& spec) {
  using P = Param<T>;
  if (spec.advection == Advection::none && !spec.anisotropic) {
    if constexpr (Exec::space == MemorySpace::host) {
      using C = ConstParam<T>;
      if (all_constant(spec)) return make_scheme<Exec, T, ArdRhs<T, R<T, C>, Advection::none, false, C>>(ex, spec);
    }
    return make_scheme<Exec, T, ArdRhs<T, R<T, P>, Advection::none, false, P>>(ex, spec);
  }
  if (spec.anisotropic) return make_scheme<Exec, T, ArdRhs<T, R<T, P>, Advection::runtime, true, P>>(ex, spec);
  return make_scheme<Exec, T, ArdRhs<T, R<T, P>, Advection::runtime, false, P>>(ex, spec);
}

template <class Exec, class T>
std::unique_ptr<Stepper> make_typed(const Exec& ex, const ArdSpec& spec) {
#define PDEX_MAKE_FOR(name, R) \
  if (spec.reaction == name) return make_for<Exec, T, R>(ex, spec);
  PDEX_ARD_KINETICS(PDEX_MAKE_FOR)
#undef PDEX_MAKE_FOR
  throw InputError("unknown reaction '" + spec.reaction + "'");
}

}  // namespace pdex::ard_detail

namespace pdex {

template <class Exec>
std::unique_ptr<Stepper> make_ard_stepper_on(const Exec& ex, const ArdSpec& spec, Precision precision) {
  if (precision == Precision::f32) return ard_detail::make_typed<Exec, float>(ex, spec);
  return ard_detail::make_typed<Exec, double>(ex, spec);
}

}  // namespace pdex
