#pragma once
// A model family describes itself (DESIGN principle 10): its models with their fields and parameters,
// how it reads its part of a configuration, its stable-step rule and its stepper. The application,
// `pdex list` (and `--json`), and later the explorer and the Python package read these descriptors;
// none of them names a family. docs/models.md, "Adding a model family", walks through one.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "pdex/core/error.hpp"
#include "pdex/core/executor.hpp"
#include "pdex/core/precision.hpp"
#include "pdex/grid/grid.hpp"
#include "pdex/grid/members.hpp"
#include "pdex/models/param_desc.hpp"
#include "pdex/time/run_clock.hpp"
#include "pdex/time/stable_step.hpp"
#include "pdex/time/stepper.hpp"

namespace pdex {

class ConfigReader;
class HaloExchange;
struct Block;
struct ProcessGrid;

// One value of model.name.
struct ModelDesc {
  std::string name;
  std::string title;                 // one line, with the seed or the paper it comes from
  std::string equations;             // as text
  std::vector<std::string> fields;   // the solution's fields, in output order
  std::vector<ParamDesc> params;
  std::vector<std::string> schemes;  // the values of time.scheme it takes, the default first
  std::vector<std::string> notes;    // further keys and conventions, a line each
  std::vector<std::string> examples; // files under examples/
};

// A stable-step rule's verdict for a run (the driver refuses dt > dt_max unless time.force; where the
// rule is an estimate, it warns).
struct StabilityRule {
  StableStep step;
  std::string scheme_label;  // "forward-Euler", "explicit", "rk4": named in the refusal
  nlohmann::json extra;      // the rule's own terms, for summary.json's "stability"
  std::string note;          // printed before the run when not empty
  bool estimate = false;     // dt_max is estimated, not known: a larger dt is warned about, not refused
};

// The stepper of an ensemble and how its fields stack the members (grid/members.hpp): its values() are
// those of the stacked grid.
struct EnsembleStepper {
  std::unique_ptr<Stepper> stepper;
  Members members;
};

// A model as one configuration resolved it: what the driver needs, the family's own data behind it.
class ModelSetup {
 public:
  virtual ~ModelSetup() = default;
  std::vector<std::string> fields;
  Grid2 grid;
  RunClock clock;
  // The rule for this run's scheme; nullopt where none applies (implicit, steady, step control).
  virtual std::optional<StabilityRule> stability() const = 0;
  // Throws BackendUnavailable for a backend this build or machine lacks. A MolStepper by simulated time.
  virtual std::unique_ptr<Stepper> make_stepper(Backend backend, Precision precision) const = 0;
  // The runs of `members` (this family's setups of one configuration with other parameter values, this
  // one among them) stacked in one field and advanced together, one launch a step, each member with the
  // values its run alone gives. Throws InputError where the family or the scheme runs none.
  virtual EnsembleStepper make_ensemble(const std::vector<const ModelSetup*>& members, Backend backend,
                                        Precision precision) const {
    (void)members, (void)backend, (void)precision;
    throw InputError("this model's members do not stack in one field: they run one after another (pdex sweep; stacked: "
                     "the advection-reaction-diffusion models, time.scheme = \"euler\", 2D grids)");
  }
  // This run's block b of the process grid pg (grid/blocks.hpp), its shared sides' ghosts filled by
  // `halo`: a setup whose stepper advances the block's cells as this run advances them, bit for bit.
  // Throws InputError where the family or its scheme does not run over MPI ranks.
  virtual std::unique_ptr<ModelSetup> block(const ProcessGrid& pg, const Block& b, HaloExchange& halo) const {
    (void)pg, (void)b, (void)halo;
    throw InputError("this model's family does not split its grid into blocks, so it does not run over MPI ranks "
                     "(docs/parallel.md lists those that do): run it with one process");
  }
  // Why an ensemble of this run's members runs them one after another (each a run of its own) rather
  // than stacked by make_ensemble; empty where they stack.
  virtual std::string members_in_turn() const { return "the family steps one run at a time"; }
  // The family's sections of summary.json's "config" (model, time, solver, initial, grid.boundary, ...),
  // every value the run uses, defaults included; merged over the driver's grid, output and run sections.
  virtual nlohmann::json resolved() const = 0;
  // The parameters given per cell (row-major [y][x] values by name), which field files (VTK) carry
  // beside the solution; empty where the family has none.
  virtual std::vector<std::pair<std::string, std::vector<double>>> varying_params() const { return {}; }
  // How the run steps on `backend` where the family chooses among schedules (summary.json's "schedule":
  // its name and steps a pass); null elsewhere.
  virtual nlohmann::json schedule(Backend backend, Precision precision) const {
    (void)backend, (void)precision;
    return nullptr;
  }
  // The source compiled at run time for this model (a text model's) in `precision`, for `pdex run
  // --emit-source`; empty where the model's kernels are built in.
  virtual std::string generated_source(Precision precision) const {
    (void)precision;
    return {};
  }
};

// A family's setup that keeps its plain-data specification (what its stepper factory takes).
template <class Spec>
class SpecSetup : public ModelSetup {
 public:
  Spec spec;
};

// The spec behind a setup; throws Error when the setup belongs to another family.
template <class Spec>
const Spec& spec_of(const ModelSetup& setup) {
  const auto* s = dynamic_cast<const SpecSetup<Spec>*>(&setup);
  if (!s) throw Error("internal: the model's setup holds another family's specification");
  return s->spec;
}

// What a family's reader is handed: the configuration, the model's name, the grid as [grid] gives it
// (a family may change its defaults, e.g. the unit square), and where relative file names start.
struct ModelContext {
  ConfigReader& cfg;
  const ModelDesc& model;
  Grid2 grid;
  std::string base_dir;
  Precision precision;
};

struct ModelFamily {
  std::string name;   // e.g. "advection_reaction_diffusion"
  std::string title;  // one line for `pdex list`
  std::vector<ModelDesc> models;
  // Reads [model], [time], [solver], [initial] and grid.boundary for one of `models`; throws InputError
  // naming the file and key.
  std::function<std::unique_ptr<ModelSetup>(ModelContext&)> read;
  bool three_d = false;  // takes 3D grids (grid.nz > 1)
};

// Adds a family (the built-in ones are registered on first use). Throws Error when one of its model
// names is taken already.
void register_family(ModelFamily family);
const std::vector<ModelFamily>& model_families();
// The family and model of a model.name; throws InputError listing the known names.
std::pair<const ModelFamily*, const ModelDesc*> find_model(const std::string& name);

// The descriptors as `pdex list --json` prints them.
nlohmann::json families_json();

}  // namespace pdex
