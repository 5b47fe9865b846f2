#pragma once
// What every time scheme of the advection-reaction-diffusion engine shares: parameter upload, the state
// on the backend and the Stepper read-outs. Included by the scheme headers of one executor's TU.
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "pdex/core/error.hpp"
#include "pdex/grid/field.hpp"
#include "pdex/grid/field_reductions.hpp"
#include "pdex/grid/fill_ghosts.hpp"
#include "pdex/models/ard/ard_rhs.hpp"
#include "pdex/models/ard/ard_spec.hpp"
#include "pdex/models/ard/reactions.hpp"
#include "pdex/time/stepper.hpp"
#include "pdex/time/field_stats.hpp"
#include "pdex/time/save_copy.hpp"

namespace pdex::ard_detail {

constexpr int ghost_width = ard_ghost_width;

// Uploads per-cell parameters into fields of the state's layout (its ghost width too), and keeps them alive.
template <class Exec, class T>
class ParamStore {
 public:
  ParamStore(const Grid2& g, const Members& members, HaloExchange* halo, int ghost)
      : grid_(g), members_(members), halo_(halo), ghost_(ghost) {}

  // Ghosts of parameter fields follow the state's sides: periodic stays periodic, every other side
  // mirrors evenly (or oddly, for the off-diagonal tensor entry, so that no flux crosses a zero-flux side).
  Param<T> upload(const ScalarSpec& s, const FieldBoundary& state_bc, bool odd = false) {
    if (s.varies()) return Param<T>{T(0), upload_cells(s.cells, state_bc, odd), 1};
    if (Exec::space == MemorySpace::device) return Param<T>{T(s.value), nullptr, 0};
    if (n_constants_ == constants_.size()) throw Error("internal: too many constant parameters");
    constants_.data()[n_constants_] = T(s.value);
    return Param<T>{T(s.value), constants_.data() + n_constants_++, 0};
  }

  // The tensor shape M as one field: xx, xy, yy, and on a 3D grid xz, yz, zz.
  FieldView<const T> upload_tensor(const ArdSpec& spec) {
    const int n = grid_.is_3d() ? 6 : 3;
    Field<T> host(grid_, n, ghost_, MemorySpace::host);
    const ScalarSpec* parts[6] = {&spec.mxx, &spec.mxy, &spec.myy, &spec.mxz, &spec.myz, &spec.mzz};
    for (int c = 0; c < n; ++c) host.set_interior(c, cells_of(*parts[c]));
    fill_ghosts(Serial{}, host, tensor_boundary(spec.bc, n), members_);
    keep(std::move(host), tensor_boundary(spec.bc, n));
    return fields_.back().cview();
  }

 private:
  std::vector<T> cells_of(const ScalarSpec& s) const {
    if (s.varies()) return std::vector<T>(s.cells.begin(), s.cells.end());
    return std::vector<T>(std::size_t(grid_.cells()), T(s.value));
  }
  const T* upload_cells(const std::vector<double>& cells, const FieldBoundary& state_bc, bool odd) {
    Field<T> host(grid_, 1, ghost_, MemorySpace::host);
    host.set_interior(0, cells);
    const FieldBoundary bc = coefficient_boundary(state_bc, 1, odd ? 0 : -1);
    fill_ghosts(Serial{}, host, bc, members_);
    return keep(std::move(host), bc);
  }
  // A block's coefficients are read beyond its shared sides too (a tensor's faces): their ghosts come
  // from the neighbours, once.
  const T* keep(Field<T>&& host, const FieldBoundary& bc) {
    exchange_halo(halo_, host.view(), bc, MemorySpace::host);
    fields_.push_back(to_space(host, Exec::space));
    return fields_.back().cview().data;
  }

  Grid2 grid_;
  Members members_;
  HaloExchange* halo_;
  int ghost_;
  std::vector<Field<T>> fields_;
  // Host executors read constants through a stride-0 pointer (see Param); the storage never moves.
  Buffer<T> constants_{64, MemorySpace::host};
  std::size_t n_constants_ = 0;
};

inline bool all_periodic(const FieldBoundary& bc, int ncomp) {
  for (const auto& side : bc.side)
    for (int c = 0; c < ncomp; ++c)
      if (side[c].kind != BcKind::periodic) return false;
  return true;
}

// What every scheme of the model shares: parameters on the backend, the state with its ghosts, and the
// read-outs of the Stepper interface (or of a richer one, MolStepper). A scheme adds advance().
template <class Exec, class T, class Rhs, class Interface = Stepper>
class ArdBase : public Interface {
 public:
  // `ghost`: the ring of the state and of the parameter fields, wider for a scheme that reads further.
  ArdBase(const Exec& ex, const ArdSpec& spec, int ghost = ghost_width)
      : ex_(ex), bc_(spec.bc), dt_(T(spec.dt)), members_(spec.members),
        params_(spec.grid, spec.members, spec.halo, ghost) {
    const Grid2& g = spec.grid;
    if (int(spec.species.size()) != Rhs::ncomp || spec.initial.size() != spec.species.size())
      throw Error("internal: model '" + spec.reaction + "' has " + std::to_string(Rhs::ncomp) + " species");
    using P = typename Rhs::param_type;
    auto param = [&](const std::string& name) { return P(params_.upload(spec.params.at(name), bc_)); };
    rhs_.reaction = make_reaction<T>(std::type_identity<typename Rhs::reaction_type>{}, param);
    const std::vector<std::string> d = diffusivity_names(spec);
    for (int c = 0; c < Rhs::ncomp; ++c) rhs_.D[c] = param(d[c]);
    rhs_.ax = P(params_.upload(spec.ax, bc_));
    rhs_.ay = P(params_.upload(spec.ay, bc_));
    rhs_.az = P(params_.upload(spec.az, bc_));
    rhs_.advection = spec.advection;
    if (spec.anisotropic) {
      FieldView<const T> m = params_.upload_tensor(spec);
      rhs_.m = m.data;
      rhs_.m_stride = m.comp_stride;
    }
    rhs_.clamp.floor = spec.clamp ? T(0) : std::numeric_limits<T>::lowest();
    Field<T> host(g, Rhs::ncomp, ghost, MemorySpace::host);
    for (int c = 0; c < Rhs::ncomp; ++c) set_interior(host, c, spec.initial[c]);
    fill_ghosts(Serial{}, host, bc_, members_);
    const FieldView<T> v = host.view();
    rhs_.h = g.is_3d() ? Spacing<T>::make(g.dx, g.dy, v.pitch, g.dz, v.plane) : Spacing<T>::make(g.dx, g.dy, v.pitch);
    state_[1] = host.like(Exec::space);
    state_[0] = into_space(std::move(host), Exec::space);
    names_ = spec.species;
    halo_ = spec.halo;
    exchange_halo(halo_, state_[0].view(), bc_, Exec::space);
  }

  const std::vector<std::string>& field_names() const override { return names_; }

  std::vector<double> values(int field) override { return interior_values(current(), field); }

  FieldStats stats(int field) override { return field_stats(ex_, current().cview(), field); }
  QuantizedField quantized(int field) override { return quantize(ex_, current(), field, frame_scratch_); }

  int64_t first_nonfinite(int field) override { return pdex::first_nonfinite(ex_, current().cview(), field); }
  bool settable(int field) const override { return field >= 0 && field < Rhs::ncomp; }
  void set_values(int field, const std::vector<double>& v) override {
    set_interior_values(current(), field, v, bc_, members_);
    exchange_halo(halo_, current().view(), bc_, Exec::space);
  }
  FieldMemory memory(int field) override { return settable(field) ? field_memory(current(), field) : FieldMemory{}; }
  void refresh_ghosts() override {
    fill_ghosts(ex_, current(), bc_, members_);
    exchange_halo(halo_, current().view(), bc_, Exec::space);
  }
  void save() override { save_copy(saved_, current()); }
  void restore() override { copy(current(), saved_); }
  double bytes_per_step() const override { return 2.0 * Rhs::ncomp * sizeof(T) * double(state_[0].grid().cells()); }

 protected:
  // The field that holds the state now; a scheme that keeps its state elsewhere says where.
  virtual Field<T>& current() { return state_[cur_]; }

  Exec ex_;
  FieldBoundary bc_;
  T dt_;
  Members members_;
  ParamStore<Exec, T> params_;
  Rhs rhs_{};
  Field<T> state_[2], saved_;
  int cur_ = 0;
  HaloExchange* halo_ = nullptr;  // a block's exchange with the other ranks' (ArdSpec::halo)
  std::vector<std::string> names_;
  Buffer<uint16_t> frame_scratch_;
};

}  // namespace pdex::ard_detail
