#include "pdex/app/checkpoint.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <system_error>

#include "pdex/app/field_copy.hpp"
#include "pdex/core/error.hpp"
#include "pdex/core/version.hpp"
#include "pdex/io/atomic_file.hpp"
#include "pdex/io/npy.hpp"

namespace pdex {

namespace fs = std::filesystem;

namespace {

constexpr const char* format_tag = "pdex checkpoint 1";

std::string step_folder(int64_t step) {
  std::string tag = std::to_string(step);
  return "step_" + std::string(std::size_t(std::max(0, 10 - int(tag.size()))), '0') + tag;
}

// The stepper's state into `dir`: the settable fields (at the run's precision, shape (ny, nx) or (nz, ny, nx)) and the
// extra arrays.
nlohmann::json write_state(const fs::path& dir, Stepper& s, const RunConfig& rc, CopyBuffers& buffers) {
  nlohmann::json fields = nlohmann::json::array(), extra = nlohmann::json::array();
  const Grid2& g = rc.grid();
  const io::ImageGrid grid{g.nx, g.ny, g.x0, g.y0, g.dx, g.dy, g.nz, g.z0, g.dz};
  const io::StoreAs store = rc.precision == Precision::f32 ? io::StoreAs::f32 : io::StoreAs::f64;
  for (std::size_t f = 0; f < s.field_names().size(); ++f) {
    if (!s.settable(int(f))) continue;
    FieldCopy copy = field_in_place(s, int(f), buffers);
    io::write_npy(dir / ("field_" + s.field_names()[f] + ".npy"), copy.view(), grid, store);
    buffers.give(std::move(copy.rows));
    fields.push_back(s.field_names()[f]);
  }
  for (const NamedArray& a : s.extra_state()) {
    std::vector<std::size_t> shape{a.values.size()};
    if (a.per_cell > 0) {  // (components, [nz,] ny, nx): the reader knows it by its dimensions
      shape = g.extents().shape();
      shape.insert(shape.begin(), std::size_t(a.per_cell));
    }
    io::write_npy(dir / ("extra_" + a.name + ".npy"), a.values.data(), shape);
    extra.push_back(a.name);
  }
  return {{"fields", fields}, {"extra", extra}};
}

// Removes all but the newest `keep` checkpoints (their names sort by step).
void prune(const fs::path& root, int keep) {
  std::vector<fs::path> done;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(root, ec))
    if (e.is_directory() && e.path().filename().string().rfind("step_", 0) == 0 && e.path().extension().empty())
      done.push_back(e.path());
  std::sort(done.begin(), done.end());
  for (std::size_t k = 0; k + std::size_t(keep) < done.size(); ++k) fs::remove_all(done[k], ec);
}

// "a.b.c" -> value, for naming what changed between two configurations.
void flatten(const nlohmann::json& j, const std::string& prefix, std::map<std::string, std::string>& out) {
  if (j.is_object()) {
    for (const auto& [k, v] : j.items()) flatten(v, prefix.empty() ? k : prefix + "." + k, out);
    return;
  }
  out[prefix] = j.dump();
}

std::string differences(const nlohmann::json& was, const nlohmann::json& now) {
  std::map<std::string, std::string> a, b;
  flatten(was, "", a);
  flatten(now, "", b);
  std::string out;
  auto add = [&](const std::string& line) { out += (out.empty() ? "" : "; ") + line; };
  for (const auto& [k, v] : a) {
    const auto it = b.find(k);
    if (it == b.end()) add(k + " was " + v + ", now absent");
    else if (it->second != v) add(k + " was " + v + ", now " + it->second);
  }
  for (const auto& [k, v] : b)
    if (!a.count(k)) add(k + " = " + v + " is new");
  return out;
}

nlohmann::json read_state_json(const fs::path& dir) {
  const fs::path file = dir / "state.json";
  std::ifstream in(file);
  if (!fs::is_directory(dir)) throw InputError("--restart " + dir.string() + ": no such checkpoint folder");
  if (!in) throw InputError("--restart " + dir.string() + ": cannot read " + file.string() + " (not a checkpoint folder?)");
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  bool whole = j.is_object() && j.value("format", "") == format_tag;
  for (const char* key : {"fields", "extra", "step", "time", "schedule"}) whole = whole && j.contains(key);
  if (!whole || !j["fields"].is_array() || !j["extra"].is_array() || !j["step"].is_number_integer() || !j["time"].is_number())
    throw InputError(file.string() + ": not a pdex checkpoint's state (\"format\": \"" + format_tag +
                     "\" with fields, extra, step, time and schedule)");
  return j;
}

// Refuses (or, forced, reports) a checkpoint of another configuration or version.
void check_origin(const RunConfig& rc, const nlohmann::json& st, const RestartFrom& from) {
  std::string why;
  const nlohmann::json now = checkpoint_identity(rc.resolved);
  const nlohmann::json was = st.value("identity", nlohmann::json::object());
  if (was != now) why = "the configuration differs: " + differences(was, now);
  if (st.value("pdex_version", "") != version)
    why += (why.empty() ? "" : "; ") + std::string("it was written by pdex ") + st.value("pdex_version", "?") + ", this is " + version;
  if (why.empty()) return;
  if (!from.force)
    throw InputError("--restart " + from.dir + ": " + why + ". Run the configuration the checkpoint came from, or add --force to continue anyway");
  std::fprintf(stderr, "pdex: --force: continuing %s although %s\n", from.dir.c_str(), why.c_str());
}

std::vector<double> read_values(const fs::path& file, std::size_t count) {
  io::NpyArray a = io::read_npy(file);
  if (a.data.size() != count)
    throw InputError(file.string() + ": holds " + std::to_string(a.data.size()) + " values, this run needs " + std::to_string(count));
  return std::move(a.data);
}

}  // namespace

nlohmann::json checkpoint_identity(const nlohmann::json& resolved) {
  nlohmann::json id = resolved;
  id.erase("output");
  id["run"] = {{"precision", resolved.at("run").at("precision")}};
  if (id.contains("time"))
    for (const char* k : {"steps", "t_end", "check_every", "force", "on_blowup", "max_retries", "blowup_copy"}) id["time"].erase(k);
  return id;
}

std::string write_checkpoint(const RunConfig& rc, Stepper& s, const CheckpointClock& clock, CopyBuffers& buffers) {
  const fs::path root = fs::path(rc.output.dir) / "checkpoints";
  const fs::path dir = root / step_folder(clock.step);
  const fs::path partial = dir.string() + "." + std::to_string(::getpid()) + ".partial";
  std::error_code ec;
  fs::remove_all(partial, ec);
  try {
    fs::create_directories(partial);
    nlohmann::json st = {{"format", format_tag}, {"pdex_version", version}, {"config_file", rc.file},
                         {"identity", checkpoint_identity(rc.resolved)}, {"model", rc.model},
                         {"backend", backend_name(rc.backend)}, {"step", clock.step}, {"time", clock.time},
                         {"schedule", clock.schedule}};
    st.update(write_state(partial, s, rc, buffers));
    io::write_text_file(partial / "state.json", st.dump(1) + "\n");
    fs::remove_all(dir);
    fs::rename(partial, dir);
  } catch (const std::exception& e) {
    fs::remove_all(partial, ec);
    throw Error("cannot write the checkpoint " + dir.string() + ": " + e.what() +
                "; the run stops (earlier checkpoints in " + root.string() + " are kept)");
  }
  prune(root, rc.output.checkpoint_keep);
  return dir.string();
}

CheckpointClock read_checkpoint(const RunConfig& rc, Stepper& s, const RestartFrom& from) {
  const fs::path dir = from.dir;
  const nlohmann::json st = read_state_json(dir);
  check_origin(rc, st, from);
  if (st.value("backend", "") != backend_name(rc.backend))
    std::fprintf(stderr, "pdex: the checkpoint was written on backend %s, this run is on %s: results agree within the backends' tolerance, not bitwise\n",
                 st.value("backend", "?").c_str(), std::string(backend_name(rc.backend)).c_str());
  const std::size_t cells = std::size_t(rc.grid().cells());
  const auto& names = s.field_names();
  for (const auto& name : st.at("fields")) {
    const auto it = std::find(names.begin(), names.end(), name.get<std::string>());
    if (it == names.end() || !s.settable(int(it - names.begin())))
      throw InputError(dir.string() + ": the checkpoint holds a field '" + name.get<std::string>() + "' that this model does not step");
    s.set_values(int(it - names.begin()), read_values(dir / ("field_" + name.get<std::string>() + ".npy"), cells));
  }
  std::vector<NamedArray> extra;
  for (const auto& name : st.at("extra")) {
    io::NpyArray a = io::read_npy(dir / ("extra_" + name.get<std::string>() + ".npy"));
    const int per_cell = a.shape.size() > 1 ? int(a.shape[0]) : 0;
    extra.push_back({name.get<std::string>(), std::move(a.data), per_cell});
  }
  s.set_extra_state(extra);
  return {st.at("step").get<int64_t>(), st.at("time").get<double>(), st.at("schedule")};
}

}  // namespace pdex
