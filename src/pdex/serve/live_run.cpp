#include "pdex/serve/live_run.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <utility>

#include "pdex/app/simulation.hpp"
#include "pdex/core/error.hpp"
#include "pdex/io/colormap.hpp"
#include "pdex/io/npy.hpp"
#include "pdex/io/section.hpp"
#include "pdex/io/png_writer.hpp"
#include "pdex/serve/messages.hpp"

namespace pdex::serve {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

// Keys that would change what the state is (its shape, where it lives) or where files go.
void check_steerable(const std::string& key) {
  for (const char* fixed : {"grid.nx", "grid.ny", "grid.nz", "run.", "output.", "model.name", "model.species", "model.preset"})
    if (key.rfind(fixed, 0) == 0)
      throw InputError("key '" + key + "' cannot change while serving (it changes the state's shape, the backend or "
                       "the outputs): stop pdex serve and start it with --set " + key + "=...");
}

std::string step_tag(int64_t step) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%06lld", static_cast<long long>(step));
  return buf;
}

}  // namespace

LiveRun::LiveRun(std::string file, CliOverrides cli) : session_(std::move(file), std::move(cli)) {
  if (config().grid().is_3d()) plane_ = config().grid().nz / 2;
  checkpoint();
}

void LiveRun::rebuild(const std::map<std::string, std::string>& changes) {
  session_.set_changes(changes);
  ++version_;
  checkpoint();
}

void LiveRun::reset() {
  session_.reset();
  frame_progress_ = 0;
  ++version_;
  checkpoint();
}

// A frame's steps go in chunks sized from the last chunk's time, and the tick returns after
// tick_budget even mid-frame, so that commands get in between however long a frame is. The guard
// against blow-up looks after a chunk once check_interval has passed since its last look, and at the
// end of a single frame asked for, not after every frame.
bool LiveRun::tick() {
  const auto start = Clock::now();
  if (!playing_ && !step_once_) {
    rate_steps_ = 0, rate_since_ = start;
    return false;
  }
  while (frame_progress_ < steps_per_frame_) {
    const double budget = std::chrono::duration<double>(tick_budget - (Clock::now() - start)).count();
    if (budget <= 0) return true;
    const int64_t left = steps_per_frame_ - frame_progress_;
    const int64_t chunk = seconds_per_step_ > 0 ? std::clamp(int64_t(budget / seconds_per_step_), int64_t(1), left) : 1;
    if (!advance(chunk)) return true;
    if (Clock::now() - checked_at_ >= check_interval && !look()) return true;
  }
  frame_progress_ = 0;
  ++version_;
  if (std::exchange(step_once_, false) && !look()) return true;
  const double seconds = std::chrono::duration<double>(Clock::now() - rate_since_).count();
  if (seconds >= 0.5) rate_ = double(rate_steps_) / seconds, rate_steps_ = 0, rate_since_ = Clock::now();
  return true;
}

// `steps` steps, the clock and the step time; false after a blow-up (fail() has answered it).
bool LiveRun::advance(int64_t steps) {
  const auto start = Clock::now();
  try {
    session_.advance(steps);
  } catch (const NumericalError& e) {
    return fail(e.what());
  }
  seconds_per_step_ = std::chrono::duration<double>(Clock::now() - start).count() / double(steps);
  frame_progress_ += steps, rate_steps_ += steps;
  return true;
}

// Whether every field is finite; if so the state is kept to go back to, else fail() answers.
bool LiveRun::look() {
  for (int f = 0; f < int(stepper().field_names().size()); ++f) {
    const int64_t cell = stepper().first_nonfinite(f);
    if (cell < 0) continue;
    return fail(stepper().field_names()[std::size_t(f)] + " is NaN or Inf at cell " + config().grid().extents().where(cell));
  }
  checkpoint();
  return true;
}

// A state known to be finite, to go back to.
void LiveRun::checkpoint() {
  stepper().save();
  checked_at_ = Clock::now(), checked_step_ = session_.step(), checked_t_ = session_.time();
}

// The last state known to be finite comes back, the run pauses, and every page is told what to change.
bool LiveRun::fail(const std::string& what) {
  const int64_t failed_by = session_.step();
  stepper().restore();
  session_.rewind(checked_step_, checked_t_);
  playing_ = false, step_once_ = false, frame_progress_ = 0;
  notices_.push_back({{"type", "error"},
                      {"error", "the run blew up between steps " + std::to_string(checked_step_) + " and " + std::to_string(failed_by) +
                                    ": " + what + ". The state of step " + std::to_string(checked_step_) +
                                    " is back and the run is paused: lower time.dt, change the parameters, or reset"}});
  ++version_;
  return false;
}

Snapshot LiveRun::snapshot() {
  const int64_t step = session_.step();
  const Grid2& g = config().grid();
  Snapshot s{step, session_.time(), version_, g.nx, g.ny, plane_, stepper().field_names(), {}, rate_, -1};
  for (int f = 0; f < int(s.names.size()); ++f) s.fields.push_back(stepper().quantized(f));
  if (plane_ >= 0) {  // the shown plane of each volume, on the volume's colour scale
    const std::size_t cells = std::size_t(g.nx) * std::size_t(g.ny), first = std::size_t(plane_) * cells;
    for (QuantizedField& q : s.fields) q.q = std::vector<uint16_t>(q.q.begin() + std::ptrdiff_t(first), q.q.begin() + std::ptrdiff_t(first + cells));
  }
  if (const SolverTotals* st = stepper().solver_totals()) {
    if (step > steps_at_snapshot_) s.solver_iterations = double(st->iterations - iters_at_snapshot_) / double(step - steps_at_snapshot_);
    iters_at_snapshot_ = st->iterations, steps_at_snapshot_ = step;
  }
  return s;
}

std::vector<std::vector<double>> LiveRun::values() {
  std::vector<std::vector<double>> v;
  for (int f = 0; f < int(stepper().field_names().size()); ++f) v.push_back(stepper().values(f));
  return v;
}

std::vector<nlohmann::json> LiveRun::take_notices() { return std::exchange(notices_, {}); }

int LiveRun::field_index(const nlohmann::json& msg, const char* key, bool settable) const {
  const std::string name = get_string(msg, key, 64);
  const std::vector<std::string>& names = stepper().field_names();
  const auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end()) throw InputError("'" + std::string(key) + "': no field '" + name + "' in this model");
  const int f = int(it - names.begin());
  if (settable && !stepper().settable(f))
    throw InputError("field '" + name + "' is computed from the others: paint one of the stepped fields");
  return f;
}

nlohmann::json LiveRun::command(const nlohmann::json& msg) {
  const std::string type = get_string(msg, "type", 32);
  if (type == "play" || type == "pause") {
    playing_ = type == "play";
  } else if (type == "step") {
    playing_ = false, step_once_ = true;
  } else if (type == "reset") {
    reset();
  } else if (type == "steps_per_frame") {
    steps_per_frame_ = get_int(msg, "value", 1, 1000000);
  } else if (type == "plane") {
    if (plane_ < 0) throw InputError("'plane': a 2D grid has one plane; planes are a 3D grid's (grid.nz > 1)");
    plane_ = int(get_int(msg, "value", 0, config().grid().nz - 1));
    ++version_;
  } else if (type == "set") {
    return set_key(msg);
  } else if (type == "paint") {
    return paint(msg);
  } else if (type == "save") {
    return save(msg);
  } else if (type == "describe") {
    return {{"ok", true}, {"describe", describe()}, {"state", state()}};
  } else if (type != "get") {
    throw InputError("unknown message type '" + type +
                     "'; expected play, pause, step, reset, steps_per_frame, plane, set, paint, save, get or describe");
  }
  if (type != "get") notices_.push_back({{"type", "state"}, {"state", state()}});  // the other tabs' buttons
  return {{"ok", true}, {"state", state()}};
}

// {"type": "set", "key": "model.params.F", "value": 0.035} (a number, string or boolean), or
// {"type": "set", "key": "grid.boundary", "toml": "{ left = \"neumann\", ... }"}, or several at once:
// {"type": "set", "changes": {"time.scheme": "theta", "time.dt": 2}}. A value null takes an earlier change
// back (the file's value again). All of them are applied in one rebuild, or none.
nlohmann::json LiveRun::set_key(const nlohmann::json& msg) {
  std::map<std::string, std::string> changes = session_.changes();
  auto change = [&](const std::string& key, const nlohmann::json& value) {
    check_steerable(key);
    if (value.is_null()) {
      changes.erase(key);
    } else {
      changes[key] = toml_value(value);
    }
  };
  if (msg.contains("changes")) {
    if (!msg["changes"].is_object() || msg["changes"].empty() || msg["changes"].size() > 64)
      throw InputError("\"changes\": expected an object of 1 to 64 keys and their values");
    for (const auto& [key, value] : msg["changes"].items()) {
      if (key.size() > 200) throw InputError("\"changes\": a key of at most 200 characters");
      change(key, value);
    }
  } else {
    const std::string key = get_string(msg, "key", 200);
    if (msg.contains("toml")) {
      check_steerable(key);
      changes[key] = get_string(msg, "toml", 100000);
    } else if (msg.contains("value")) {
      change(key, msg["value"]);
    } else {
      throw InputError("'set' needs \"value\" (a number, string or boolean), \"toml\" (the value as TOML text) or \"changes\"");
    }
  }
  rebuild(changes);
  notices_.push_back({{"type", "describe"}, {"describe", describe()}});
  return {{"ok", true}, {"version", version_}, {"state", state()}};
}

// {"type": "paint", "field": "v", "x": 12.5, "y": 40, "radius": 5, "value": 0.25, "mode": "set"|"add"}:
// x and y in cells from the lower-left corner, the disc of cells whose centres lie within radius; on a
// 3D grid the ball about the middle of the plane shown ("z", in cells from the front, to put it elsewhere).
nlohmann::json LiveRun::paint(const nlohmann::json& msg) {
  const int f = field_index(msg, "field", true);
  const Grid2& g = config().grid();
  const double x = get_number(msg, "x", -g.nx, 2.0 * g.nx), y = get_number(msg, "y", -g.ny, 2.0 * g.ny);
  const double z = plane_ < 0 ? 0.5 : msg.contains("z") ? get_number(msg, "z", -g.nz, 2.0 * g.nz) : plane_ + 0.5;
  const double r = get_number(msg, "radius", 0.0, double(std::max({g.nx, g.ny, g.nz})));
  const double value = get_number(msg, "value", -1e300, 1e300);
  const std::string mode = msg.contains("mode") ? get_string(msg, "mode", 8) : "set";
  if (mode != "set" && mode != "add") throw InputError("'mode': expected \"set\" or \"add\", got \"" + mode + "\"");
  const auto span = [&](double c, int n) { return std::pair{std::max(0, int(c - r - 1)), std::min(n, int(c + r + 2))}; };
  const auto [k0, k1] = plane_ < 0 ? std::pair{0, 1} : span(z, g.nz);
  const auto [j0, j1] = span(y, g.ny);
  const auto [i0, i1] = span(x, g.nx);
  std::vector<double> v = stepper().values(f);
  int64_t painted = 0;
  for (int k = k0; k < k1; ++k)
    for (int j = j0; j < j1; ++j)
      for (int i = i0; i < i1; ++i) {
        const double ddx = i + 0.5 - x, ddy = j + 0.5 - y, ddz = k + 0.5 - z;
        if (ddx * ddx + ddy * ddy + ddz * ddz > r * r) continue;
        double& c = v[(std::size_t(k) * std::size_t(g.ny) + std::size_t(j)) * std::size_t(g.nx) + std::size_t(i)];
        c = mode == "set" ? value : c + value;
        ++painted;
      }
  if (painted > 0) stepper().set_values(f, v), ++version_, checkpoint();
  return {{"ok", true}, {"cells", painted}, {"version", version_}};
}

std::string LiveRun::save_dir() const {
  const fs::path dir = fs::path(config().output.dir) / "explorer";
  fs::create_directories(dir);
  return dir.string();
}

// {"type": "save", "what": "png" | "npy" | "config", "field": "v", "colormap": "magma", "range": [0, 1]}
// (field, colormap and range for png; "range" absent or "auto" for the field's own).
nlohmann::json LiveRun::save(const nlohmann::json& msg) {
  const std::string what = get_string(msg, "what", 16), dir = save_dir();
  const Grid2& g = config().grid();
  nlohmann::json files = nlohmann::json::array();
  if (what == "png") {
    const int f = field_index(msg, "field", false);
    const io::Colormap cmap = io::parse_colormap(msg.contains("colormap") ? get_string(msg, "colormap", 32) : config().output.colormap);
    io::ColorRange range{true, 0.0, 1.0};
    if (msg.contains("range") && msg["range"].is_array()) {
      const std::vector<double> mm = get_numbers(msg, "range", 2);
      range = {false, mm[0], mm[1]};
    }
    const std::string file = dir + "/" + stepper().field_names()[std::size_t(f)] + "_" + step_tag(session_.step()) + ".png";
    const std::vector<double> v = stepper().values(f);
    const io::SectionPicture shown = plane_ < 0 ? io::SectionPicture{v, g.nx, g.ny} : io::section_of(v, g.nx, g.ny, g.nz, {'z', plane_});
    io::write_png(file, shown.values, shown.width, shown.height, cmap, range);
    files.push_back(file);
  } else if (what == "npy") {
    for (int f = 0; f < int(stepper().field_names().size()); ++f) {
      const std::string file = dir + "/" + stepper().field_names()[std::size_t(f)] + "_" + step_tag(session_.step()) + ".npy";
      io::write_npy(file, stepper().values(f).data(), g.extents().shape());
      files.push_back(file);
    }
  } else if (what == "config") {
    const std::vector<std::string> written = session_.save_config(dir + "/saved_" + step_tag(session_.step()), "pdex serve");
    for (const auto& f : written) saved_.push_back(f);
    return {{"ok", true}, {"files", written}, {"config", written.front()}};
  } else {
    throw InputError("'what': expected \"png\", \"npy\" or \"config\", got \"" + what + "\"");
  }
  for (const auto& f : files) saved_.push_back(f);
  return {{"ok", true}, {"files", files}};
}

nlohmann::json LiveRun::describe() const {
  const RunClock& c = config().clock();
  const ModelDesc& desc = *find_model(config().model).second;
  nlohmann::json params = nlohmann::json::array();
  for (const auto& [name, value] : config().resolved["model"]["params"].items()) {
    nlohmann::json p = {{"name", name}, {"value", value}, {"varies", value.is_object()}};
    if (const auto s = session_.changes().find("model.params." + name + ".scale"); s != session_.changes().end()) p["scale"] = std::stod(s->second);
    const auto d = std::find_if(desc.params.begin(), desc.params.end(), [&](const ParamDesc& pd) { return pd.name == name; });
    if (d != desc.params.end()) {
      p.update({{"min", d->min}, {"max", d->max}, {"meaning", d->meaning}, {"units", d->units}});
    } else if (value.is_number()) {  // a text model's own parameter: a range around its value
      const double v = value.get<double>();
      p.update({{"min", std::min(0.0, 2 * v)}, {"max", v == 0 ? 1.0 : std::max(0.0, 2 * v)}, {"meaning", ""}, {"units", ""}});
    }
    params.push_back(p);
  }
  nlohmann::json fields = nlohmann::json::array();
  for (int f = 0; f < int(stepper().field_names().size()); ++f)
    fields.push_back({{"name", stepper().field_names()[std::size_t(f)]}, {"settable", stepper().settable(f)}});
  nlohmann::json cmaps;
  for (io::Colormap m : {io::Colormap::viridis, io::Colormap::magma, io::Colormap::gray, io::Colormap::coolwarm}) {
    std::vector<int> rgb;
    for (const io::Rgb& e : io::colormap_table(m)) rgb.insert(rgb.end(), {e.r, e.g, e.b});
    cmaps[std::string(io::colormap_name(m))] = rgb;
  }
  const Grid2& g = config().grid();
  nlohmann::json d = {{"file", session_.file()}, {"model", config().model}, {"title", desc.title}, {"fields", fields},
                      {"nx", g.nx}, {"ny", g.ny}, {"nz", g.nz}, {"dx", g.dx}, {"dy", g.dy}, {"params", params},
                      {"schemes", desc.schemes}, {"scheme", c.scheme}, {"dt", c.dt}, {"simulated_time", c.simulated_time},
                      {"boundary", config().resolved["grid"]["boundary"]}, {"colormaps", cmaps},
                      {"colormap", config().output.colormap},
                      {"range", config().output.auto_range ? nlohmann::json("auto") : nlohmann::json{config().output.range_min, config().output.range_max}},
                      {"backend", backend_name(config().backend)}, {"precision", precision_name(config().precision)},
                      {"implicit", stepper().solver_totals() != nullptr}};
  if (config().resolved["model"].contains("equations")) d["equations"] = config().resolved["model"]["equations"];
  return d;
}

nlohmann::json LiveRun::state() const {
  nlohmann::json params;
  for (const auto& [name, value] : config().resolved["model"]["params"].items()) params[name] = value;
  return {{"step", session_.step()}, {"t", session_.time()}, {"playing", playing_}, {"steps_per_frame", steps_per_frame_}, {"version", version_},
          {"dt", config().clock().dt}, {"scheme", config().clock().scheme}, {"params", params}, {"changes", session_.changes()},
          {"steps_per_second", rate_}, {"plane", plane_}};
}

void LiveRun::write_summary() {
  nlohmann::json sum = session_.summary();
  sum["explorer"] = {{"changes", sum["changes"]}, {"saved", saved_}};
  sum.erase("changes");
  fs::create_directories(config().output.dir);
  pdex::write_summary(config().output.dir, sum);
}

}  // namespace pdex::serve
