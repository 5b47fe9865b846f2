#pragma once
// The method-of-lines time loop (seed 003, Algorithm 4.1): a Runge-Kutta driver plus the clock and, for
// Merson, the step-size control. The error estimate comes to the host once per step and decides.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "pdex/core/error.hpp"
#include "pdex/time/rk/runge_kutta.hpp"
#include "pdex/time/rk/step_control.hpp"

namespace pdex {

// The tableau of a method-of-lines scheme named in a configuration (time.scheme).
inline const Tableau& mol_tableau(const std::string& scheme) {
  if (scheme == "merson") return merson_tableau;
  if (scheme == "rk4") return rk4_tableau;
  throw InputError("unknown method-of-lines scheme '" + scheme + "': expected merson or rk4");
}

template <class Exec, class T, class System>
class MolIntegrator {
 public:
  // tau0: the first step (Merson) or every step (fixed-step methods); eps: Merson's tolerance.
  MolIntegrator(RungeKutta<Exec, T, System>&& rk, double tau0, double eps)
      : rk_(std::move(rk)), tau_(tau0), eps_(eps) {
    if (!(tau0 > 0)) throw InputError("the time step must be positive");
    if (rk_.tableau().adaptive() && !(eps > 0)) throw InputError("the Merson tolerance must be positive");
  }

  RungeKutta<Exec, T, System>& rk() { return rk_; }
  double time() const { return t_; }
  void set_time(double t) { t_ = t; }  // after restoring a saved state
  double tau() const { return tau_; }
  const StepStats& stats() const { return stats_; }
  // The clock and step control as numbers, for checkpoints; set_clock_state takes them back (the step
  // history, a summary's, starts again).
  std::vector<double> clock_state() const {
    return {t_, tau_, double(stats_.accepted), double(stats_.rejected), stats_.tau_min, stats_.tau_max, double(rejected_in_a_row_)};
  }
  void set_clock_state(const std::vector<double>& s) {
    if (s.size() != 7) throw Error("a checkpoint's integrator clock has " + std::to_string(s.size()) + " numbers, expected 7");
    t_ = s[0], tau_ = s[1];
    stats_ = StepStats{};
    stats_.accepted = int64_t(s[2]), stats_.rejected = int64_t(s[3]), stats_.tau_min = s[4], stats_.tau_max = s[5];
    rejected_in_a_row_ = int(s[6]);
  }

  // Advances to t_end exactly: steps are clipped to min(tau, t_end - t) (Algorithm 4.1 step 4). Stops
  // earlier, between steps, after max_steps accepted steps (so that a caller can look at the state
  // without cutting a step short).
  void advance_to(double t_end, int64_t max_steps = std::numeric_limits<int64_t>::max()) {
    const int64_t goal = max_steps > std::numeric_limits<int64_t>::max() - stats_.accepted ? max_steps : stats_.accepted + max_steps;
    while (t_end - t_ > margin(t_end) && stats_.accepted < goal) step(t_end);
    if (t_end - t_ <= margin(t_end)) t_ = std::max(t_, t_end);
  }

  // Takes n accepted steps with no end time in sight (benchmarks).
  void advance_steps(int64_t n) {
    for (const int64_t goal = stats_.accepted + n; stats_.accepted < goal;) step(std::numeric_limits<double>::infinity());
  }

  // Takes n steps of a fixed-step method at once through pass(t), which writes the state n steps on into
  // rk().candidate(), t[i] being step i's time: where each of the next n steps toward t_end (infinity:
  // none) is a whole step of tau, as step() would take it, none clipped and none landing on t_end.
  // Returns false, taking none, otherwise.
  template <class Pass>
  bool advance_pass(int n, double t_end, const Pass& pass) {
    std::vector<double> t(std::size_t(n > 0 ? n : 0));
    double now = t_;
    for (double& ti : t) {
      if (rk_.tableau().adaptive() || !whole_step(now, t_end)) return false;
      ti = now;
      now = now + tau_;
    }
    pass(t.data());
    rk_.accept();
    for (int i = 0; i < n; ++i) {
      t_ = t_ + tau_;
      stats_.record(t_, tau_);
    }
    return true;
  }

 private:
  // How close to t_end the clock lands on it.
  static double margin(double t_end) { return 1e-14 * std::max(1.0, std::abs(t_end)); }
  // Whether the step from `now` toward t_end (infinity: none) is one advance_to takes, of tau whole:
  // not clipped to t_end, nor landing on it.
  bool whole_step(double now, double t_end) const {
    return (!std::isfinite(t_end) || t_end - now > margin(t_end)) && tau_ < t_end - now;
  }

  void step(double t_end) {
    const bool last = !whole_step(t_, t_end);
    const double tau = last ? t_end - t_ : tau_;
    const double e = rk_.attempt(t_, tau);
    if (!rk_.tableau().adaptive()) return commit(tau, last ? t_end : t_ + tau);
    if (e < eps_) {  // Algorithm 4.1 step 3
      commit(tau, last ? t_end : t_ + tau);
      rejected_in_a_row_ = 0;
    } else {
      ++stats_.rejected;
      if (++rejected_in_a_row_ > 50)
        throw NumericalError("Runge-Kutta-Merson rejected 50 steps in a row at t = " + std::to_string(t_) +
                             " (last error estimate " + std::to_string(e) + ", tolerance " + std::to_string(eps_) +
                             "): the state is not finite or the tolerance is below rounding; check the set-up or "
                             "raise time.tol");
    }
    // Growth is capped at 10x the step the controller last chose (not the clipped one), so that a step
    // cut short by an output time does not slow the steps after it.
    tau_ = merson_next_tau(tau, e, eps_, 10 * tau_);
  }

  void commit(double tau, double t_new) {
    rk_.accept();
    t_ = t_new;
    stats_.record(t_, tau);
  }

  RungeKutta<Exec, T, System> rk_;
  double t_ = 0, tau_, eps_;
  StepStats stats_;
  int rejected_in_a_row_ = 0;
};

}  // namespace pdex
