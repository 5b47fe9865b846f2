#include "pdex/app/run_config.hpp"

#include <toml++/toml.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>

#include "pdex/app/sweep.hpp"
#include "pdex/config/config_reader.hpp"
#include "pdex/config/grid_config.hpp"
#include "pdex/core/error.hpp"
#include "pdex/io/colormap.hpp"

namespace pdex {

namespace {

std::string quoted_list(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t k = 0; k < names.size(); ++k)
    out += (k == 0 ? "" : k + 1 == names.size() ? " and " : ", ") + ("\"" + names[k] + "\"");
  return out;
}

// [output.movie]: which field, in which formats, at how many frames a second.
void read_movie(ConfigReader& cfg, OutputConfig& o) {
  const bool wanted = std::find(o.formats.begin(), o.formats.end(), "movie") != o.formats.end();
  if (!wanted && cfg.find("output.movie")) cfg.fail("output.movie", "add \"movie\" to output.formats to write a movie");
  if (!wanted || o.fields.empty()) return;
  o.movie_field = cfg.get_string("output.movie.field", o.fields.front());
  if (std::find(o.fields.begin(), o.fields.end(), o.movie_field) == o.fields.end())
    cfg.fail("output.movie.field", "'" + o.movie_field + "' is not among output.fields (" + quoted_list(o.fields) + ")");
  o.movie_formats = cfg.get_strings("output.movie.formats", {"mp4"});
  for (const auto& f : o.movie_formats)
    if (f != "mp4" && f != "gif") cfg.fail("output.movie.formats", "unknown movie format '" + f + "'; expected \"mp4\" and/or \"gif\"");
  o.movie_fps = cfg.get_double("output.movie.fps", 24.0);
  if (!(o.movie_fps > 0 && o.movie_fps <= 240)) cfg.fail("output.movie.fps", "expected frames a second in (0, 240]");
}

// output.checkpoint_every: an integer counts steps, a float simulated time.
void read_checkpoints(ConfigReader& cfg, OutputConfig& o) {
  const char* every = "output.checkpoint_every";
  const std::string expected = "expected a positive number of steps (an integer, e.g. 1000) or of simulated time (a float, e.g. 2.5)";
  if (const toml::node* c = cfg.find(every); c && c->is_integer()) {
    o.checkpoint_steps = cfg.get_int(every);
    if (o.checkpoint_steps <= 0) cfg.fail(every, expected);
  } else if (c) {
    o.checkpoint_time = cfg.get_double(every);
    if (!(o.checkpoint_time > 0)) cfg.fail(every, expected);
  }
  o.checkpoint_keep = int(cfg.get_int("output.checkpoint_keep", 2));
  if (o.checkpoint_keep < 1) cfg.fail("output.checkpoint_keep", "expected at least 1 (the newest checkpoints kept)");
}

// output.slice: { axis = "x" | "y" | "z", index = n } or an array of them; output.projection = "max" adds
// the largest value along z. 3D grids only; their default is the middle plane across z.
std::vector<io::Section> read_sections(ConfigReader& cfg, const Grid2& g) {
  const toml::node* slice = cfg.find("output.slice");
  const bool projection = cfg.get_choice("output.projection", {"none", "max"}, "none") == "max";
  if (!g.is_3d()) {
    if (slice || projection) cfg.fail(slice ? "output.slice" : "output.projection", "sections are pictures of 3D grids; set grid.nz > 1");
    return {};
  }
  std::vector<io::Section> out;
  auto read_one = [&](const std::string& p) {
    const std::string axis = cfg.get_choice(p + ".axis", {"x", "y", "z"});
    const int extent = axis == "x" ? g.nx : axis == "y" ? g.ny : g.nz;
    const int64_t index = cfg.get_int(p + ".index", extent / 2);
    if (index < 0 || index >= extent)
      cfg.fail(p + ".index", "expected a plane index from 0 to " + std::to_string(extent - 1) + " across " + axis);
    out.push_back(io::Section{axis[0], int(index)});
  };
  if (slice && slice->is_array())
    for (std::size_t k = 0; k < slice->as_array()->size(); ++k) read_one("output.slice." + std::to_string(k));
  else if (slice)
    read_one("output.slice");
  else if (!projection)
    out.push_back(io::Section{'z', g.nz / 2});
  if (projection) out.push_back(io::Section{'z', 0, true});
  return out;
}

void read_output(ConfigReader& cfg, RunConfig& rc, const CliOverrides& cli) {
  OutputConfig& o = rc.output;
  o.dir = cli.out_dir.empty() ? cfg.get_string("output.dir", "out/" + rc.model) : cli.out_dir;
  if (!cli.out_dir.empty()) cfg.find("output.dir");
  o.every = cfg.get_int("output.every", 0);
  if (o.every < 0) cfg.fail("output.every", "expected a non-negative number of steps (0: initial and final only)");
  if (o.every > 0 && rc.clock().simulated_time)
    cfg.fail("output.every", "scheme '" + rc.clock().scheme + "' runs write at simulated times: use output.times");
  o.formats = cfg.get_strings("output.formats", {"png"});
  const std::vector<std::string> formats{"png", "npy", "vtk", "hdf5", "movie"};
  for (const auto& f : o.formats)
    if (std::find(formats.begin(), formats.end(), f) == formats.end())
      cfg.fail("output.formats", "unknown format '" + f + "'; expected any of " + quoted_list(formats));
  o.sections = read_sections(cfg, rc.grid());
  o.fields = cfg.get_strings("output.fields", rc.fields());
  for (const auto& f : o.fields)
    if (std::find(rc.fields().begin(), rc.fields().end(), f) == rc.fields().end())
      cfg.fail("output.fields", "unknown field '" + f + "'; this model has " + quoted_list(rc.fields()));
  o.colorbar = cfg.get_bool("output.colorbar", false);
  read_movie(cfg, o);
  o.colormap = cfg.get_string("output.colormap", "viridis");
  try {
    io::parse_colormap(o.colormap);
  } catch (const InputError& e) {
    cfg.fail("output.colormap", e.what());
  }
  if (const toml::node* r = cfg.find("output.range"); r && !r->is_string()) {
    auto mm = cfg.get_doubles("output.range", 2);
    if (!(mm[0] < mm[1])) cfg.fail("output.range", "expected [min, max] with min < max");
    o.auto_range = false, o.range_min = mm[0], o.range_max = mm[1];
  } else if (r) {
    cfg.get_choice("output.range", {"auto"});
  }
  o.scale = int(cfg.get_int("output.scale", 1));
  if (o.scale < 1 || o.scale > 16) cfg.fail("output.scale", "expected an integer from 1 to 16");
  o.background = cfg.get_choice("output.background", {"auto", "never"}, "auto") == "auto";
  o.relief = cfg.get_double("output.relief", 0.0);
  if (!(o.relief >= 0)) cfg.fail("output.relief", "expected a non-negative height exaggeration (0: no shading)");
  read_checkpoints(cfg, o);
}

void read_blowup(ConfigReader& cfg, RunConfig& rc) {
  rc.retry_on_blowup = cfg.get_choice("time.on_blowup", {"stop", "retry"}, "stop") == "retry";
  rc.max_retries = int(cfg.get_int("time.max_retries", 3));
  if (rc.max_retries < 1 || rc.max_retries > 30) cfg.fail("time.max_retries", "expected an integer from 1 to 30");
  rc.blowup_copy = cfg.get_choice("time.blowup_copy", {"auto", "never"}, "auto") == "auto";
  if (!rc.blowup_copy && rc.retry_on_blowup)
    cfg.fail("time.blowup_copy", "expected \"auto\" with time.on_blowup = \"retry\", which goes back to the copy");
}

void read_run(ConfigReader& cfg, RunConfig& rc, const CliOverrides& cli) {
  const std::string backend = cli.backend.empty() ? cfg.get_choice("run.backend", {"auto", "serial", "openmp", "cuda"}, "auto") : cli.backend;
  if (!cli.backend.empty()) cfg.find("run.backend");
  rc.backend = parse_backend(backend);
  const std::string precision = cli.precision.empty() ? cfg.get_choice("run.precision", {"f32", "f64"}, "f32") : cli.precision;
  if (!cli.precision.empty()) cfg.find("run.precision");
  rc.precision = parse_precision(precision);
  rc.progress = cfg.get_bool("run.progress", true);
}

// run.ranks = [px, py] (3D grids: [px, py, pz]): how `mpirun -n P` splits the grid (app/ranks.hpp).
void read_ranks(ConfigReader& cfg, RunConfig& rc, const Grid2& grid) {
  if (!cfg.has("run.ranks")) return;
  for (double p : cfg.get_doubles("run.ranks", grid.is_3d() ? 3 : 2)) {
    if (!(p >= 1 && p <= 65536 && p == std::floor(p)))
      cfg.fail("run.ranks", grid.is_3d() ? "expected [px, py, pz]: positive integers, ranks along x, y and z"
                                         : "expected [px, py]: positive integers, ranks along x and y");
    rc.ranks.push_back(int(p));
  }
}

// Every value the run uses, defaults included, so that summary.json alone says what produced a result.
nlohmann::json resolved_json(const RunConfig& rc) {
  const Grid2& g = rc.grid();
  const OutputConfig& o = rc.output;
  nlohmann::json j = {
      {"grid", grid_json(g)},
      {"output", {{"dir", o.dir}, {"every", o.every}, {"formats", o.formats}, {"fields", o.fields}, {"colormap", o.colormap},
                  {"range", o.auto_range ? nlohmann::json("auto") : nlohmann::json{o.range_min, o.range_max}},
                  {"scale", o.scale}, {"relief", o.relief},
                  {"checkpoint_every", o.checkpoint_time > 0 ? nlohmann::json(o.checkpoint_time) : nlohmann::json(o.checkpoint_steps)},
                  {"checkpoint_keep", o.checkpoint_keep}, {"colorbar", o.colorbar},
                  {"background", o.background ? "auto" : "never"}}},
      {"run", {{"backend", backend_name(rc.backend)}, {"precision", precision_name(rc.precision)}, {"progress", rc.progress}}}};
  if (!rc.ranks.empty()) j["run"]["ranks"] = rc.ranks;
  if (!o.movie_field.empty()) j["output"]["movie"] = {{"field", o.movie_field}, {"formats", o.movie_formats}, {"fps", o.movie_fps}};
  j.update(rc.setup->resolved(), true);
  j["time"]["on_blowup"] = rc.retry_on_blowup ? "retry" : "stop";
  j["time"]["max_retries"] = rc.max_retries;
  j["time"]["blowup_copy"] = rc.blowup_copy ? "auto" : "never";
  return j;
}

std::unique_ptr<ModelSetup> read_model(ConfigReader& cfg, const RunConfig& rc, const Grid2& grid, const std::string& file) {
  std::pair<const ModelFamily*, const ModelDesc*> found;
  try {
    found = find_model(rc.model);
  } catch (const InputError& e) {
    cfg.fail("model.name", e.what());
  }
  if (grid.is_3d() && !found.first->three_d) {
    std::string takers;
    for (const ModelFamily& f : model_families())
      if (f.three_d) takers += (takers.empty() ? "" : ", ") + f.name;
    cfg.fail("grid.nz", "model '" + rc.model + "' (family " + found.first->name + ") runs on 2D grids only; remove grid.nz. " +
                            "3D grids are taken by: " + takers);
  }
  const std::string base_dir = std::filesystem::path(file).parent_path().string();
  ModelContext ctx{cfg, *found.second, grid, base_dir.empty() ? "." : base_dir, rc.precision};
  return found.first->read(ctx);
}

}  // namespace

RunConfig load_run_config(const std::string& file, const CliOverrides& cli) {
  ConfigReader cfg = ConfigReader::from_file(file);
  for (const auto& s : cli.sets) cfg.apply_override(s);
  RunConfig rc;
  rc.file = file;
  std::stringstream js;
  js << toml::json_formatter{cfg.root()};
  rc.input = nlohmann::json::parse(js.str());
  const Grid2 grid = read_grid(cfg);
  read_run(cfg, rc, cli);
  read_ranks(cfg, rc, grid);
  check_grid_fits(cfg, grid, rc.precision, rc.backend == Backend::cuda);
  rc.model = cfg.get_string("model.name");
  rc.setup = read_model(cfg, rc, grid, file);
  read_output(cfg, rc, cli);
  read_blowup(cfg, rc);
  rc.cli = cli;
  rc.ensemble = read_ensemble(cfg, cli.params);
  if (!rc.ensemble.empty() && rc.output.checkpoints())
    cfg.fail("output.checkpoint_every", "an ensemble writes no checkpoints: run its members one by one to checkpoint them");
  cfg.check_all_used();
  rc.resolved = resolved_json(rc);
  return rc;
}

void require_one_run(const RunConfig& rc) {
  if (!rc.ensemble.empty())
    throw InputError(rc.file + ": key 'ensemble': this runs one model; an ensemble runs with pdex run, pdex sweep or pdex.sweep");
}

}  // namespace pdex
