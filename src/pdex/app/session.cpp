#include "pdex/app/session.hpp"

#include <toml++/toml.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>

#include "pdex/app/simulation.hpp"
#include "pdex/config/config_reader.hpp"
#include "pdex/core/error.hpp"
#include "pdex/io/atomic_file.hpp"
#include "pdex/io/npy.hpp"

namespace pdex {

namespace fs = std::filesystem;

namespace {

// Relative `file = "..."` entries of a configuration, made absolute: a saved configuration lives in
// another folder than the one they were relative to.
void absolute_files(toml::table& t, const fs::path& base) {
  for (auto&& [key, node] : t) {
    if (auto* sub = node.as_table()) {
      absolute_files(*sub, base);
    } else if (key.str() == "file" && node.is_string()) {
      const fs::path p(node.as_string()->get());
      if (p.is_relative()) node.as_string()->get() = fs::absolute(base / p).lexically_normal().string();
    }
  }
}

}  // namespace

Session::Session(std::string file, CliOverrides cli) : file_(std::move(file)), cli_(std::move(cli)) { set_changes({}); }

void Session::set_changes(const std::map<std::string, std::string>& changes) {
  CliOverrides cli = cli_;
  for (const auto& [key, value] : changes) cli.sets.push_back(key + "=" + value);
  RunConfig rc = load_run_config(file_, cli);
  require_one_run(rc);
  check_stability(rc);
  if (stepper_ && !(rc.grid().extents() == rc_.grid().extents()))
    throw InputError("the grid cannot change size while the run goes on");
  std::unique_ptr<Stepper> s = rc.setup->make_stepper(rc.backend, rc.precision);
  std::vector<std::vector<double>> initial(s->field_names().size());
  for (int f = 0; f < int(initial.size()); ++f)
    if (s->settable(f)) initial[std::size_t(f)] = s->values(f);
  if (stepper_) {  // the state goes on: every stepped field the two have in common, and the time
    const std::vector<std::string>& old = stepper_->field_names();
    for (int f = 0; f < int(initial.size()); ++f) {
      const auto it = std::find(old.begin(), old.end(), s->field_names()[std::size_t(f)]);
      const int g = int(it - old.begin());
      if (it != old.end() && s->settable(f) && stepper_->settable(g)) s->set_values(f, stepper_->values(g));
    }
    s->set_time(t_);
  }
  rc_ = std::move(rc), stepper_ = std::move(s), initial_ = std::move(initial), changes_ = changes;
}

void Session::advance(int64_t steps) {
  stepper_->advance(steps);
  step_ += steps;
  const auto* mol = dynamic_cast<const MolStepper*>(stepper_.get());
  t_ = mol ? mol->time() : t_ + double(steps) * rc_.clock().dt;
}

void Session::advance_to(double t) {
  const double dt = rc_.clock().dt;
  if (!(t >= t_)) throw InputError("cannot run until t = " + std::to_string(t) + ": the run is at t = " + std::to_string(t_));
  if (auto* mol = dynamic_cast<MolStepper*>(stepper_.get()); mol && rc_.clock().simulated_time) {
    const int64_t before = mol->step_stats().accepted;
    mol->advance_to(t);
    step_ += mol->step_stats().accepted - before;
    t_ = mol->time();
    return;
  }
  const double steps = (t - t_) / dt;
  if (std::abs(steps - std::round(steps)) > 1e-9 * std::max(1.0, steps))
    throw InputError("cannot run until t = " + std::to_string(t) + ": it is not a whole number of steps of dt = " +
                     std::to_string(dt) + " from t = " + std::to_string(t_));
  advance(std::llround(steps));
}

void Session::reset() {
  for (int f = 0; f < int(initial_.size()); ++f)
    if (stepper_->settable(f)) stepper_->set_values(f, initial_[std::size_t(f)]);
  rewind(0, 0.0);
}

void Session::rewind(int64_t step, double t) {
  step_ = step, t_ = t;
  stepper_->set_time(t);
}

// The values are written in f64 whatever the run's precision (f32 ones exactly).
std::vector<std::string> Session::save_config(const std::string& dir, const std::string& saved_by) {
  fs::create_directories(dir);
  ConfigReader cfg = ConfigReader::from_file(file_);
  for (const auto& s : cli_.sets) cfg.apply_override(s);
  for (const auto& [key, value] : changes_) cfg.apply_override(key + "=" + value);
  std::vector<std::string> files;
  for (int f = 0; f < int(stepper_->field_names().size()); ++f) {
    if (!stepper_->settable(f)) continue;
    const std::string name = stepper_->field_names()[std::size_t(f)];
    io::write_npy(dir + "/" + name + ".npy", stepper_->values(f).data(), rc_.grid().extents().shape());
    cfg.apply_override("initial." + name + "={ file = \"" + name + ".npy\" }");
    files.push_back(dir + "/" + name + ".npy");
  }
  cfg.apply_override("run.backend=\"" + std::string(backend_name(rc_.backend)) + "\"");
  cfg.apply_override("run.precision=\"" + std::string(precision_name(rc_.precision)) + "\"");
  toml::table root = cfg.root();
  const fs::path base = fs::path(file_).parent_path();
  for (auto&& [key, node] : root)
    if (auto* t = node.as_table(); t && key.str() != "initial") absolute_files(*t, base.empty() ? fs::path(".") : base);
  const std::string file = dir + "/config.toml";
  std::ostringstream text;
  text << "# Saved by " << saved_by << " from " << file_ << " at step " << step_ << " (t = " << t_ << "): `pdex run "
       << file << "` goes on from this state.\n"
       << toml::toml_formatter{root} << "\n";
  io::write_text_file(file, text.str());
  files.insert(files.begin(), file);
  return files;
}

nlohmann::json Session::summary() {
  nlohmann::json sum = summary_head(rc_, nullptr);
  sum["status"] = "ok";
  sum["steps"] = step_;
  sum["t"] = t_;
  std::vector<FieldStats> stats;
  for (int f = 0; f < int(stepper_->field_names().size()); ++f) stats.push_back(stepper_->stats(f));
  sum["fields"] = stats_json(stepper_->field_names(), stats);
  sum["changes"] = changes_;
  return sum;
}

}  // namespace pdex
