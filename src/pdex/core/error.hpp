#pragma once
// Errors are exceptions with context at the edges (DESIGN principle 9); kernels never throw.
#include <stdexcept>
#include <string>

namespace pdex {

// Any failure pdex reports to a user: what went wrong, where, and what to do about it.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Bad input in a configuration or data file; the message names the file and the key.
class InputError : public Error {
 public:
  using Error::Error;
};

// A simulation that produced NaN/Inf or another unrecoverable numerical state.
class NumericalError : public Error {
 public:
  NumericalError(const std::string& what, long long last_good = -1) : Error(what), last_good_step(last_good) {}
  long long last_good_step;  // the last step whose state was finite, when known
};

// The requested backend does not exist in this build or on this machine.
class BackendUnavailable : public Error {
 public:
  using Error::Error;
};

}  // namespace pdex
