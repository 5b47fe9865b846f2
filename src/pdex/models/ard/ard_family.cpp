// The advection-reaction-diffusion family: the species and kinetics of ard_catalog() (two, u and v, in
// seed 000), by forward Euler, the theta scheme (seed 000 eqs. 9-14), or the method of lines (rk4, Merson).
#include <cmath>
#include <limits>

#include "pdex/config/grid_config.hpp"
#include "pdex/grid/blocks.hpp"
#include "pdex/core/format.hpp"
#include "pdex/config/solver_config.hpp"
#include "pdex/config/time_config.hpp"
#include "pdex/linalg/helmholtz.hpp"
#include "pdex/models/ard/ard_catalog.hpp"
#include "pdex/models/ard/ard_config.hpp"
#include "pdex/models/ard/ard_euler_plan.hpp"
#include "pdex/models/ard/ard_stability.hpp"
#include "pdex/models/ard/ard_stepper.hpp"
#include "pdex/models/builtin_families.hpp"

namespace pdex {

namespace {

class ArdSetup : public SpecSetup<ArdSpec> {
 public:
  std::optional<StabilityRule> stability() const override {
    if (clock.scheme == "merson") return std::nullopt;  // Merson's error control finds its own steps
    const StableStep euler = ard_stable_step(spec);
    if (clock.scheme != "rk4") return StabilityRule{euler, "forward-Euler", {}, {}};
    // Classic RK4 is stable on the negative real axis to 2.785 / dt, forward Euler to 2 / dt.
    return StabilityRule{{euler.dt_max * (2.785 / 2), euler.reason + ", times 1.39 for rk4"}, "rk4", {}, {}};
  }
  std::unique_ptr<Stepper> make_stepper(Backend backend, Precision precision) const override {
    return make_ard_stepper(spec, backend, precision);
  }
  EnsembleStepper make_ensemble(const std::vector<const ModelSetup*>& members, Backend backend,
                                Precision precision) const override {
    std::vector<const ArdSpec*> specs;
    for (const ModelSetup* m : members) specs.push_back(&spec_of<ArdSpec>(*m));
    const ArdSpec stacked = stack_members(specs);
    return {make_ard_stepper(stacked, backend, precision), stacked.members};
  }
  std::unique_ptr<ModelSetup> block(const ProcessGrid& pg, const Block& b, HaloExchange& halo) const override;
  std::string members_in_turn() const override {
    if (spec.grid.is_3d()) return "a 3D grid (members stack on 2D grids)";
    if (clock.scheme != "euler") return "time.scheme = \"" + clock.scheme + "\" (stacked members step by forward Euler)";
    return {};
  }
  nlohmann::json resolved() const override;
  // Forward Euler's schedule (ArdEuler takes the same plan); the other schemes have one each.
  nlohmann::json schedule(Backend backend, Precision precision) const override {
    if (clock.scheme != "euler") return nullptr;
    const bool host = backend == Backend::serial || backend == Backend::openmp;
    const bool device = has_euler_schedules(backend) && !spec.anisotropic && spec.species.size() == 2;
    const EulerSchedules where = host ? EulerSchedules::host : device ? EulerSchedules::device : EulerSchedules::none;
    const EulerPlan p = precision == Precision::f32 ? euler_plan<float>(spec, where) : euler_plan<double>(spec, where);
    return {{"name", p.name()}, {"steps_per_pass", p.steps_per_pass}};
  }
  std::vector<std::pair<std::string, std::vector<double>>> varying_params() const override {
    std::vector<std::pair<std::string, std::vector<double>>> out;
    for (const auto& [name, p] : spec.params)
      if (p.varies()) out.emplace_back(name, p.cells);
    return out;
  }
};

std::unique_ptr<ModelSetup> ArdSetup::block(const ProcessGrid& pg, const Block& b, HaloExchange& halo) const {
  if (!ard_takes_blocks(spec)) throw InputError(ard_block_limits);
  auto out = std::make_unique<ArdSetup>(*this);
  ArdSpec& s = out->spec;
  const Extents2 whole = spec.grid.extents();
  s.grid = out->grid = block_grid(spec.grid, b);
  s.bc = block_boundary(spec.bc, pg, b, int(s.species.size()));
  for (CellSource& cells : s.initial) cells = cells.block(whole, b);
  const auto cut = [&](ScalarSpec& p) {
    if (p.varies()) p.cells = block_values(p.cells, whole, b);
  };
  for (ScalarSpec* p : {&s.ax, &s.ay, &s.az, &s.mxx, &s.mxy, &s.myy, &s.mxz, &s.myz, &s.mzz}) cut(*p);
  for (auto& entry : s.params) cut(entry.second);
  s.halo = &halo;
  return out;
}

nlohmann::json ArdSetup::resolved() const {
  const ArdSpec& s = spec;
  const char* adv[3] = {"none", "centered", "upwind"};
  nlohmann::json params;
  for (const auto& [name, p] : s.params) params[name] = spec_json(p);
  nlohmann::json model = {{"name", s.reaction}, {"params", params}, {"clamp", s.clamp},
                          {"advection", {{"scheme", adv[int(s.advection)]}, {"x", spec_json(s.ax)}, {"y", spec_json(s.ay)}}},
                          {"diffusion", {{"kind", s.anisotropic ? "tensor" : "isotropic"}}}};
  if (s.grid.is_3d()) model["advection"]["z"] = spec_json(s.az);
  if (s.anisotropic)
    model["diffusion"].update({{"xx", spec_json(s.mxx)}, {"xy", spec_json(s.mxy)}, {"yy", spec_json(s.myy)}});
  if (s.anisotropic && s.grid.is_3d())
    model["diffusion"].update({{"xz", spec_json(s.mxz)}, {"yz", spec_json(s.myz)}, {"zz", spec_json(s.mzz)}});
  nlohmann::json j = clock_json(clock), run = {{"temporal_blocking", s.temporal_blocking}};
  if (s.steps_per_pass > 0) run["steps_per_pass"] = s.steps_per_pass;
  if (!clock.simulated_time) j["time"]["theta"] = s.theta;
  j.update({{"model", model},
            {"grid", {{"boundary", boundary_json(s.bc, s.species, {}, s.grid.is_3d())}}},
            {"run", run},
            {"solver", s.theta > 0 ? solver_json(s.solver) : nlohmann::json()},
            {"initial", nlohmann::json::object()}});
  for (std::size_t c = 0; c < s.species.size(); ++c) j["initial"][s.species[c]] = source_json(s.initial[c], s.grid.cells());
  return j;
}

// model.params: only the reaction's names, each a number, noise or a file.
void read_params(ModelContext& m, const ReactionInfo& info, SpecContext& ctx, ArdSpec& s) {
  ConfigReader& cfg = m.cfg;
  if (const toml::node* p = cfg.find("model.params"); p && p->is_table())
    for (const auto& [k, v] : *p->as_table()) {
      bool known = false;
      for (const auto& pi : info.params) known |= pi.name == k.str();
      if (!known) {
        std::string names;
        for (const auto& pi : info.params) names += (names.empty() ? "" : ", ") + pi.name;
        cfg.fail("model.params." + std::string(k.str()), "model '" + info.name + "' has no such parameter; it has " + names);
      }
    }
  for (const auto& pi : info.params) s.params[pi.name] = read_scalar(ctx, "model.params." + pi.name, pi.default_value);
  for (const std::string& d : diffusivity_names(s))
    if (s.params[d].min_value() < 0) cfg.fail("model.params." + d, "a diffusivity must be non-negative");
}

// time.scheme = "euler" | "theta" (with [solver]), or the method of lines: "rk4" | "merson".
RunClock read_clock(ConfigReader& cfg, ArdSpec& s) {
  ThetaScheme t;
  RunClock c = read_scheme_clock(cfg, t, [&] { return ard_stable_step(s).dt_max; });
  if (c.simulated_time) {
    s.mol_scheme = c.scheme;
    s.tol = c.tol;
  }
  s.theta = t.theta;
  if (t.theta > 0) s.solver = t.solver;
  s.dt = c.dt;
  return c;
}

std::unique_ptr<ModelSetup> read_ard(ModelContext& m) {
  ConfigReader& cfg = m.cfg;
  const ReactionInfo& info = ard_reaction(m.model.name);
  auto setup = std::make_unique<ArdSetup>();
  ArdSpec& s = setup->spec;
  s.grid = m.grid;
  s.species = info.species;
  s.bc = read_boundary(cfg, s.species);
  s.reaction = info.name;
  s.clamp = cfg.get_bool("model.clamp", info.clamp);
  s.temporal_blocking = cfg.get_bool("run.temporal_blocking", true);
  SpecContext ctx{cfg, s.grid, m.base_dir};
  read_params(m, info, ctx, s);
  read_advection(ctx, s);
  read_diffusion(ctx, s);
  s.initial.clear();
  for (std::size_t c = 0; c < s.species.size(); ++c)
    s.initial.push_back(read_source(ctx, "initial." + s.species[c], info.initial[c]));
  setup->clock = read_clock(cfg, s);  // after the model: Merson's first step comes from its stable step
  s.steps_per_pass = read_steps_per_pass(cfg, s.temporal_blocking, setup->clock.scheme);
  setup->fields = s.species;
  setup->grid = s.grid;
  return setup;
}

std::vector<std::string> examples_of(const std::string& name) {
  if (name == "turing")
    return {"turing_spots.toml", "turing_spots_cn.toml", "turing_spots_demo.toml", "turing_stripes.toml",
            "anisotropic.toml", "anisotropic_cn.toml", "turing_spots_3d.toml", "turing_rods_3d_cn.toml"};
  if (name == "gray_scott")
    return {"gray_scott_spots.toml", "gray_scott_stripes.toml", "gray_scott_waves.toml", "advection_steered.toml",
            "gray_scott_pearson_map.toml", "gray_scott_3d.toml"};
  if (name == "fitzhugh_nagumo") return {"fitzhugh_nagumo_spiral.toml", "fitzhugh_nagumo_scroll.toml"};
  if (name == "may_leonard") return {"may_leonard_spirals.toml"};
  if (name == "fisher_kpp" || name == "cyclic_competition_4") return {};
  return {name + ".toml"};
}

}  // namespace

ModelFamily ard_family() {
  ModelFamily f{"advection_reaction_diffusion",
                "u_t + (a.grad)u = f(u) + div(Du M grad u) for each species u (seed 000: two, u and v)", {}, read_ard};
  f.three_d = true;
  for (const ReactionInfo& r : ard_catalog()) {
    std::string initial;
    for (std::size_t c = 0; c < r.species.size(); ++c)
      initial += (c ? ", " : "") + r.species[c] + " = " + format_number(r.initial[c]);
    const std::vector<std::string> schemes{"euler", "theta", "rk4", "merson"};
    std::string text = cat({"as text: model.name = \"equations\", model.preset = \"", r.name, "\""});
    for (std::size_t c = 0; c < r.species.size(); ++c) text += cat({c ? "; " : ": ", r.species[c], "_t = ", r.text[c]});
    f.models.push_back(ModelDesc{
        r.name, r.title, r.equations, r.species, r.params, schemes,
        {"initial " + initial + "; model.clamp = " + (r.clamp ? "true" : "false") +
             " (true: every species kept >= 0); suggested time.dt = " + format_number(r.dt) + " at dx = 1",
         "model.advection: scheme = none | centered (seed 000 eq. 8) | upwind; velocity = [ax, ay] ([ax, ay, az] in 3D) | "
         "preset = rotation | shear | vortex (strength, center, radius; about the z axis in 3D) | x, y (z) fields",
         "model.diffusion: kind = isotropic (eq. 7) | tensor (xx, xy, yy | file | preset = \"along_flow\", ratio)", text},
        examples_of(r.name)});
  }
  return f;
}

}  // namespace pdex
