#include "pdex/app/progress.hpp"

#include <unistd.h>

#include <string>

namespace pdex {

Progress::Progress(int64_t total_steps, bool enabled, std::FILE* out)
    : total_(total_steps), enabled_(enabled && total_steps > 0), terminal_(isatty(fileno(out)) != 0), out_(out),
      start_(Clock::now()), last_draw_(start_) {}

namespace {
std::string clock_text(double s) {
  if (!(s >= 0) || s > 1e7) return "--:--";
  const long t = long(s + 0.5);
  char buf[32];
  if (t >= 3600)
    std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
  else
    std::snprintf(buf, sizeof buf, "%02ld:%02ld", t / 60, t % 60);
  return buf;
}
}  // namespace

void Progress::draw(int64_t step, bool final) {
  const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
  const double rate = elapsed > 0 ? double(step) / elapsed : 0;
  const double eta = rate > 0 ? double(total_ - step) / rate : -1;
  const double frac = double(step) / double(total_);
  if (terminal_) {
    constexpr int width = 30;
    const int filled = int(frac * width);
    std::string bar(std::size_t(filled), '#');
    bar.resize(width, '.');
    std::fprintf(out_, "\r[%s] %5.1f%%  step %lld/%lld  %.4g steps/s  ETA %s%s", bar.c_str(), 100 * frac,
                 (long long)step, (long long)total_, rate, clock_text(eta).c_str(), final ? "\n" : "  ");
  } else {
    std::fprintf(out_, "step %lld/%lld (%.0f%%)  %.4g steps/s  elapsed %s  ETA %s\n", (long long)step,
                 (long long)total_, 100 * frac, rate, clock_text(elapsed).c_str(), clock_text(eta).c_str());
  }
  std::fflush(out_);
}

void Progress::update(int64_t step) {
  if (!enabled_) return;
  if (terminal_) {
    if (Clock::now() - last_draw_ < std::chrono::milliseconds(200)) return;
    last_draw_ = Clock::now();
    draw(step, false);
  } else if (step * 10 >= next_decile_ * total_ && step < total_) {
    while (step * 10 >= next_decile_ * total_) ++next_decile_;
    draw(step, false);
  }
}

void Progress::finish(int64_t step) {
  if (enabled_) draw(step, true);
}

}  // namespace pdex
