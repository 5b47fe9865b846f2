#pragma once
// A run under a researcher's hands (docs/explorer.md): a Session (app/session.hpp) advanced a frame at a
// time, watched for blow-ups, and the commands of the page that steer it. No threads and no network
// here: the server (server.hpp) calls in from one.
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "pdex/app/session.hpp"

namespace pdex::serve {

// The fields at one moment, quantized where they live and copied to the host: what a frame shows.
struct Snapshot {
  int64_t step = 0;
  double t = 0;
  uint64_t version = 0;  // changes whenever the state does (steps, brush, reset, rebuild)
  int nx = 0, ny = 0;
  int plane = -1;        // a 3D grid's: the z plane the fields show (-1 on a 2D grid)
  std::vector<std::string> names;
  std::vector<QuantizedField> fields;  // nx x ny values each (min, max and mean: of the whole volume in 3D)
  double steps_per_second = 0;
  double solver_iterations = -1;  // mean linear-solver iterations per step since the last snapshot; -1: none
};

class LiveRun {
 public:
  // Loads the configuration as `pdex run` does; throws InputError before anything runs.
  LiveRun(std::string file, CliOverrides cli);

  // Advances a frame's steps when playing (or when one frame was asked for), returning after about
  // 50 ms even mid-frame; returns whether it stepped. The guard against blow-up looks every 0.1 s: a
  // blow-up brings back the last state it found finite, pauses, and is reported by take_notices().
  bool tick();
  bool playing() const { return playing_; }

  // One message of the page or the HTTP API, validated; answers {"ok": true, ...} or throws InputError
  // saying what was wrong (the caller answers {"ok": false, "error": ...}).
  nlohmann::json command(const nlohmann::json& msg);

  // What the page needs to draw its controls: fields, parameters with ranges, schemes, colormaps.
  nlohmann::json describe() const;
  // Where the run is: step, time, playing, the parameters' values and the changes made so far.
  nlohmann::json state() const;
  Snapshot snapshot();
  // Every field's values, in double (tests; saves read them field by field).
  std::vector<std::vector<double>> values();
  uint64_t version() const { return version_; }
  // Messages for every watcher (a blow-up, a change made by another tab), each once.
  std::vector<nlohmann::json> take_notices();

  // summary.json of the session, written into the output folder (on exit).
  void write_summary();
  const RunConfig& config() const { return session_.config(); }

 private:
  nlohmann::json set_key(const nlohmann::json& msg);
  nlohmann::json paint(const nlohmann::json& msg);
  nlohmann::json save(const nlohmann::json& msg);
  void rebuild(const std::map<std::string, std::string>& changes);
  void reset();
  Stepper& stepper() { return session_.stepper(); }
  const Stepper& stepper() const { return session_.stepper(); }
  bool advance(int64_t steps);
  bool look();
  bool fail(const std::string& what);  // returns false
  void checkpoint();
  int field_index(const nlohmann::json& msg, const char* key, bool settable) const;
  std::string save_dir() const;

  Session session_;
  bool playing_ = true, step_once_ = false;
  int plane_ = -1;  // the z plane shown and painted on a 3D grid; -1 on a 2D one
  int64_t steps_per_frame_ = 10;
  uint64_t version_ = 1;
  std::vector<nlohmann::json> notices_;
  nlohmann::json saved_ = nlohmann::json::array();
  static constexpr std::chrono::milliseconds check_interval{100}, tick_budget{50};
  int64_t frame_progress_ = 0;   // steps of the frame under way
  double seconds_per_step_ = 0;  // of the last chunk
  std::chrono::steady_clock::time_point checked_at_;
  int64_t checked_step_ = 0;
  double checked_t_ = 0;
  // Steps per second over the last frames, and the solver's iterations since the last snapshot.
  std::chrono::steady_clock::time_point rate_since_;
  int64_t rate_steps_ = 0, iters_at_snapshot_ = 0, steps_at_snapshot_ = 0;
  double rate_ = 0;
};

}  // namespace pdex::serve
