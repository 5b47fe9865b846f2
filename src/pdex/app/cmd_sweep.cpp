#include <cstdio>

#include "pdex/app/commands.hpp"
#include "pdex/app/sweep.hpp"
#include "pdex/core/format.hpp"

namespace pdex {

int cmd_sweep(const std::string& file, const CliOverrides& cli) {
  const RunConfig rc = load_run_config(file, cli);
  std::size_t members = 1;
  std::string params;
  for (const SweepParam& p : rc.ensemble) {
    members *= p.values.size();
    params += cat({params.empty() ? "" : " x ", p.name, "[", std::to_string(p.values.size()), "]"});
  }
  std::fprintf(stderr, "pdex: ensemble of %zu members (%s) of %s on %dx%d, %lld steps of dt=%s, backend %s (%s), %s -> %s\n",
               members, params.c_str(), rc.model.c_str(), rc.grid().nx, rc.grid().ny, (long long)rc.clock().steps,
               format_number(rc.clock().dt).c_str(), std::string(backend_name(rc.backend)).c_str(),
               device_name(rc.backend).c_str(), std::string(precision_name(rc.precision)).c_str(), rc.output.dir.c_str());
  const SweepResult r = run_sweep(rc, cli);
  const double updates = double(r.nx) * double(r.ny) * double(members) * double(r.steps);
  std::printf("done: %zu members, %lld steps in %.3f s (%.3g cell updates/s; %.3f s in all)\n", members,
              (long long)r.steps, r.step_seconds, r.step_seconds > 0 ? updates / r.step_seconds : 0.0, r.total_seconds);
  if (!r.nonfinite_members.empty())
    std::printf("warning: %zu member(s) went NaN or infinite (summary.json: ensemble.nonfinite_members)\n",
                r.nonfinite_members.size());
  std::printf("fields ([member, y, x] .npy stacks, mosaics) and summary.json in %s\n", rc.output.dir.c_str());
  return 0;
}

}  // namespace pdex
