#pragma once
// Checkpoints: a run's complete state, to continue it later bitwise (`pdex run CONFIG --restart DIR`).
// A checkpoint is a folder <output.dir>/checkpoints/step_<N>/ holding state.json (pdex's version, the
// configuration's identity, step, time, the schedule's and the stepper's own state) and one .npy a field
// and extra array, in the run's precision. It is written under a temporary name and renamed when whole,
// and older ones are removed only after: a stopped run or a full disk keeps the last good one.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

#include "pdex/app/field_copy.hpp"
#include "pdex/app/run_config.hpp"
#include "pdex/time/stepper.hpp"

namespace pdex {

// Where a run resumes from; force continues a checkpoint of another configuration or pdex version.
struct RestartFrom {
  std::string dir;
  bool force = false;
};

// What a checkpoint records of the run loop (schedule.hpp) besides the stepper's state.
struct CheckpointClock {
  int64_t step = 0;  // steps taken (accepted ones by simulated time)
  double time = 0;   // simulated time
  nlohmann::json schedule;
};

// Writes the stepper's state into <rc.output.dir>/checkpoints/step_<N>/ and keeps the newest
// rc.output.checkpoint_keep of them; returns the folder. Throws Error naming it when a write fails (the
// partial folder is removed, the older checkpoints stay). The fields are copied through `buffers`.
std::string write_checkpoint(const RunConfig& rc, Stepper& s, const CheckpointClock& clock, CopyBuffers& buffers);

// Reads a checkpoint into a stepper made for rc; returns its clock. Throws InputError naming the folder
// where it was written by another configuration (listing what changed) or pdex version, unless
// from.force, or for another grid or model; a forced restart says on stderr what differs.
CheckpointClock read_checkpoint(const RunConfig& rc, Stepper& s, const RestartFrom& from);

// The part of a resolved configuration that makes a run's state (not its length, outputs or backend),
// which a checkpoint must match.
nlohmann::json checkpoint_identity(const nlohmann::json& resolved);

}  // namespace pdex
