// pdex compare: one configuration on two backends, side by side (seed 000's one-to-one comparison).
#include <cstdio>
#include <filesystem>

#include "pdex/app/commands.hpp"
#include "pdex/app/field_diff.hpp"
#include "pdex/app/simulation.hpp"
#include "pdex/core/error.hpp"
#include "pdex/io/atomic_file.hpp"

namespace pdex {

namespace {
std::vector<Backend> default_pair() {
  if (backend_available(Backend::cuda)) return {Backend::openmp, Backend::cuda};
  return {Backend::serial, Backend::openmp};
}
}  // namespace

int cmd_compare(const std::string& file, const CliOverrides& cli, const std::vector<std::string>& names) {
  std::vector<Backend> pair = default_pair();
  if (!names.empty()) {
    if (names.size() != 2) throw InputError("--backends: expected two backends, e.g. --backends openmp,cuda");
    pair = {parse_backend(names[0]), parse_backend(names[1])};
  }
  RunResult res[2];
  RunConfig rc[2];
  for (int k = 0; k < 2; ++k) {
    CliOverrides o = cli;
    o.backend = std::string(backend_name(pair[k]));
    rc[k] = load_run_config(file, o);
    rc[k].progress = false;
    std::fprintf(stderr, "running %s on %s ...\n", rc[k].model.c_str(), o.backend.c_str());
    res[k] = run_simulation(rc[k], final_values_only());
  }
  const std::string dir = cli.out_dir.empty() ? rc[0].output.dir : cli.out_dir;
  std::filesystem::create_directories(dir);

  nlohmann::json j = {{"config_file", file}, {"model", rc[0].model}, {"precision", precision_name(rc[0].precision)},
                      {"steps", res[0].steps}, {"grid", {{"nx", rc[0].grid().nx}, {"ny", rc[0].grid().ny}}}};
  const char* a = backend_name(pair[0]).data();
  const char* b = backend_name(pair[1]).data();
  std::printf("%s, %dx%d, %lld steps, %s\n\n", rc[0].model.c_str(), rc[0].grid().nx, rc[0].grid().ny,
              (long long)res[0].steps, std::string(precision_name(rc[0].precision)).c_str());
  std::printf("%-10s %-40s %12s\n", "backend", "device", "wall [s]");
  for (int k = 0; k < 2; ++k) {
    std::printf("%-10s %-40s %12.4f\n", backend_name(pair[k]).data(), device_name(pair[k]).c_str(), res[k].step_seconds);
    j["runs"].push_back({{"backend", backend_name(pair[k])}, {"device", device_name(pair[k])},
                         {"wall_seconds", res[k].step_seconds}});
  }
  const double ratio = res[1].step_seconds > 0 ? res[0].step_seconds / res[1].step_seconds : 0;
  std::printf("time ratio %s / %s = %.3f\n\n", a, b, ratio);
  j["time_ratio"] = ratio;
  std::printf("%-6s %14s %14s %14s %14s\n", "field", "L1", "L2", "Linf", "relative L2");
  for (std::size_t f = 0; f < res[0].field_names.size(); ++f) {
    FieldDiff d = field_diff(res[0].final_values[f], res[1].final_values[f]);
    std::printf("%-6s %14.6e %14.6e %14.6e %14.6e\n", res[0].field_names[f].c_str(), d.l1, d.l2, d.linf, d.relative);
    j["differences"][res[0].field_names[f]] = {{"l1", d.l1}, {"l2", d.l2}, {"linf", d.linf}, {"relative", d.relative}};
  }
  io::write_text_file(dir + "/compare.json", j.dump(2) + "\n");
  std::printf("\nwritten %s/compare.json\n", dir.c_str());
  return 0;
}

}  // namespace pdex
