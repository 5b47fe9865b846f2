#include "pdex/app/sweep.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <span>
#include <string_view>
#include <system_error>

#include "pdex/app/progress.hpp"
#include "pdex/app/simulation.hpp"
#include "pdex/config/config_reader.hpp"
#include "pdex/core/error.hpp"
#include "pdex/core/format.hpp"
#include "pdex/io/mosaic.hpp"
#include "pdex/io/npy.hpp"

namespace pdex {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t at = s.find(sep); at != std::string::npos; start = at + 1, at = s.find(sep, start))
    parts.push_back(s.substr(start, at - start));
  parts.push_back(s.substr(start));
  return parts;
}

// A parameter's values are allocated as they are read: a count beyond this is a typo, refused first.
constexpr int64_t max_values = 1 << 20;

// `count` values from lo to hi, both ends included.
std::vector<double> spaced(double lo, double hi, int64_t count) {
  std::vector<double> v(std::size_t(count), lo);
  for (int64_t i = 1; i < count; ++i) v[std::size_t(i)] = i + 1 == count ? hi : lo + (hi - lo) * double(i) / double(count - 1);
  return v;
}

SweepParam read_values(ConfigReader& cfg, const std::string& key) {
  const toml::node* n = cfg.find(key);
  SweepParam p{key.substr(key.find('.') + 1), {}};
  if (const toml::array* a = n->as_array()) {
    for (const toml::node& e : *a) {
      if (!e.is_number()) cfg.fail(key, "expected numbers, e.g. [0.02, 0.03], or { from = 0.02, to = 0.06, count = 9 }");
      p.values.push_back(e.is_integer() ? double(e.as_integer()->get()) : e.as_floating_point()->get());
    }
  } else if (n->is_table()) {
    const int64_t count = cfg.get_int(key + ".count");
    if (count < 1 || count > max_values) cfg.fail(key + ".count", "expected a count from 1 to 1048576");
    p.values = spaced(cfg.get_double(key + ".from"), cfg.get_double(key + ".to"), count);
  } else {
    p.values = {cfg.get_double(key)};
  }
  if (p.values.empty()) cfg.fail(key, "expected at least one value");
  return p;
}

// The combination of member m: C order over the parameters, the last varying fastest.
std::vector<double> combination(const std::vector<SweepParam>& params, std::size_t m) {
  std::vector<double> v(params.size());
  for (std::size_t p = params.size(); p-- > 0;) {
    v[p] = params[p].values[m % params[p].values.size()];
    m /= params[p].values.size();
  }
  return v;
}

std::string describe(const std::vector<SweepParam>& params, const std::vector<double>& values) {
  std::string s;
  for (std::size_t p = 0; p < params.size(); ++p) s += (p ? ", " : "") + params[p].name + "=" + format_number(values[p]);
  return s;
}

// Member m's run, loaded as `pdex run --set model.params.NAME=value` would; stability checked.
RunConfig load_member(const RunConfig& base, const CliOverrides& cli, const SweepResult& r, std::size_t m) {
  const std::vector<double>& values = r.member_values[m];
  CliOverrides mc = cli;
  mc.params.clear();
  for (std::size_t p = 0; p < values.size(); ++p) {
    char v[64];
    std::snprintf(v, sizeof v, "%.17g", values[p]);
    mc.sets.push_back("model.params." + r.params[p].name + "=" + v);
  }
  try {
    RunConfig rc = load_run_config(base.file, mc);
    check_stability(rc);
    return rc;
  } catch (const InputError& e) {
    throw InputError("ensemble member " + describe(r.params, values) + ": " + e.what());
  }
}

// Member m's rows of a stacked field's values.
std::vector<double> member_rows(const std::vector<double>& stacked, const Members& mb, int nx, int m) {
  const auto first = stacked.begin() + std::ptrdiff_t(std::size_t(mb.row(m, 0)) * std::size_t(nx));
  return std::vector<double>(first, first + std::ptrdiff_t(std::size_t(nx) * std::size_t(mb.ny)));
}

void advance(Stepper& s, const RunClock& c, bool progress, SweepResult& r) {
  Progress bar(c.steps, progress);
  const auto t0 = Clock::now();
  for (int64_t done = 0; done < c.steps;) {
    const int64_t n = std::min(c.check_every, c.steps - done);
    s.advance(n);
    done += n;
    bar.update(done);
  }
  s.stats(0);  // waits for the device
  r.step_seconds = seconds_since(t0);
  r.member_steps.assign(r.member_values.size(), c.steps);
  bar.finish(c.steps);
}

// Appends member m's final values of every field; notes it where one is not finite.
void add_member(std::vector<std::vector<double>> values, SweepResult& r) {
  const int m = int(r.fields.empty() ? 0 : r.fields[0].size() / r.cells());
  r.fields.resize(values.size());
  bool bad = false;
  for (std::size_t f = 0; f < values.size(); ++f) {
    for (double v : values[f]) bad = bad || !std::isfinite(v);
    r.fields[f].insert(r.fields[f].end(), values[f].begin(), values[f].end());
  }
  if (bad) r.nonfinite_members.push_back(m);
}

// The members stacked in one field, advanced together.
void run_stacked(const RunConfig& base, const CliOverrides& cli, bool progress, SweepResult& r) {
  std::vector<RunConfig> members;
  for (std::size_t m = 0; m < r.member_values.size(); ++m) members.push_back(load_member(base, cli, r, m));
  std::vector<const ModelSetup*> setups;
  for (const RunConfig& m : members) setups.push_back(m.setup.get());
  EnsembleStepper ens = members[0].setup->make_ensemble(setups, base.backend, base.precision);
  const RunClock clock = members[0].clock();
  members = {};  // the stepper holds what it needs: the members' initial states and parameters go
  advance(*ens.stepper, clock, progress, r);
  r.field_names = ens.stepper->field_names();
  std::vector<std::vector<double>> stacked;
  for (std::size_t f = 0; f < r.field_names.size(); ++f) stacked.push_back(ens.stepper->values(int(f)));
  ens.stepper.reset();
  for (int m = 0; m < ens.members.count; ++m) {
    std::vector<std::vector<double>> own;
    for (const std::vector<double>& v : stacked) own.push_back(member_rows(v, ens.members, r.nx, m));
    add_member(std::move(own), r);
  }
}

// One member after another, each run as `pdex run` runs it alone (its checks and retries included); a
// member that stops on a NaN or Inf is noted and its fields are NaN. Every member is loaded (and so
// checked) before the first one runs, and loaded again at its turn: keeping them all would hold every
// member's initial state at once (members x a 3D state).
void run_in_turn(const RunConfig& base, const CliOverrides& cli, bool progress, SweepResult& r) {
  const std::size_t count = r.member_values.size();
  for (std::size_t m = 0; m < count; ++m) load_member(base, cli, r, m);
  Progress bar(int64_t(count), progress);
  for (std::size_t m = 0; m < count; ++m) {
    RunConfig rc = load_member(base, cli, r, m);
    rc.progress = false;
    try {
      RunResult one = run_simulation(rc, final_values_only());
      r.field_names = one.field_names;
      r.step_seconds += one.step_seconds;
      r.member_steps.push_back(one.steps);
      add_member(std::move(one.final_values), r);
    } catch (const NumericalError& e) {
      r.member_errors[int(m)] = e.what();
      r.member_steps.push_back(std::max<int64_t>(e.last_good_step, 0));
      if (r.field_names.empty()) r.field_names = rc.fields();
      add_member(std::vector<std::vector<double>>(r.field_names.size(), std::vector<double>(r.cells(), NAN)), r);
    }
    bar.update(int64_t(m + 1));
  }
  bar.finish(int64_t(count));
}

// Per field: min, max and mean of every member, and over all of them.
nlohmann::json member_stats(const SweepResult& r) {
  nlohmann::json j;
  const std::size_t cells = r.cells(), members = r.member_values.size();
  for (std::size_t f = 0; f < r.field_names.size(); ++f) {
    std::vector<double> lo(members), hi(members), mean(members);
    for (std::size_t m = 0; m < members; ++m) {
      const double* v = r.fields[f].data() + m * cells;
      lo[m] = hi[m] = v[0];
      double sum = 0;
      for (std::size_t k = 0; k < cells; ++k) lo[m] = std::min(lo[m], v[k]), hi[m] = std::max(hi[m], v[k]), sum += v[k];
      mean[m] = sum / double(cells);
    }
    j[r.field_names[f]] = {{"min", lo}, {"max", hi}, {"mean", mean}};
  }
  return j;
}

// The mosaics of one field for one or two parameters: the field itself on a 2D grid, one per section
// (output.slice, output.projection) on a 3D one.
void write_mosaics(const OutputConfig& o, const SweepResult& r, const std::vector<double>& v, const std::string& stem,
                   nlohmann::json& files) {
  const io::MosaicAxis x{r.params.back().name, r.params.back().values};
  const io::MosaicAxis y = r.params.size() == 2 ? io::MosaicAxis{r.params[0].name, r.params[0].values} : io::MosaicAxis{"", {0.0}};
  const auto mosaic = [&](const std::string& file, const std::vector<double>& members, int w, int h) {
    io::write_mosaic_png(file, members, w, h, x, y, io::parse_colormap(o.colormap),
                         io::ColorRange{o.auto_range, o.range_min, o.range_max}, o.scale);
    files.push_back(file);
  };
  if (r.nz == 1) return mosaic(stem + ".png", v, r.nx, r.ny);
  for (const io::Section& s : o.sections) {
    std::vector<double> sections;
    int w = 0, h = 0;
    for (std::size_t m = 0; m < r.member_values.size(); ++m) {
      io::SectionPicture p = io::section_of(std::span(v).subspan(m * r.cells(), r.cells()), r.nx, r.ny, r.nz, s);
      sections.insert(sections.end(), p.values.begin(), p.values.end());
      w = p.width, h = p.height;
    }
    mosaic(stem + "_" + s.tag() + ".png", sections, w, h);
  }
}

void write_outputs(const RunConfig& rc, SweepResult& r) {
  const OutputConfig& o = rc.output;
  std::error_code ec;
  std::filesystem::create_directories(o.dir, ec);
  if (ec) throw Error("cannot create the output folder '" + o.dir + "': " + ec.message());
  std::vector<std::size_t> shape{r.member_values.size(), std::size_t(r.ny), std::size_t(r.nx)};
  if (r.nz > 1) shape.insert(shape.begin() + 1, std::size_t(r.nz));
  nlohmann::json files = nlohmann::json::array();
  for (std::size_t f = 0; f < r.field_names.size(); ++f) {
    if (std::find(o.fields.begin(), o.fields.end(), r.field_names[f]) == o.fields.end()) continue;
    const std::string stem = (std::filesystem::path(o.dir) / r.field_names[f]).string();
    const std::vector<double>& v = r.fields[f];
    if (rc.precision == Precision::f32) {
      const std::vector<float> single(v.begin(), v.end());  // exact: the values were float
      io::write_npy(stem + ".npy", single.data(), shape);
    } else {
      io::write_npy(stem + ".npy", v.data(), shape);
    }
    files.push_back(stem + ".npy");
    if (r.params.size() <= 2) write_mosaics(o, r, v, stem, files);  // a mosaic has two axes
  }
  r.summary["outputs"] = files;
  write_summary(o.dir, r.summary);
}

void summarize(const RunConfig& rc, SweepResult& r) {
  nlohmann::json& sum = r.summary;
  nlohmann::json params, names = nlohmann::json::array(), errors = nlohmann::json::object();
  for (const SweepParam& p : r.params) params[p.name] = p.values, names.push_back(p.name);
  for (const auto& [m, why] : r.member_errors) errors[std::to_string(m)] = why;
  const int64_t steps = *std::max_element(r.member_steps.begin(), r.member_steps.end());
  sum["ensemble"] = {{"names", names}, {"params", params}, {"order", "C order over the parameters as listed, the last varying fastest"},
                     {"members", r.member_values.size()}, {"member_values", r.member_values},
                     {"schedule", r.in_turn.empty() ? "stacked" : "in turn"}, {"member_steps", r.member_steps},
                     {"nonfinite_members", r.nonfinite_members}, {"member_errors", errors}, {"member_fields", member_stats(r)}};
  if (!r.in_turn.empty()) sum["ensemble"]["in_turn_because"] = r.in_turn;
  sum["status"] = "ok";
  sum["steps"] = steps;
  sum["simulated_time"] = rc.clock().simulated_time ? rc.clock().t_end : double(steps) * rc.clock().dt;
  sum["wall_seconds"] = {{"stepping", r.step_seconds}, {"total", r.total_seconds}};
  sum["cell_updates_per_second"] = r.step_seconds > 0 ? r.cell_updates() / r.step_seconds : 0.0;
}

}  // namespace

double SweepResult::cell_updates() const {
  double steps = 0;
  for (int64_t n : member_steps) steps += double(n);
  return double(cells()) * steps;
}

SweepParam parse_sweep_param(const std::string& text) {
  const auto fail = [&](const std::string& why) {
    return InputError("--param " + text + ": " + why + "; expected NAME=lo:hi:count (e.g. F=0.01:0.07:32) or NAME=v1,v2,...");
  };
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0) throw fail("no NAME=");
  const auto number = [&](const std::string& s) {
    std::size_t used = 0;
    double v = 0;
    try {
      v = std::stod(s, &used);
    } catch (const std::exception&) {
      throw fail("'" + s + "' is not a number");
    }
    if (used != s.size()) throw fail("'" + s + "' is not a number");
    return v;
  };
  SweepParam p{text.substr(0, eq), {}};
  const std::string rhs = text.substr(eq + 1);
  if (const std::vector<std::string> range = split(rhs, ':'); range.size() > 1) {
    if (range.size() != 3) throw fail("a range has three parts");
    const double count = number(range[2]);
    if (!(count >= 1 && count <= max_values) || count != std::floor(count))
      throw fail("the count must be a whole number from 1 to 1048576");
    p.values = spaced(number(range[0]), number(range[1]), int64_t(count));
  } else {
    for (const std::string& v : split(rhs, ',')) p.values.push_back(number(v));
  }
  return p;
}

std::vector<SweepParam> read_ensemble(ConfigReader& cfg, const std::vector<std::string>& params) {
  std::vector<SweepParam> out;
  if (const toml::node* e = cfg.find("ensemble")) {
    if (!e->is_table()) cfg.fail("ensemble", "expected a table of parameters, e.g. [ensemble] F = [0.02, 0.03]");
    for (const auto& [k, v] : *e->as_table()) out.push_back(read_values(cfg, "ensemble." + std::string(k.str())));
  }
  for (const std::string& text : params) {
    SweepParam p = parse_sweep_param(text);
    auto same = std::find_if(out.begin(), out.end(), [&](const SweepParam& q) { return q.name == p.name; });
    if (same != out.end()) *same = std::move(p);
    else out.push_back(std::move(p));
  }
  return out;
}

SweepResult run_sweep(const RunConfig& base, const CliOverrides& cli, bool outputs) {
  const auto t0 = Clock::now();
  if (base.ensemble.empty())
    throw InputError(base.file + ": no ensemble: give parameters with --param NAME=lo:hi:count or an [ensemble] section");
  SweepResult r;
  r.params = base.ensemble;
  std::size_t count = 1;
  for (const SweepParam& p : r.params) count *= p.values.size();
  for (std::size_t m = 0; m < count; ++m) r.member_values.push_back(combination(r.params, m));
  r.nx = base.grid().nx, r.ny = base.grid().ny, r.nz = base.grid().nz;
  r.in_turn = base.setup->members_in_turn();
  r.summary = summary_head(base, nullptr);
  const bool progress = base.progress && outputs;
  if (r.in_turn.empty()) run_stacked(base, cli, progress, r);
  else run_in_turn(base, cli, progress, r);
  r.total_seconds = seconds_since(t0);
  summarize(base, r);
  if (outputs) write_outputs(base, r);
  return r;
}

}  // namespace pdex
