#include "pdex/app/schedule.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>

#include "pdex/core/error.hpp"
#include "pdex/core/format.hpp"
#include "pdex/core/memory_stats.hpp"

namespace pdex {

namespace {


// The first field with a NaN/Inf and where, or -1.
std::pair<int, int64_t> first_nonfinite(Stepper& s) {
  for (std::size_t f = 0; f < s.field_names().size(); ++f)
    if (const int64_t at = s.first_nonfinite(int(f)); at >= 0) return {int(f), at};
  return {-1, -1};
}

// Fixed steps of dt: chunks end at the next check or output; a chunk that ends non-finite is repeated
// step by step from its saved start, to name the step, where the run holds that copy (time.blowup_copy).
class StepSchedule : public Schedule {
 public:
  explicit StepSchedule(const RunConfig& rc) : rc_(rc), c_(rc.clock()), checkpoint_every_(checkpoint_steps(rc)) {}
  bool done() const override { return step_ >= c_.steps; }
  double advance(Stepper& s) override {
    start_ = step_;
    int64_t stop = std::min(c_.steps, step_ + c_.check_every);
    for (const int64_t every : {rc_.output.every, checkpoint_every_})
      if (every > 0) stop = std::min(stop, (step_ / every + 1) * every);
    if (!copy_) copy_ = keeps_copy(s);
    if (*copy_) s.save();
    const double seconds = timed([&] { s.advance((stop - step_) * substeps_); });
    step_ = stop;
    return seconds;
  }
  double chunk_start_time() const override { return double(start_) * c_.dt; }
  void retry(Stepper&, int substeps) override {
    step_ = start_;
    substeps_ *= substeps;
  }
  void check_finite(Stepper& s) override {
    if (const auto [f, at] = first_nonfinite(s); f < 0) return;
    else if (!*copy_)
      throw NumericalError("the solution blew up between steps " + std::to_string(start_) + " and " + std::to_string(step_) +
                           ": at step " + std::to_string(step_) + " (t = " + format_number(double(step_) * c_.dt) + ") field '" +
                           s.field_names()[f] + "' is NaN or infinite at cell " + rc_.grid().extents().where(at) + advice() +
                           ". The run kept no copy of the state to name the step (" +
                           (rc_.blowup_copy ? "memory had no room for one" : "time.blowup_copy = \"never\"") + ")", start_);
    s.restore();
    for (int64_t step = start_ + 1; step <= step_; ++step) {
      s.advance(substeps_);
      const auto [f, at] = first_nonfinite(s);
      if (f < 0) continue;
      throw NumericalError("the solution blew up at step " + std::to_string(step) + " (t = " +
                           format_number(double(step) * c_.dt) + "): field '" + s.field_names()[f] +
                           "' is NaN or infinite at cell " + rc_.grid().extents().where(at) + advice(), step - 1);
    }
    throw NumericalError("the solution became non-finite between steps " + std::to_string(start_) + " and " +
                         std::to_string(step_) + " but did not again when repeated step by step; "
                         "this points to a backend fault: please report it");
  }
  bool output_due() const override {
    return step_ == c_.steps || (rc_.output.every > 0 && step_ % rc_.output.every == 0);
  }
  bool checkpoint_due() const override { return checkpoint_every_ > 0 && (done() || step_ % checkpoint_every_ == 0); }
  CheckpointClock position() const override { return {step_, double(step_) * c_.dt, nlohmann::json::object()}; }
  void resume(const CheckpointClock& c, Stepper&) override {
    if (c.step > c_.steps)
      throw InputError(rc_.file + ": key 'time.steps': the checkpoint is at step " + std::to_string(c.step) +
                       ", beyond time.steps = " + std::to_string(c_.steps) + ": raise time.steps to continue it");
    step_ = c.step;
  }
  int64_t step() const override { return step_; }
  int64_t progress() const override { return step_; }
  int64_t progress_total() const override { return c_.steps; }
  void add_outputs(nlohmann::json& outputs, const std::vector<std::string>& files, const Stepper&) const override {
    for (const auto& f : files) outputs.push_back(f);
  }
  void summarize(nlohmann::json& sum) const override {
    sum["steps"] = step_;
    sum["blowup_copy"] = copy_.value_or(false);
    sum["simulated_time"] = double(step_) * c_.dt;
  }

 private:
  // output.checkpoint_every in steps; simulated time rounds to whole steps of dt.
  static int64_t checkpoint_steps(const RunConfig& rc) {
    if (rc.output.checkpoint_time <= 0) return rc.output.checkpoint_steps;
    return std::max<int64_t>(1, std::llround(rc.output.checkpoint_time / rc.clock().dt));
  }

  // A retry goes back to the copy; else it is kept where memory has room for it twice over.
  bool keeps_copy(const Stepper& s) const {
    const MemorySpace space = rc_.backend == Backend::cuda ? MemorySpace::device : MemorySpace::host;
    return rc_.retry_on_blowup || (rc_.blowup_copy && room_for_copy(space, std::size_t(state_bytes(rc_, s.field_names().size()))));
  }
  // A blow-up message's ending: what to change, and where the outputs are.
  std::string advice() const {
    return ". Reduce time.dt (now " + format_number(c_.dt / double(substeps_)) +
           "), or check the parameters and initial state; outputs written so far are kept in " + rc_.output.dir;
  }

  const RunConfig& rc_;
  const RunClock& c_;
  const int64_t checkpoint_every_;
  int64_t step_ = 0, start_ = 0;
  int64_t substeps_ = 1;      // steps of the stepper a step of the schedule (2^retries)
  std::optional<bool> copy_;  // whether the run keeps a copy of each chunk's start (decided at the first)
};

// At most ~max_points of the accepted steps' (t, tau), evenly picked, the last one included.
nlohmann::json step_history(const StepStats& s, std::size_t max_points = 500) {
  nlohmann::json h = nlohmann::json::array();
  const std::size_t n = s.history.size(), stride = std::max<std::size_t>(1, (n + max_points - 1) / max_points);
  for (std::size_t k = 0; k < n; k += stride) h.push_back({s.history[k].t, s.history[k].tau});
  if (n > 0 && (n - 1) % stride != 0) h.push_back({s.history.back().t, s.history.back().tau});
  return h;
}

MolStepper& as_mol(Stepper& s) {
  auto* m = dynamic_cast<MolStepper*>(&s);
  if (!m) throw Error("internal: a run by simulated time needs a method-of-lines stepper");
  return *m;
}

// Simulated time to t_end: the integrator lands on each of output.times, checked every check_every
// accepted steps.
class TimeSchedule : public Schedule {
 public:
  explicit TimeSchedule(const RunConfig& rc) : rc_(rc), c_(rc.clock()), stops_(c_.output_times) {
    if (stops_.empty() || stops_.back() < c_.t_end) stops_.push_back(c_.t_end);
    next_checkpoint_ = following_checkpoint(0);
  }
  bool done() const override { return next_ >= stops_.size(); }
  // Lands on the next output time or checkpoint time, whichever comes first; a checkpoint by steps ends
  // the chunk between steps.
  double advance(Stepper& s) override {
    MolStepper& m = as_mol(s);
    const OutputConfig& o = rc_.output;
    const double target = o.checkpoint_time > 0 ? std::min(stops_[next_], next_checkpoint_) : stops_[next_];
    int64_t max_steps = c_.check_every;
    if (o.checkpoint_steps > 0) max_steps = std::min(max_steps, o.checkpoint_steps - step() % o.checkpoint_steps);
    chunk_time_ = m.time(), chunk_steps_ = step();
    if (rc_.retry_on_blowup) m.save();
    const double seconds = timed([&] { m.advance_to(target, max_steps); });
    time_ = m.time();
    stats_ = &m.step_stats();
    due_ = time_ >= stops_[next_];
    if (due_) ++next_;
    checkpoint_due_ = done() || (o.checkpoint_steps > 0 && step() % o.checkpoint_steps == 0) ||
                      (o.checkpoint_time > 0 && time_ >= next_checkpoint_);
    if (o.checkpoint_time > 0 && time_ >= next_checkpoint_) next_checkpoint_ = following_checkpoint(time_);
    return seconds;
  }
  bool checkpoint_due() const override { return rc_.output.checkpoints() && checkpoint_due_; }
  double chunk_start_time() const override { return chunk_time_; }
  // The fresh stepper counts its steps from 0.
  void retry(Stepper& fresh, int) override {
    time_ = chunk_time_;
    stats_ = &as_mol(fresh).step_stats();
    steps_before_ = chunk_steps_;
    if (due_) --next_, due_ = false;
    next_checkpoint_ = following_checkpoint(time_);
  }
  CheckpointClock position() const override { return {step(), time_, {{"next_stop", next_}}}; }
  void resume(const CheckpointClock& c, Stepper& s) override {
    if (c.time > c_.t_end)
      throw InputError(rc_.file + ": key 'time.t_end': the checkpoint is at t = " + format_number(c.time) +
                       ", beyond time.t_end = " + format_number(c_.t_end) + ": raise time.t_end to continue it");
    time_ = c.time;
    stats_ = &as_mol(s).step_stats();
    next_ = 0;
    while (next_ < stops_.size() && stops_[next_] <= time_) ++next_;
    next_checkpoint_ = following_checkpoint(time_);
  }
  void check_finite(Stepper& s) override {
    const auto [f, at] = first_nonfinite(s);
    if (f < 0) return;
    throw NumericalError("the solution blew up by t = " + std::to_string(time_) + ": field '" + s.field_names()[f] +
                             "' is NaN or infinite at cell " + rc_.grid().extents().where(at) +
                             "; lower time.tol (Merson) or time.dt (rk4), or check the parameters",
                         step());
  }
  bool output_due() const override { return due_; }
  int64_t step() const override { return steps_before_ + (stats_ ? stats_->accepted : 0); }
  int64_t progress() const override { return int64_t(1000 * time_ / c_.t_end); }  // per mille of simulated time
  int64_t progress_total() const override { return 1000; }
  void add_outputs(nlohmann::json& outputs, const std::vector<std::string>& files, const Stepper& s) const override {
    outputs.push_back({{"t", dynamic_cast<const MolStepper&>(s).time()}, {"files", files}});
  }
  void summarize(nlohmann::json& sum) const override {
    sum["steps"] = step();
    sum["simulated_time"] = time_;
    if (!stats_) return;
    sum["rejected_steps"] = stats_->rejected;
    sum["step_size"] = {{"min", stats_->tau_min}, {"max", stats_->tau_max}, {"history_t_tau", step_history(*stats_)}};
  }

 private:
  const RunConfig& rc_;
  const RunClock& c_;
  std::vector<double> stops_;
  // The first multiple of output.checkpoint_every (simulated time) after t.
  double following_checkpoint(double t) const {
    const double every = rc_.output.checkpoint_time;
    return every > 0 ? (std::floor(t / every + 1e-9) + 1) * every : std::numeric_limits<double>::infinity();
  }

  std::size_t next_ = 0;
  double time_ = 0, next_checkpoint_ = 0;
  double chunk_time_ = 0;
  int64_t chunk_steps_ = 0, steps_before_ = 0;
  bool due_ = false, checkpoint_due_ = false;
  const StepStats* stats_ = nullptr;
};

}  // namespace

std::unique_ptr<Schedule> make_schedule(const RunConfig& rc) {
  if (rc.clock().simulated_time) return std::make_unique<TimeSchedule>(rc);
  return std::make_unique<StepSchedule>(rc);
}

}  // namespace pdex
