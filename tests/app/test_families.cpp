// Model families describe themselves (models/family.hpp): a family registered from this test tree alone
// runs through `pdex run` (the command's own function, in this process) with the one Simulation driver,
// its stable-step rule refuses a large step, a blow-up stops it with the step named; `pdex list --json`
// shows every family with complete parameter descriptions and examples that exist; and app/ names no model.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "app_test_support.hpp"
#include "pdex/app/commands.hpp"
#include "pdex/config/config_reader.hpp"
#include "pdex/config/time_config.hpp"
#include "pdex/core/error.hpp"
#include "pdex/models/family.hpp"

namespace pdex::app_testing {
namespace {

// u_t = -k u by forward Euler on the host: u_n = (1 - k dt)^n u_0 in every cell.
class DecayStepper : public Stepper {
 public:
  DecayStepper(double k, double dt, std::vector<double> u0) : factor_(1 - k * dt), u_(std::move(u0)), saved_(u_) {}
  const std::vector<std::string>& field_names() const override { return names_; }
  void advance(int64_t steps) override {
    for (int64_t n = 0; n < steps; ++n)
      for (double& x : u_) x *= factor_;
  }
  std::vector<double> values(int) override { return u_; }
  FieldStats stats(int) override {
    FieldStats s{u_[0], u_[0], 0};
    for (double x : u_) s.min = std::min(s.min, x), s.max = std::max(s.max, x), s.mean += x / double(u_.size());
    return s;
  }
  int64_t first_nonfinite(int) override {
    for (std::size_t k = 0; k < u_.size(); ++k)
      if (!std::isfinite(u_[k])) return int64_t(k);
    return -1;
  }
  bool settable(int field) const override { return field == 0; }
  void set_values(int, const std::vector<double>& v) override { u_ = v; }
  void save() override { saved_ = u_; }
  void restore() override { u_ = saved_; }
  double bytes_per_step() const override { return 16.0 * double(u_.size()); }

 private:
  double factor_;
  std::vector<double> u_, saved_;
  std::vector<std::string> names_{"u"};
};

struct DecaySpec {
  double k = 0, u0 = 0;
};

class DecaySetup : public SpecSetup<DecaySpec> {
 public:
  std::optional<StabilityRule> stability() const override {
    return StabilityRule{{2 / spec.k, "decay rate k = " + std::to_string(spec.k)}, "forward-Euler", {}, {}};
  }
  std::unique_ptr<Stepper> make_stepper(Backend, Precision) const override {
    return std::make_unique<DecayStepper>(spec.k, clock.dt, std::vector<double>(std::size_t(grid.cells()), spec.u0));
  }
  nlohmann::json resolved() const override {
    nlohmann::json j = clock_json(clock);
    j["model"] = {{"name", "test_decay"}, {"params", {{"k", spec.k}}}};
    return j;
  }
};

ModelFamily decay_family() {
  ModelDesc m{"test_decay", "exponential decay (a family of the test tree)", "u_t = -k u", {"u"},
              {{"k", 0.5, "decay rate", "1/time", 0, 2, false}}, {"euler"}, {}, {}};
  auto read = [](ModelContext& ctx) -> std::unique_ptr<ModelSetup> {
    auto s = std::make_unique<DecaySetup>();
    s->spec.k = ctx.cfg.get_double("model.params.k", 0.5);
    if (!(s->spec.k > 0)) ctx.cfg.fail("model.params.k", "expected a positive decay rate");
    s->spec.u0 = ctx.cfg.get_double("initial.u", 1.0);
    s->clock = read_steps_clock(ctx.cfg, ctx.cfg.get_choice("time.scheme", {"euler"}, "euler"));
    s->fields = {"u"};
    s->grid = ctx.grid;
    return s;
  };
  return ModelFamily{"test_decay_family", "decay, registered by a test", {m}, read};
}

void register_decay_once() {
  static const bool done = (register_family(decay_family()), true);
  (void)done;
}

std::string decay_config(const std::string& dir, double k, double dt, int steps, const std::string& extra = "") {
  std::ostringstream s;
  s << "[model]\nname = \"test_decay\"\n[model.params]\nk = " << k << "\n[grid]\nnx = 4\nny = 3\n"
    << "[time]\ndt = " << dt << "\nsteps = " << steps << "\n" << extra << "[initial]\nu = 2.0\n"
    << "[output]\nformats = [\"npy\"]\ndir = \"" << dir << "\"\n[run]\nbackend = \"serial\"\nprogress = false\n";
  return s.str();
}

TEST(Families, AFamilyRegisteredFromTheTestTreeRunsThroughPdexRun) {
  register_decay_once();
  ScratchDir dir;
  write_file_bytes(dir / "cfg.toml", decay_config(dir.str("out"), 0.5, 0.1, 30));
  ASSERT_EQ(cmd_run(dir.str("cfg.toml"), CliOverrides{}), 0);
  const auto s = read_json(dir / "out" / "summary.json");
  EXPECT_EQ(s["status"], "ok");
  EXPECT_EQ(s["model"], "test_decay");
  EXPECT_EQ(s["steps"], 30);
  EXPECT_DOUBLE_EQ(s["simulated_time"].get<double>(), 3.0);
  EXPECT_NEAR(s["fields"]["u"]["mean"].get<double>(), 2.0 * std::pow(0.95, 30), 1e-12);
  EXPECT_DOUBLE_EQ(s["stability"]["dt_max"].get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(s["config"]["model"]["params"]["k"].get<double>(), 0.5);
  EXPECT_EQ(s["config"]["grid"]["nx"], 4);
  EXPECT_EQ(s["outputs"].size(), 2u) << "the initial and final states";
}

TEST(Families, TheDriverAppliesARegisteredFamilysStableStep) {
  register_decay_once();
  ScratchDir dir;
  write_file_bytes(dir / "cfg.toml", decay_config(dir.str("out"), 0.5, 5.0, 3));
  try {
    cmd_run(dir.str("cfg.toml"), CliOverrides{});
    FAIL() << "dt = 5 exceeds 2 / k = 4";
  } catch (const InputError& e) {
    EXPECT_TRUE(contains(e.what(), "key 'time.dt'")) << e.what();
    EXPECT_TRUE(contains(e.what(), "use time.dt <= 4")) << e.what();
  }
}

TEST(Families, TheDriverNamesTheStepAtWhichARegisteredFamilyBlowsUp) {
  register_decay_once();
  ScratchDir dir;
  // |1 - k dt| = 1e150 a step: 2e300 after two steps, infinite at the third.
  write_file_bytes(dir / "cfg.toml", decay_config(dir.str("out"), 1e151, 1e-1, 10, "force = true\n"));
  EXPECT_THROW(cmd_run(dir.str("cfg.toml"), CliOverrides{}), NumericalError);
  const auto s = read_json(dir / "out" / "summary.json");
  EXPECT_EQ(s["status"], "failed");
  EXPECT_TRUE(contains(s["error"].get<std::string>(), "blew up at step 3")) << s["error"];
  EXPECT_EQ(s["steps_completed"], 2);
}

TEST(Families, AModelNameCanBeRegisteredOnce) {
  register_decay_once();
  EXPECT_THROW(register_family(decay_family()), Error);
  ModelFamily clash = decay_family();
  clash.name = "another";
  clash.models[0].name = "gray_scott";
  EXPECT_THROW(register_family(clash), Error);
}

TEST(Families, ListJsonDescribesEveryModelCompletely) {
  const Outcome o = run_pdex({"list", "--json"});
  ASSERT_EQ(o.status, 0) << o.output;
  const auto j = nlohmann::json::parse(o.output);
  ASSERT_GE(j["families"].size(), 5u);
  std::set<std::string> names;
  for (const auto& f : j["families"])
    for (const auto& m : f["models"]) {
      SCOPED_TRACE(m["name"].get<std::string>());
      names.insert(m["name"].get<std::string>());
      EXPECT_FALSE(m["fields"].empty());
      EXPECT_FALSE(m["schemes"].empty());
      EXPECT_FALSE(m["equations"].get<std::string>().empty());
      for (const auto& p : m["params"]) {
        EXPECT_FALSE(p["meaning"].get<std::string>().empty()) << p;
        EXPECT_FALSE(p["units"].get<std::string>().empty()) << p;
        EXPECT_LE(p["min"].get<double>(), p["default"].get<double>()) << p;
        EXPECT_LE(p["default"].get<double>(), p["max"].get<double>()) << p;
        EXPECT_LT(p["min"].get<double>(), p["max"].get<double>()) << p;
      }
      for (const auto& e : m["examples"]) {
        const fs::path file = fs::path(PDEX_SOURCE_DIR) / "examples" / e.get<std::string>();
        ASSERT_TRUE(fs::exists(file)) << file;
        EXPECT_TRUE(contains(read_file_bytes(file), "name = " + m["name"].dump())) << file << " runs another model";
      }
    }
  for (const char* m : {"turing", "gray_scott", "heat", "poisson", "laplace", "wave", "chemotaxis_stokes", "keller_segel",
                        "mean_curvature", "willmore"})
    EXPECT_TRUE(names.count(m)) << m;
  for (const char* key : {"solvers", "boundaries", "formats", "colormaps", "backends", "precisions"})
    EXPECT_FALSE(j[key].empty()) << key;
}

// Every example is listed by its model's descriptor, so `pdex list` points a user to all of them.
TEST(Families, EveryExampleIsListedByItsModel) {
  const auto j = families_json();
  for (const auto& e : fs::directory_iterator(fs::path(PDEX_SOURCE_DIR) / "examples")) {
    if (e.path().extension() != ".toml") continue;
    bool listed = false;
    for (const auto& f : j)
      for (const auto& m : f["models"])
        for (const auto& x : m["examples"]) listed |= x == e.path().filename().string();
    EXPECT_TRUE(listed) << e.path();
  }
}

// The application reads descriptors and names no model: a new family needs no change there.
TEST(Families, TheApplicationLayerNamesNoModel) {
  std::string app_text;
  for (const auto& e : fs::directory_iterator(fs::path(PDEX_SOURCE_DIR) / "src" / "pdex" / "app"))
    app_text += read_file_bytes(e.path());
  for (const auto& f : families_json())
    for (const auto& m : f["models"]) EXPECT_FALSE(contains(app_text, m["name"].dump())) << m["name"];
}

}  // namespace
}  // namespace pdex::app_testing
