#pragma once
// A configuration file read, validated and resolved into everything a run needs (docs/config.md). The
// model's part is its family's (models/family.hpp); this layer reads what every run shares.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "pdex/core/executor.hpp"
#include "pdex/core/precision.hpp"
#include "pdex/io/section.hpp"
#include "pdex/models/family.hpp"

namespace pdex {

struct OutputConfig {
  std::string dir;
  int64_t every = 0;  // write every `every` steps (0: only the initial and final states)
  std::vector<std::string> formats{"png"};
  std::vector<std::string> fields;  // empty: all
  std::string colormap = "viridis";
  bool auto_range = true;
  double range_min = 0, range_max = 1;
  int scale = 1;                    // PNG pixels per cell
  double relief = 0;                // > 0: PNGs shade the field as a height field (io/shading.hpp)
  bool colorbar = false;            // PNGs carry a colour bar and the field's name
  std::vector<io::Section> sections;  // 3D grids: the PNGs drawn (output.slice, output.projection); 2D: none
  std::string movie_field;          // formats "movie": the field shown (output.movie.field)
  std::vector<std::string> movie_formats{"mp4"};
  double movie_fps = 24;
  int64_t checkpoint_steps = 0;     // output.checkpoint_every as an integer: every so many steps
  double checkpoint_time = 0;       // ... as a float: every so much simulated time (0: no checkpoints)
  int checkpoint_keep = 2;          // the newest checkpoints kept
  bool background = true;           // output.background = "auto": written while the run goes on, where memory has room
  bool checkpoints() const { return checkpoint_steps > 0 || checkpoint_time > 0; }
};

// One parameter of an ensemble and its values: [ensemble] F = [0.02, 0.03] or { from, to, count }, or
// `--param F=0.01:0.07:32` (docs/config.md, "Ensembles").
struct SweepParam {
  std::string name;  // a model parameter, model.params.<name>
  std::vector<double> values;
};

struct CliOverrides {
  std::vector<std::string> sets;  // --set key=value
  std::vector<std::string> params;  // --param NAME=lo:hi:count or NAME=v1,v2,...: an ensemble (pdex sweep)
  std::string backend, precision, out_dir;
};

struct RunConfig {
  std::string file;
  std::string model;                        // model.name
  std::shared_ptr<const ModelSetup> setup;  // the family's resolved model: fields, grid, clock, stepper
  OutputConfig output;
  Backend backend = Backend::openmp;
  Precision precision = Precision::f32;
  bool progress = true;
  nlohmann::json input;     // the file as read, after --set overrides
  nlohmann::json resolved;  // every value the run uses, defaults included (summary.json's "config")
  std::vector<SweepParam> ensemble;  // empty: one run; else every combination of the values (app/sweep.hpp)
  CliOverrides cli;         // what the command line changed (a retry reloads the file with dt changed too)
  bool retry_on_blowup = false;  // time.on_blowup = "retry": halve dt (Merson: tighten tol) and go on
  int max_retries = 3;           // time.max_retries
  bool blowup_copy = true;       // time.blowup_copy = "auto": a copy to name a blow-up's step, where memory has room
  std::vector<int> ranks;        // run.ranks: the process grid over MPI ranks, [px, py(, pz)]; empty: chosen

  const Grid2& grid() const { return setup->grid; }
  const RunClock& clock() const { return setup->clock; }
  const std::vector<std::string>& fields() const { return setup->fields; }
};

// Reads and validates `file`; throws InputError naming the file and key for any problem.
RunConfig load_run_config(const std::string& file, const CliOverrides& cli);

// Throws InputError where rc has an [ensemble]: for the surfaces that run one model.
void require_one_run(const RunConfig& rc);

// Bytes of one copy of `fields` fields of the run's grid in its precision: the state a run cannot do
// without (summary.json's memory.state_bytes).
inline double state_bytes(const RunConfig& rc, std::size_t fields) {
  return double(fields) * double(rc.grid().cells()) * (rc.precision == Precision::f32 ? 4.0 : 8.0);
}

}  // namespace pdex
