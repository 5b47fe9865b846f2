#pragma once
// The [time] section (docs/config.md): a clock of fixed steps (time.dt with time.steps or time.t_end), or,
// for the method-of-lines schemes (time.scheme = "merson" | "rk4", seed 003), simulated time up to
// time.t_end with outputs at output.times, Merson choosing the steps.
#include <functional>

#include <nlohmann/json.hpp>

#include "pdex/config/config_reader.hpp"
#include "pdex/linalg/solver_settings.hpp"
#include "pdex/time/run_clock.hpp"

namespace pdex {

// True when time.scheme names a method-of-lines scheme.
bool is_mol_scheme(ConfigReader& cfg);

// Reads time.dt, time.steps | time.t_end, time.force and time.check_every; the scheme is the caller's.
RunClock read_steps_clock(ConfigReader& cfg, const std::string& scheme);

// time.scheme = "theta": time.theta in (0, 1] (default 0.5, Crank-Nicolson) and [solver], whose tolerance
// defaults to one matched to the time-discretization error, not to machine precision (docs/solvers.md).
struct ThetaScheme {
  double theta = 0.5;
  SolverSettings solver;
};
ThetaScheme read_theta_scheme(ConfigReader& cfg);

// time.scheme = "euler" | "theta" (the caller checks which it allows) by steps of time.dt; theta's
// settings where the scheme is "theta", theta = 0 otherwise.
RunClock read_euler_or_theta(ConfigReader& cfg, const std::string& scheme, ThetaScheme& theta);

// time.scheme = "euler" | "theta" | "rk4" | "merson" (default euler): read_euler_or_theta or
// read_mol_time, with time.force; Merson's first step, where time.dt does not give it, is
// first_step() (a forward-Euler estimate, which the step control then grows or shrinks), or 1e-3
// where that is not a positive number.
RunClock read_scheme_clock(ConfigReader& cfg, ThetaScheme& theta, const std::function<double()>& first_step);

// Reads time.scheme, t_end, tol, dt (default `default_dt`; 0: none, the caller picks one; rk4 requires
// it), check_every and output.times; throws InputError naming the file and key.
RunClock read_mol_time(ConfigReader& cfg, double default_dt);

// run.steps_per_pass (docs/config.md): forward Euler's steps a pass over memory, 1 to 16; 0 where not
// given (the run's plan chooses). Refused beside run.temporal_blocking = false or another scheme than
// forward Euler's; whether the run's schedules take the count is its plan's to say, once the backend and
// precision are known.
int read_steps_per_pass(ConfigReader& cfg, bool temporal_blocking, const std::string& scheme);

// The resolved values, for summary.json: {"time": {...}} and, by simulated time, "output_times".
nlohmann::json clock_json(const RunClock& c);

}  // namespace pdex
