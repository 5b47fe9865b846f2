#include <cstdio>

#include "pdex/app/commands.hpp"
#include "pdex/app/interrupt.hpp"
#include "pdex/app/ranks.hpp"
#include "pdex/app/simulation.hpp"
#include "pdex/core/format.hpp"

namespace pdex {

int cmd_run(const std::string& file, const CliOverrides& cli, bool emit_source, const RestartFrom& restart) {
  RunConfig rc = load_run_config(file, cli);
  if (!rc.ensemble.empty() && !restart.dir.empty()) throw InputError(file + ": --restart continues one run; this file has an [ensemble]");
  if (!rc.ensemble.empty() && job_size() > 1) throw InputError(file + ": key 'ensemble': an ensemble runs in one process (without mpirun)");
  if (!rc.ensemble.empty() && !emit_source) return cmd_sweep(file, cli);
  if (emit_source) {
    const std::string source = rc.setup->generated_source(rc.precision);
    if (source.empty()) throw InputError(file + ": model '" + rc.model + "' has built-in kernels: --emit-source prints the source of a text model (model.name = \"equations\")");
    std::fputs(source.c_str(), stdout);
    return 0;
  }
  if (job_rank() != 0) return serve_run(rc);
  if (job_size() == 1 && !rc.ranks.empty())
    std::fprintf(stderr, "pdex: warning: %s sets run.ranks, but this is one process: start it with mpirun -n P to split the grid\n",
                 file.c_str());
  const RunClock& c = rc.clock();
  const std::string clock = c.simulated_time ? c.scheme + " to t=" + format_number(c.t_end)
                                             : std::to_string(c.steps) + " steps of dt=" + format_number(c.dt);
  const std::string ranks = job_size() > 1 ? " over " + std::to_string(job_size()) + " ranks" : "";
  std::fprintf(stderr, "pdex: %s on %s%s, %s, backend %s (%s), %s -> %s\n", rc.model.c_str(),
               rc.grid().extents().text().c_str(), ranks.c_str(), clock.c_str(),
               std::string(backend_name(rc.backend)).c_str(), device_name(rc.backend).c_str(),
               std::string(precision_name(rc.precision)).c_str(), rc.output.dir.c_str());
  const InterruptGuard guard;
  RunOptions options;
  options.restart = restart;
  RunResult r = run_simulation(rc, options);
  const double rate = r.step_seconds > 0 ? double(rc.grid().cells()) * double(r.steps) / r.step_seconds : 0;
  std::printf("done: %lld steps in %.3f s (%.3g cell updates/s); ", (long long)r.steps, r.step_seconds, rate);
  for (std::size_t f = 0; f < r.field_names.size(); ++f)
    std::printf("%s in [%.4g, %.4g] mean %.4g%s", r.field_names[f].c_str(), r.stats[f].min, r.stats[f].max,
                r.stats[f].mean, f + 1 < r.field_names.size() ? "; " : "\n");
  std::printf("outputs and summary.json in %s\n", rc.output.dir.c_str());
  return 0;
}

}  // namespace pdex
