// pdex compare: one configuration on two backends, side by side (seed 000's one-to-one comparison), or
// in one process against a run over MPI ranks (--ranks).
#include <cstdio>
#include <filesystem>

#include "pdex/app/commands.hpp"
#include "pdex/app/field_diff.hpp"
#include "pdex/app/rank_launch.hpp"
#include "pdex/app/simulation.hpp"
#include "pdex/core/error.hpp"
#include "pdex/io/atomic_file.hpp"
#include "pdex/io/npy.hpp"

namespace pdex {

namespace {

std::vector<Backend> default_pair() {
  if (backend_available(Backend::cuda)) return {Backend::openmp, Backend::cuda};
  return {Backend::serial, Backend::openmp};
}

struct Side {
  Backend backend;
  int ranks = 1;
  RunResult result;
  std::string label() const {
    return std::string(backend_name(backend)) + (ranks > 1 ? ", " + std::to_string(ranks) + " ranks" : "");
  }
};

RunResult run_here(const std::string& file, CliOverrides o, Backend backend, RunConfig& rc) {
  o.backend = std::string(backend_name(backend));
  rc = load_run_config(file, o);
  rc.progress = false;
  std::fprintf(stderr, "running %s on %s ...\n", rc.model.c_str(), o.backend.c_str());
  return run_simulation(rc, final_values_only());
}

// The run over `ranks` MPI ranks, by `mpirun -n RANKS` (or PDEX_MPIRUN's launcher) of this pdex, its final
// fields read back from the .npy files it writes into `dir`, its stepping time from its summary.
RunResult run_over_ranks(const std::string& file, const CliOverrides& cli, Backend backend, int ranks,
                         const std::vector<std::string>& fields, const std::string& dir) {
  std::vector<std::string> args{"--backend", std::string(backend_name(backend)), "--set", "output.formats=[\"npy\"]",
                                "--set", "output.every=0", "--set", "run.progress=false"};
  if (!cli.precision.empty()) args.insert(args.end(), {"--precision", cli.precision});
  for (const std::string& s : cli.sets) args.insert(args.end(), {"--set", s});
  const nlohmann::json s = run_pdex_child(ranks, file, dir, args);
  RunResult r;
  r.steps = s["steps"].get<int64_t>();
  r.step_seconds = s["wall_seconds"]["stepping"].get<double>();
  r.field_names = fields;
  for (const std::string& f : fields) {
    std::string last;  // the field's last .npy output: the final state
    for (const auto& out : s["outputs"]) {
      const std::string name = std::filesystem::path(out.get<std::string>()).filename().string();
      if (name.starts_with(f + "_") && name.ends_with(".npy")) last = name;
    }
    if (last.empty()) throw Error("the run over ranks wrote no .npy of field '" + f + "' into " + dir);
    r.final_values.push_back(io::read_npy(dir + "/" + last).data);
  }
  return r;
}

void report(const RunConfig& rc, const Side (&side)[2], const std::string& file, const std::string& dir) {
  const RunResult& a = side[0].result;
  nlohmann::json j = {{"config_file", file}, {"model", rc.model}, {"precision", precision_name(rc.precision)},
                      {"steps", a.steps}, {"grid", {{"nx", rc.grid().nx}, {"ny", rc.grid().ny}, {"nz", rc.grid().nz}}}};
  std::printf("%s, %s, %lld steps, %s\n\n", rc.model.c_str(), rc.grid().extents().text().c_str(), (long long)a.steps,
              std::string(precision_name(rc.precision)).c_str());
  std::printf("%-16s %-40s %12s\n", "run", "device", "wall [s]");
  for (const Side& s : side) {
    std::printf("%-16s %-40s %12.4f\n", s.label().c_str(), device_name(s.backend).c_str(), s.result.step_seconds);
    j["runs"].push_back({{"backend", backend_name(s.backend)}, {"ranks", s.ranks}, {"device", device_name(s.backend)},
                         {"wall_seconds", s.result.step_seconds}});
  }
  const double ratio = side[1].result.step_seconds > 0 ? a.step_seconds / side[1].result.step_seconds : 0;
  std::printf("time ratio %s / %s = %.3f\n\n", side[0].label().c_str(), side[1].label().c_str(), ratio);
  j["time_ratio"] = ratio;
  std::printf("%-6s %14s %14s %14s %14s\n", "field", "L1", "L2", "Linf", "relative L2");
  for (std::size_t f = 0; f < a.field_names.size(); ++f) {
    FieldDiff d = field_diff(a.final_values[f], side[1].result.final_values[f]);
    std::printf("%-6s %14.6e %14.6e %14.6e %14.6e\n", a.field_names[f].c_str(), d.l1, d.l2, d.linf, d.relative);
    j["differences"][a.field_names[f]] = {{"l1", d.l1}, {"l2", d.l2}, {"linf", d.linf}, {"relative", d.relative}};
  }
  std::filesystem::create_directories(dir);
  io::write_text_file(dir + "/compare.json", j.dump(2) + "\n");
  std::printf("\nwritten %s/compare.json\n", dir.c_str());
}

}  // namespace

int cmd_compare(const std::string& file, const CliOverrides& cli, const std::vector<std::string>& names, int ranks) {
  std::vector<Backend> pair = default_pair();
  if (ranks > 0 && names.size() > 1) throw InputError("--ranks compares one backend in one process and over ranks: give --backends NAME");
  if (ranks > 0 && names.empty()) pair = {best_backend()};
  if (!names.empty() && ranks == 0 && names.size() != 2) throw InputError("--backends: expected two backends, e.g. --backends openmp,cuda");
  if (!names.empty()) {
    pair.clear();
    for (const std::string& n : names) pair.push_back(parse_backend(n));
  }
  RunConfig rc;
  Side side[2];
  side[0] = {pair[0], 1, run_here(file, cli, pair[0], rc)};
  const std::string dir = cli.out_dir.empty() ? rc.output.dir : cli.out_dir;
  if (ranks > 0) {
    side[1] = {pair[0], ranks, run_over_ranks(file, cli, pair[0], ranks, side[0].result.field_names, dir + "/ranks")};
  } else {
    RunConfig other;
    side[1] = {pair[1], 1, run_here(file, cli, pair[1], other)};
  }
  report(rc, side, file, dir);
  return 0;
}

}  // namespace pdex
