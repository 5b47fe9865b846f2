#pragma once
// Ctrl-C and SIGTERM during `pdex run`: the first one asks the run loop to stop at its next check, write a
// checkpoint and the summary, and exit; a second one ends the process at once (the default action).
#include <string>

#include "pdex/core/error.hpp"

namespace pdex {

// A run stopped by a signal, after its checkpoint and summary were written.
class Interrupted : public Error {
 public:
  Interrupted(const std::string& what, int sig) : Error(what), signal(sig) {}
  int signal;
};

class InterruptGuard {
 public:
  InterruptGuard();   // installs the handlers (SIGINT, SIGTERM)
  ~InterruptGuard();  // puts the previous ones back
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;
};

// The signal asked for, or 0. Without a guard installed, always 0.
int interrupt_signal();

}  // namespace pdex
