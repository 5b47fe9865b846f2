#include <cstdio>
#include <string>

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
  const std::string in_turn = rc.setup->members_in_turn();
  std::fprintf(stderr, "pdex: ensemble of %zu members (%s) of %s on %s, %s, backend %s (%s), %s -> %s\n", members,
               params.c_str(), rc.model.c_str(), rc.grid().extents().text().c_str(),
               in_turn.empty() ? "stacked in one field" : ("one after another: " + in_turn).c_str(),
               std::string(backend_name(rc.backend)).c_str(), device_name(rc.backend).c_str(),
               std::string(precision_name(rc.precision)).c_str(), rc.output.dir.c_str());
  const SweepResult r = run_sweep(rc, cli);
  const double updates = r.cell_updates();
  std::printf("done: %zu members, %.0f cell updates in %.3f s of stepping (%.3g a second; %.3f s in all)\n", members,
              updates, r.step_seconds, r.step_seconds > 0 ? updates / r.step_seconds : 0.0, r.total_seconds);
  if (!r.nonfinite_members.empty())
    std::printf("warning: %zu member(s) went NaN or infinite (summary.json: ensemble.nonfinite_members, member_errors)\n",
                r.nonfinite_members.size());
  std::printf("fields (%s .npy stacks, mosaics) and summary.json in %s\n", r.nz > 1 ? "[member, z, y, x]" : "[member, y, x]",
              rc.output.dir.c_str());
  return 0;
}

}  // namespace pdex
