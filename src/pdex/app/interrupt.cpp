#include "pdex/app/interrupt.hpp"

#include <csignal>

namespace pdex {

namespace {

volatile std::sig_atomic_t asked = 0;
struct sigaction previous_int, previous_term;

extern "C" void on_signal(int sig) {
  asked = sig;
  std::signal(sig, SIG_DFL);  // a second signal ends the process at once
}

}  // namespace

InterruptGuard::InterruptGuard() {
  asked = 0;
  struct sigaction sa = {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, &previous_int);
  sigaction(SIGTERM, &sa, &previous_term);
}

InterruptGuard::~InterruptGuard() {
  sigaction(SIGINT, &previous_int, nullptr);
  sigaction(SIGTERM, &previous_term, nullptr);
}

int interrupt_signal() { return asked; }

}  // namespace pdex
