#pragma once
// What the run loop does that depends on how its clock counts (RunClock): by steps, in chunks of
// time.check_every with outputs every output.every steps; or by simulated time, landing on output.times
// while the integrator chooses its steps. Simulation (simulation.cpp) drives either one.
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "pdex/app/checkpoint.hpp"
#include "pdex/app/run_config.hpp"
#include "pdex/time/stepper.hpp"

namespace pdex {

class Schedule {
 public:
  virtual ~Schedule() = default;
  virtual bool done() const = 0;
  // Advances to the next check, output or end; returns the wall seconds spent stepping.
  virtual double advance(Stepper& s) = 0;
  // After advance: throws NumericalError naming when, which field and which cell went NaN or infinite.
  virtual void check_finite(Stepper& s) = 0;
  virtual bool output_due() const = 0;
  // Whether output.checkpoint_every falls where advance stopped (and at the end, when checkpoints are on).
  virtual bool checkpoint_due() const = 0;
  // The loop's position, for a checkpoint; resume continues from one (after read_checkpoint).
  virtual CheckpointClock position() const = 0;
  virtual void resume(const CheckpointClock& c, Stepper& s) = 0;
  // time.on_blowup = "retry": the state at the last advance's start (Stepper::restore()), its time, and
  // going on from there with `fresh`, a stepper of `substeps` times smaller steps (1 for Merson's tighter
  // tolerance) that the caller set to that state.
  virtual double chunk_start_time() const = 0;
  virtual void retry(Stepper& fresh, int substeps) = 0;
  virtual int64_t step() const = 0;  // steps taken (accepted ones by simulated time)
  // Progress in units of `progress_total()`.
  virtual int64_t progress() const = 0;
  virtual int64_t progress_total() const = 0;
  // summary.json's "outputs": files by name, or by simulated time.
  virtual void add_outputs(nlohmann::json& outputs, const std::vector<std::string>& files, const Stepper& s) const = 0;
  // The clock's entries of summary.json at the end: steps, simulated time, step sizes.
  virtual void summarize(nlohmann::json& summary) const = 0;
};

std::unique_ptr<Schedule> make_schedule(const RunConfig& rc);

// The wall seconds f() takes.
template <class F>
double timed(F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}


}  // namespace pdex
