#pragma once
// Run progress: a redrawn bar with steps/s and ETA on a terminal, plain lines every 10% otherwise
// (logs, CI), nothing when disabled.
#include <chrono>
#include <cstdint>
#include <cstdio>

namespace pdex {

class Progress {
 public:
  Progress(int64_t total_steps, bool enabled, std::FILE* out = stderr);
  void update(int64_t step);
  void finish(int64_t step);

 private:
  using Clock = std::chrono::steady_clock;
  void draw(int64_t step, bool final);
  int64_t total_;
  bool enabled_, terminal_;
  std::FILE* out_;
  Clock::time_point start_, last_draw_;
  int next_decile_ = 1;
};

}  // namespace pdex
