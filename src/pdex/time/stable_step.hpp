#pragma once
// The largest step an explicit scheme takes stably, and the bound that limits it, checked before a run.
#include <string>

namespace pdex {

struct StableStep {
  double dt_max;       // 0 when no step is stable (centred advection without diffusion); infinity: no limit
  std::string reason;  // which bound limits it, in words
};

}  // namespace pdex
